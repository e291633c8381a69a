#pragma once
// The Latency tab: the block-layer probe's heat maps of the selected device and, for a map, each of its paths
// side by side, read at every sampler tick, with the time spent above the paths. The probe is loaded on a job
// the first time the view is shown; where it cannot load (not root, no BTF, lockdown) one line says why and
// nothing is charted. A normal user's probe runs in dmtune-helper, a remote host's in its agent (a LatencySource,
// read asynchronously at each tick).
#include "core/latency/latencyhistogram.h"
#include "core/latency/latencystream.h"
#include "core/ops/operation.h"
#include "core/sysfs/sysfsroot.h"
#include "widgets/charts/chartmarker.h"

#include <QHash>
#include <QList>
#include <QWidget>

#include <functional>
#include <memory>

class QGridLayout;
class QLabel;
class QPushButton;

namespace dmtune {

class BlockLatencyProbe;
class DmStatsLatency;
class HostSession;
class JobTracker;
class LatencySource;
class LatencyHeatMap;
struct SampleBatch;

class LatencyView : public QWidget {
    Q_OBJECT
public:
    struct Device {
        QString name; // kernel name, as in SampleBatch
        QString label; // the chart's title
    };

    explicit LatencyView(QWidget *parent = nullptr);
    ~LatencyView() override;

    // The device first (a map), then its paths; charts restart.
    void setDevices(const QList<Device> &devices);
    // One sampler tick: reads the probe for the shown devices (its shared memory, no system call).
    void onBatch(const SampleBatch &batch);
    // The Statistics tab's markers, on every heat map too.
    void addMarker(const ChartMarker &marker);
    void removeMarker(int id);
    void clearMarkers();

    // Loads the probe now rather than when first shown (tests, the screenshot option).
    void loadProbe();
    bool probeLoaded() const { return m_probe != nullptr; }
    // A normal user's probe: dmtune-helper through pkexec (what the "Read through pkexec" button starts); the
    // command is the tests' seam.
    void setHelperCommand(const HelperLatencyProbe::Command &command) { m_helperCommand = command; }
    void readThroughHelper();
    bool readsThroughHelper() const { return m_source != nullptr && m_remoteHost.isEmpty(); }
    // A remote host's window: the readings come from the probe of its agent (`makeSource` makes a source when the tab
    // is shown, and again after a lost connection), never from one here; `host` names it in the status line. Its
    // bio-based maps get no dm-stats regions from here.
    void setRemoteSource(std::function<LatencySource *()> makeSource, const QString &host);
    // The window's host (host/hostsession.h): its tree (dm-stats regions on a live one only), and its source when
    // its readings come from elsewhere (a remote host's agent); else this process's probe (or dmtune-helper's).
    void setHost(HostSession *host);
    bool readsFromRemoteHost() const { return m_source != nullptr && !m_remoteHost.isEmpty(); }

    // Bio-based dm maps among the shown devices (linear, striped: the probe sees no requests there) are counted
    // with dm-stats once the user accepted its plan (a region per map while shown, docs/latency.md).
    void setSysfsRoot(const SysfsRoot &root) { m_root = root; }
    QStringList dmStatsCandidates() const;
    // Plans on a job, then dmStatsPlanned(); the button shows the plan and asks before startDmStats().
    void planDmStats();
    void startDmStats(const OperationPlan &plan);
    bool countsWithDmStats() const { return m_dmStats != nullptr; }
    QString statusText() const;
    LatencyHeatMap *heatMap(const QString &name) const;

Q_SIGNALS:
    void probeReady(bool loaded);
    void dmStatsPlanned(const dmtune::OperationPlan &plan);
    // Started (the regions exist) or not (the line says why).
    void dmStatsStarted(bool started);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void rebuildCharts();
    void watchShown();
    // The status line while the probe runs: waiting for I/O on the shown devices, or what the charts show.
    void showProbeState();
    QList<BlockDeviceNumber> shownNumbers() const;
    // Charts each shown device's interval from its cumulative reading at `wallMs`.
    void chartReadings(qint64 wallMs, const QHash<QString, DeviceLatency> &now);
    void onSourceReading(const LatencyReading &reading);
    void startSource(LatencySource *source, const QString &startingText);
    void askDmStats(const OperationPlan &plan);
    void readDmStats(qint64 wallMs);
    void stopDmStats();
    void updateDmStatsButton();

    JobTracker *m_jobs = nullptr;
    std::shared_ptr<BlockLatencyProbe> m_probe;
    bool m_loading = false;
    QString m_reason;
    bool m_sawIo = false; // an interval of the shown devices had I/O
    QLabel *m_status = nullptr;
    QLabel *m_above = nullptr;
    QPushButton *m_helperButton = nullptr;
    QPushButton *m_dmStatsButton = nullptr;
    SysfsRoot m_root;
    std::shared_ptr<DmStatsLatency> m_dmStats; // read on jobs; its regions go with it
    QStringList m_dmStatsDevices; // what it counts (the object itself is the jobs')
    bool m_dmStatsBusy = false; // a plan or start job is running
    HelperLatencyProbe::Command m_helperCommand = HelperLatencyProbe::defaultCommand();
    LatencySource *m_source = nullptr; // dmtune-helper's or the remote agent's probe
    qint64 m_sourceWallMs = 0; // the batch the source's answer belongs to
    std::function<LatencySource *()> m_makeRemoteSource;
    QString m_remoteHost; // empty: this machine
    bool m_remoteWanted = false; // shown once: a source is asked for whenever none runs
    QGridLayout *m_grid = nullptr;
    QList<Device> m_devices;
    QList<ChartMarker> m_markers;
    QHash<QString, LatencyHeatMap *> m_charts;
    QHash<QString, DeviceLatency> m_before; // the probe's reading at the previous tick
    QHash<QString, std::pair<quint32, quint32>> m_numbers; // device numbers, learnt from the batches
};

} // namespace dmtune
