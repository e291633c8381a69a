#pragma once
// The "Path groups" tab: the shown map's path-group editor above, its selector chart below, fed by one
// status read a second while visible and at once on a device-mapper event of the map. The reads run as
// jobs (JobTracker::startLatest: a newer read supersedes a slow one), never on the UI thread, so a
// suspended map or a busy multipathd cannot freeze the window. Owns the window's device-mapper access
// for multipath work (an OperationRunner for the multipath.* operations, the actions of the device
// tree's context menu, a DmEventWatcher on every map). Without device-mapper (or on a captured tree)
// it says why the groups are unknown and edits nothing. A remote host's panel reads the maps of the host's
// capture and has the operations planned and run there (an OperationService of the host's agent).
#include "core/discovery/devicesnapshot.h"
#include "core/dm/lunidentity.h"
#include "core/dm/multipathchange.h"
#include "core/dm/multipathd/multipathdviewjob.h"
#include "core/jobs/jobtracker.h"
#include "core/ops/operation.h"
#include "core/sysfs/sysfsroot.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QSplitter;
class QTimer;

namespace dmtune {

class DeviceMapper;
class DmEventWatcher;
class HostContext;
class HostSession;
class MapStream;
class MultipathActions;
class OperationService;
class PathGroupEditor;
class SelectorChart;

class PathGroupsPanel : public QWidget {
    Q_OBJECT
public:
    // This machine: the host's device-mapper (HostContext::deviceMapper(): the live root, with device-mapper,
    // as root); a captured tree or a kernel without it leaves everything read-only with the reason.
    explicit PathGroupsPanel(std::shared_ptr<const HostContext> host, QWidget *parent = nullptr);
    // Tests and demos: this device-mapper (not owned, e.g. a FakeDeviceMapper), no event watcher.
    explicit PathGroupsPanel(DeviceMapper *dm, QWidget *parent = nullptr);
    // The host's (host/hostsession.h): its live device-mapper, or the maps of its capture (a remote host's fetched
    // one, read again with every snapshot); operations through a service of its own the host makes; the actions off
    // while the host is not connected.
    explicit PathGroupsPanel(HostSession *host, QWidget *parent = nullptr);
    // A remote host: the maps of its capture under `capture` (read again with every snapshot, i.e. every
    // fetch), every operation through `remote` (not owned; it outlives the panel), which plans and runs it on
    // the host. The caller fetches the capture again on refreshRequested().
    PathGroupsPanel(const SysfsRoot &capture, OperationService *remote, QWidget *parent = nullptr);
    ~PathGroupsPanel() override;

    void setSnapshot(const DeviceSnapshot &snapshot);
    // A map by dm name, its block device ("dm-3") or one of its paths ("sdb"); anything else shows
    // "select a map". Returns whether a map is shown.
    bool showDevice(const QString &nameOrDevice);
    void showMap(const QString &map);
    QString shownMap() const { return m_map; }
    bool deviceMapperAvailable() const { return m_readDm != nullptr; }
    QString unavailableReason() const { return m_unavailable; }

    // Reads the shown map's table and status now, on a job (a timer does it every interval while the panel
    // is visible); stateRead() says when the editor and the chart have it. While a read runs, another
    // request of the same map waits for it (one more read follows); another map's read supersedes it.
    void readNow();
    void setReadInterval(int milliseconds);
    bool isReading() const { return m_readJob != 0; }

    PathGroupEditor *editor() const { return m_editor; }
    SelectorChart *chart() const { return m_chart; }
    MultipathActions *actions() const { return m_actions; }
    OperationService *runner() const { return m_runner; }
    // Remote: why the host cannot be asked now ("not connected to db1"; empty when connected): the tree's
    // actions are off with it as their reason (the editor's reload gets the service's own answer).
    void setConnectionProblem(const QString &problem);
    bool isRemote() const { return m_remote; }
    // One line for the status bar: "mpatha: fail_path 8:16 done via device-mapper", "… failed: reason".
    static QString resultText(const OperationResult &result);

Q_SIGNALS:
    // A multipath operation finished or device-mapper reported an event: discovery should rescan.
    void refreshRequested();
    void statusMessage(const QString &text, int timeoutMs);
    void operationFinished(const dmtune::OperationResult &result);
    // A read of `map` reached the editor and the chart (ok false: the map could not be read).
    void stateRead(const QString &map, bool ok);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void init();
    // The editor gets the height its group cards (their path tables) ask for, the chart the rest but at least
    // its minimum; until the user drags the splitter, whose choice then stays.
    void fitSplitter();
    void onOperationFinished(const OperationResult &result);
    void onStateRead(const QString &map, const Result<MultipathMapState> &state);
    // `service` (owned from now on), or an OperationRunner in m_host's environment.
    void makeRunner(OperationService *service);
    // The live tree's device-mapper, its runner (made by `makeService`, else makeRunner's own), its events.
    void setUpLive(const std::function<OperationService *()> &makeService);
    // The maps of m_capture, every operation through `service`.
    void useCapture(OperationService *service, bool owned);
    void onMapEvent(const QString &map);
    QHash<QString, QString> deviceNames() const;
    MapIdentity identityOf(const QString &uuid) const;
    void showUnavailable();
    // Asks multipathd for the shown map's priorities and checker states on a job (its socket may take
    // seconds when multipathd is busy; the newest question supersedes an older one). Remote: what the fetched
    // capture recorded of the host's multipathd, read once per capture and map.
    void fetchMultipathdView();

    std::shared_ptr<const HostContext> m_host; // local: the window's host (its device-mapper); null when remote
    // Remote: the capture's maps (CapturedDeviceMapper), made again for every snapshot; a read in flight holds
    // the one it reads.
    SysfsRoot m_capture;
    std::shared_ptr<DeviceMapper> m_capturedDm;
    bool m_remote = false;
    MapStream *m_mapStream = nullptr; // a remote host's reports of the shown map
    QString m_connectionProblem;
    DeviceMapper *m_readDm = nullptr;
    QString m_unavailable;
    DeviceSnapshot m_snapshot;
    bool m_haveSnapshot = false;
    QString m_map;
    QString m_nvmeHead; // the native NVMe head selected, when no dm map is
    // Where the NVMe warnings read nvme_core's multipath and the controllers' ctrl_loss_tmo: the live root or a
    // remote host's capture; none in tests (the snapshot alone).
    std::optional<SysfsRoot> m_warningsRoot;
    QSplitter *m_splitter = nullptr;
    QWidget *m_chartBox = nullptr;
    bool m_splitterMoved = false;
    MultipathdMapsQuery m_multipathdQuery; // the live daemon or the capture's record; none in tests
    int m_captureGeneration = 0; // remote: counts the fetched captures
    QString m_multipathdAsked; // remote: "map@generation" last asked

    JobId m_readJob = 0; // the read in flight, 0 when none
    QString m_readJobMap;
    bool m_readAgain = false;

    OperationService *m_runner = nullptr;
    bool m_ownsRunner = false; // an OperationRunner made here (local); a remote host's service is not ours
    DmEventWatcher *m_watcher = nullptr;
    MultipathActions *m_actions = nullptr;
    PathGroupEditor *m_editor = nullptr;
    SelectorChart *m_chart = nullptr;
    QTimer *m_readTimer = nullptr;
    QTimer *m_refreshDebounce = nullptr;
    // Last: deleted (joined) in the destructor before the backends its reads use.
    JobTracker *m_jobs = nullptr;
};

} // namespace dmtune
