#pragma once
// One workload run as the GUI and the CLI both do it: fio through FioRun, the device statistics from the
// caller's Sampler, start and end as markers, and optionally everything written to a recording (the
// configuration snapshot, the raw counters, fio's progress and result). Also adds up the devices' counters
// over the run for the summary. Owns neither the sampler nor its timer: the caller starts it (before start(),
// so that the first interval has a baseline) and stops it.
#include "core/latency/latencyintervals.h"
#include "core/stats/samplebatch.h"
#include "core/util/atomicfile.h"
#include "core/workloads/devicehold.h"
#include "core/workloads/fiojob.h"
#include "core/workloads/fiorun.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>

#include <memory>

namespace dmtune {

class DeviceSnapshot;
class RecordingWriter;
class Sampler;
class SysfsRoot;
struct RecordingMeta;

// What to watch while a workload runs on `device`: the device, then what it is built on (a map's paths, a dm
// device's slaves), in the snapshot's order.
QStringList workloadDevices(const DeviceSnapshot &snapshot, const QString &device);
// The recording header for a run: host, kernel, now, 1 s, the devices and their configuration snapshot.
RecordingMeta workloadRecordingMeta(
    const SysfsRoot &root, const DeviceSnapshot &snapshot, const QStringList &devices, const QString &title);

// The watched devices' counters while fio ran, and the window they are divided by. Each sampler interval that
// overlaps the window counts whole: fio's own I/O window (from its final report: the longest group runtime
// before its timestamp) is set once fio ended, so the rates are over the seconds fio did I/O, as fio's own
// are, not over the process's life (start-up, layout, exit) rounded out to whole intervals. Without a window
// (fio killed before its report) the intervals' own span is used.
class DeviceRunTotals {
public:
    void clear();
    void add(const SampleBatch &batch);
    // fio's I/O from..to (epoch seconds); to <= from clears it. Intervals that end before `from` or start after
    // `to` no longer count.
    void setWindow(double fromEpoch, double toEpoch);
    bool hasWindow() const { return m_windowTo > m_windowFrom; }
    double windowFrom() const { return m_windowFrom; }
    double windowTo() const { return m_windowTo; }
    // The rates' denominator: the window when there is one, else the counted intervals' total.
    double seconds() const;
    // The counted intervals' total (>= seconds() with a window: they round it out to whole intervals).
    double sampledSeconds() const;
    QStringList devices() const;
    // iostat -x over seconds() (in-flight values are those of the last counted interval).
    IostatMetrics metrics(const QString &device) const;

private:
    struct Interval {
        double from = 0, to = 0; // epoch seconds
        QHash<QString, CounterDeltas> deltas;
        QHash<QString, std::array<quint32, 2>> inflight;
    };
    bool counts(const Interval &interval) const;
    QStringList m_order;
    QList<Interval> m_intervals;
    double m_windowFrom = 0, m_windowTo = 0;
};

// fio's I/O window of a report (its final one): {from, to} in epoch seconds; {0, 0} when it has no timestamp or
// no runtime (fio killed, a report of another shape).
std::pair<double, double> fioIoWindow(const QJsonObject &report);

// {"read_iops", "write_iops", "read_bytes_per_second", ..., "clat_p50_us", "clat_p99_us", ...}
QJsonObject fioRatesToJson(const FioRates &rates);
// fioRatesToJson's keys back as FioRates (a progress event, a `run --json` line, a summary's "fio" groups).
FioRates fioRatesFromJson(const QJsonObject &rates);
// iostat's JSON keys ("w/s" as "w_s" etc., from MetricCatalog) for the iostat -x columns.
QJsonObject metricsToJson(const IostatMetrics &metrics);
// metricsToJson's keys back (the other metrics 0).
IostatMetrics metricsFromJson(const QJsonObject &metrics);
// A status object as dmtune records it: the histograms (json+ bins, ~5 KB per job and direction) dropped, the
// per-second rates computed from them added as "dmtune_rates".
QJsonObject compactFioStatus(const QJsonObject &status, const QList<FioRates> &rates);

class WorkloadSession : public QObject {
    Q_OBJECT
public:
    explicit WorkloadSession(Sampler *sampler, QObject *parent = nullptr);
    ~WorkloadSession() override;

    // Where fio comes from (tests); default: FioRun::findFio().
    void setFioProgram(const QString &path) { m_fio.setProgram(path); }
    void setGraceMs(int ms) { m_fio.setGraceMs(ms); }

    // Starts fio on devicePath. recordPath empty: no recording. The guard is the caller's business (it has
    // the confirmation): hold is what its decision held (checkWrite), kept by the run and released when fio
    // ends, fails or is stopped. A template that writes needs one, on devicePath. Fails at once when the
    // recording cannot be created, the hold is missing or of another device, or a run is going.
    // An existing file at recordPath is refused unless `existingRecording` is Replace (the user asked).
    Status start(const FioJob &job, const QString &devicePath, const QString &recordPath = {},
        const RecordingMeta *meta = nullptr, DeviceHold hold = {},
        ExistingFile existingRecording = ExistingFile::Refuse);
    void stop() { m_fio.stop(); }
    bool isRunning() const { return m_fio.isRunning(); }
    // The device held for the run (empty when none is, e.g. a read workload, or after fio ended).
    QString heldDevice() const { return m_hold.device(); }
    FioRun *fio() { return &m_fio; }
    const DeviceRunTotals &totals() const { return m_totals; }
    const FioJob &job() const { return m_job; }
    QString devicePath() const { return m_devicePath; }
    QString recordPath() const { return m_recordPath; }

    // The block-layer latency probe to read at every batch (not owned; null: none): its histograms go into the
    // recording beside the counters and, over fio's run, into the summary's devices.
    void setLatencyProbe(const BlockLatencyProbe *probe);
    // The probe's histograms of a device over fio's run (empty without a probe).
    DeviceLatency latencyTotal(const QString &device) const { return m_latencyTotals.value(device); }

    // The run's summary: job, command line, fio's overall rates per group, the devices' iostat over the run.
    QJsonObject summary(const FioOutcome &outcome) const;

Q_SIGNALS:
    void started(double epochSeconds, const QStringList &argv);
    void progress(const dmtune::FioProgress &progress);
    void finished(const dmtune::FioOutcome &outcome, const QJsonObject &summary);
    void failed(const QString &message);
    // The recording stopped working (disk full...): the run goes on without it.
    void recordingFailed(const QString &message);

private:
    void onBatch(const SampleBatch &batch);
    void record(const Status &status);
    void closeRecording(const FioOutcome *outcome);

    Sampler *m_sampler;
    FioRun m_fio;
    FioJob m_job;
    QString m_devicePath, m_recordPath;
    std::unique_ptr<RecordingWriter> m_writer;
    DeviceHold m_hold;
    DeviceRunTotals m_totals;
    std::unique_ptr<LatencyIntervals> m_latency;
    QHash<QString, DeviceLatency> m_latencyTotals; // over fio's run, per device
    bool m_fioRunning = false;
};

} // namespace dmtune
