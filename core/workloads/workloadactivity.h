#pragma once
// workload.start as a long-running operation (ops/operationactivity.h): fio on the checked device, run by a
// WorkloadSession on the thread of the OperationService that started it (dmtunectl run, the Workloads dock; a
// remote host's agent), with a Sampler of its own over the device and what it is built on. Shells render its events
// and its result; none of them runs fio itself.
//
// The request's optional fields (workloadoperations.h): "record" (a recording file to create; "replace_recording"
// true replaces an existing one), "latency" ("required": the start is refused when the block-layer probe cannot
// load; "wanted": the run goes on without it and says why in a "note" event).
//
// Progress events, in order:
//   {"event": "started", "t" (epoch s), "argv", "command", "device" (/dev/NAME), "devices" (watched), "record"}
//   {"event": "note", "without": "latency", "reason", "text"}: what the run goes without, and why
//   per fio status with I/O: {"event": "progress", "t", "runtime_ms" (fio's first group), "rates":
//     [fioRatesToJson per group], "devices": {NAME: metricsToJson of the newest sample}} ("devices" absent before
//     the first sample)
//   {"event": "output", "line"}: fio's own lines ("fio: ...", "note: ...")
//   {"event": "recording-failed", "message"}: the recording stopped (disk full...); the run goes on
// The result: ok when fio ended with its report (also when stopped by cancel(): "details.stopped"); "details" is
// the run's summary (WorkloadSession::summary) plus "window_from"/"window_to" (fio's I/O window, epoch s; 0 without)
// and, with the probe, "latency_histograms" {NAME: deviceLatencyJson}. fio failing is ok false with its error.
#include "core/ops/operationactivity.h"
#include "core/recordings/recordingwriter.h"
#include "core/stats/sampler.h"
#include "core/workloads/workloadsession.h"

#include <optional>

namespace dmtune {

class BlockLatencyProbe;

// The run, as the start checked it: the fresh plan's frozen job and device, its hold, and what goes with it.
struct CheckedWorkload {
    FioJob job;
    QString devicePath;
    std::shared_ptr<DeviceHold> hold; // a write's; empty for a read
    QString fio; // the program
    QStringList watched; // the device, then what it is built on (workloadDevices)
    QString recordPath; // empty: not recorded
    ExistingFile existingRecording = ExistingFile::Refuse;
    RecordingMeta meta; // when recorded
    std::shared_ptr<BlockLatencyProbe> probe; // null: no latency histograms
    QString probeNote; // why there is no probe, when it was wanted
};

class WorkloadActivity : public OperationActivity {
    Q_OBJECT
public:
    WorkloadActivity(const SysfsRoot &sysfs, CheckedWorkload run, OperationResult checked, QObject *parent = nullptr);
    ~WorkloadActivity() override;
    void start() override;
    void cancel() override;

private:
    void onProgress(const FioProgress &progress);
    void onFinished(const FioOutcome &outcome, const QJsonObject &summary);
    void fail(const QString &message);

    CheckedWorkload m_run; // first: the probe outlives the session that reads it
    OperationResult m_checked; // the start's result: kind, plan, target
    Sampler m_sampler;
    WorkloadSession m_session; // deleted first: kills a fio still running, closes the recording
    std::optional<SampleBatch> m_lastBatch; // the newest sample not yet sent with a progress event
    bool m_ended = false;
};

// workload.start's start (registered by registerWorkloadOperations()): the plan's hold let go, the answers and a fresh
// plan checked (its hold taken again), fio found, the latency probe loaded when asked; the activity made on the
// service's thread.
OperationStart startWorkloadOperation(
    const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers);

} // namespace dmtune
