#pragma once
// The main window: device tree on the left, the selected device's details and its Tune tab on the
// right, the undo history in a dock, the host's facts in the status bar. It wires the widgets to its host's
// session (host/hostsession.h: this machine's, or a remote host's through its agent) and never asks which one it is.
#include "core/remote/hostaddress.h"
#include "core/sysfs/sysfsroot.h"
#include "widgets/about/aboutdialog.h"

#include <QMainWindow>
#include <QPointer>

#include <memory>

class QJsonObject;
class QDialog;
class QDockWidget;
class QLabel;
class QMenu;
class QSplitter;
class QTabWidget;
class QTimer;
class QTreeView;

namespace dmtune {

class ChangeHistoryPanel;
class ExplainPane;
class HostHeader;
class HostSession;
struct ProposedSweep;
class JobTracker;
class DeviceDetailPane;
class DeviceSnapshot;
class DeviceTreeModel;
class DeviceTreeView;
class LabDevices;
class ExternalChangeWatcher;
class OperationService;
struct OperationPlan;
struct OperationResult;
class Discovery;
struct NvmeMultipathHead;
class ParameterEditor;
class LatencyView;
class LiveStatsView;
class RemoteHost;
class SampleSource;
class SeriesStore;
class PathGroupsPanel;
class PresetManager;
class TuningSession;
class WorkloadPanel;
class ExperimentPanel;
struct ApplyResult;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // This machine's window. sysfs: the live /sys, or a captured tree (then everything is read-only and the title
    // says so).
    explicit MainWindow(SysfsRoot sysfs = SysfsRoot(), QWidget *parent = nullptr);
    // A remote host's window (takes the host): its devices as the capture the host fetches, its statistics and
    // latency from its agent's streams, every operation planned and run there, its name on the title, above the
    // panes and on every chart, and a banner while it is not connected. Call start(), then connect the host (or
    // openRemoteWindow() does both).
    explicit MainWindow(RemoteHost *host, QWidget *parent = nullptr);
    // The window of a host's session (takes it).
    explicit MainWindow(HostSession *host, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Starts discovery (and the udev monitor on the live root).
    void start();
    // Restores geometry and splitters; the window then saves them when it closes.
    void restoreSettings();
    // Selects the row that stands for a device; false when the tree does not show it.
    bool selectDevice(const QString &name);

    // The window's host: its environment, devices, counters, operations and connection.
    HostSession *hostSession() const { return m_hostSession; }
    Discovery *discovery() const { return m_discovery; }
    DeviceTreeModel *treeModel() const { return m_model; }
    QTreeView *treeView() const;
    DeviceDetailPane *detailPane() const { return m_detail; }
    QString statusText() const;

    // Tuning: the Tune tab, the History dock and the session (one Applier, Auto mode: in-process
    // as root, pkexec dmtune-helper otherwise). A captured tree is read-only unless a test or a
    // demo makes it writable (then changes are written into the tree, in-process).
    ParameterEditor *parameterEditor() const { return m_editor; }
    ChangeHistoryPanel *historyPanel() const { return m_historyPanel; }
    QDockWidget *historyDock() const { return m_historyDock; }
    TuningSession *tuningSession() const { return m_session; }
    void setTreeWritable(bool writable);
    // "details" or "tune"; false for another name.
    bool showTab(const QString &name);
    QString currentTabName() const;
    QString tuningStatusText() const;

    // The "Path groups" tab of the selected map (editor, selector chart); it also fills the tree's
    // context menu with multipath operations and rescans on device-mapper events.
    PathGroupsPanel *pathGroupsPanel() const { return m_pathGroups; }
    // The preset manager (Presets menu; mainwindow_presets.cpp).
    PresetManager *presetManager() const { return m_presets; }

    // The "Statistics" tab: one Sampler for the window, its history, and the charts of the selected
    // device (a map with each of its paths). Parameter changes become markers on every chart.
    LiveStatsView *statsView() const { return m_stats; }
    ExternalChangeWatcher *externalChanges() const { return m_externalChanges; } // null in a captured tree's window
    SampleSource *samples() const { return m_samples; }

    // First run (mainwindow_firstrun.cpp): with no multipath maps, one line on what dmtune does with
    // root and on a multipath host, and the offer of the lab device (a loop device over a sparse file,
    // removed when the window goes), which is then selected. One lab device per window: share it.
    // Created and removed by the lab.create / lab.remove operations of the host's session (this process's runner,
    // a job: no loop ioctl on the UI thread; or a remote host's agent, on the host, removed there when the window's
    // connection ends). labDeviceChanged() when a result came back.
    QLabel *firstRunHint() const { return m_firstRunHint; }
    void createLabDevice();
    void removeLabDevice();
    QString labDeviceName() const { return m_labName; } // empty when there is none
    QString labBackingFile() const { return m_labBackingFile; }
    bool isLabBusy() const { return m_labBusy; } // a lab operation is planned or running
    // Where the next lab device's directory goes on this machine (default LabDevices::defaultBaseDirectory()).
    void setLabBaseDirectory(const QString &dir);
    // The lab devices this process made for the window (thread-safe; their calls do loop ioctls: jobs only, never
    // the UI thread); null in a remote host's window (its agent's are on the host).
    LabDevices *labDevices() const;

    // The Workload dock (mainwindow_workloads.cpp): fio templates, the guard, runs charted in Statistics.
    WorkloadPanel *workloadPanel() const { return m_workloadPanel; }
    QDockWidget *workloadDock() const { return m_workloadDock; }
    // The Experiment tab (mainwindow_experiments.cpp): sweeps on the window's host (a remote host's through its
    // agent).
    ExperimentPanel *experimentPanel() const { return m_experimentPanel; }
    // The Latency tab (mainwindow_latency.cpp): the probe of this machine, or of a remote host's agent.
    LatencyView *latencyView() const { return m_latency; }
    // Shows an earlier sweep's results (DIR/sweep.json) in the Experiment tab; false with *error when unreadable.
    bool openSweepResults(const QString &dir, QString *error = nullptr);

    // The Explain dock (mainwindow_explain.cpp): the diagnosis of the selected map beside the tabs, each finding's
    // experiment set up in the Experiment tab on request. Hidden until View > Explain (or --explain).
    ExplainPane *explainPane() const { return m_explain; }
    QDockWidget *explainDock() const { return m_explainDock; }
    void showExplain();
    // A finding's experiment into the Experiment tab's form (shown, not run).
    void setUpProposedSweep(const ProposedSweep &sweep);

    // Recordings (mainwindow_recordings.cpp): File > Open recording…, Compare recordings…, Export report….
    // One file opens a RecordingView window, several a CompareView (both deleted on close); null with *error
    // when a file cannot be read.
    QWidget *openRecordings(const QStringList &files, QString *error = nullptr);

    // Help > About dmtune: the versions are read on a job; the dialog opens when they are in (aboutShown()).
    void showAbout();

    // Remote hosts (mainwindow_remote.cpp). File > Connect to host… opens the ConnectDialog (connectDialogShown);
    // each host opens a window of its own (remoteWindowOpened), deleted when closed, and with this window at the
    // latest. ssh's settings: $DMTUNE_SSH_CONFIG (ssh -F) and $DMTUNE_REMOTE_DMTUNECTL, as dmtunectl --host.
    void showConnectDialog();
    MainWindow *openRemoteWindow(const HostAddress &address, const QByteArray &sudoPassword = {});
    // A fleet window over a hosts file (File > Open fleet…, --fleet), whose hosts open in a remote window through
    // the agent from its context menu; null, with the message, when the file cannot be read or parsed.
    QWidget *openFleet(const QString &hostsFile, QString *errorMessage);
    MainWindow *openRemoteWindow(const HostAddress &address, const SshSettings &ssh, const QByteArray &sudoPassword);
    // The lines above the panes that name a remote host, and its banner while it is not connected (hidden for this
    // machine).
    HostHeader *hostHeader() const { return m_hostHeader; }
    SeriesStore *seriesStore() const { return m_store; }

Q_SIGNALS:
    void aboutShown(dmtune::AboutDialog *dialog);
    // The tree, the pane and the status bar show a new snapshot.
    void snapshotShown();
    // One per value a transaction changed (Apply or Undo), when it was applied: "sdb nomerges 0 -> 2".
    // For chart markers (LiveStatsView::addMarker).
    void parameterChanged(double epochSeconds, const QString &label);
    // A lab.create or lab.remove result came back (the name is empty when the window has no lab device now).
    void labDeviceChanged(const QString &name);
    void connectDialogShown(QDialog *dialog);
    void remoteWindowOpened(dmtune::MainWindow *window);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    QMenu *menuNamed(const QString &text) const; // a menu of the menu bar by its text ("&File"); null if none
    void onSnapshot(const DeviceSnapshot &snapshot);
    void onCurrentRowChanged(const QModelIndex &current);
    void restoreSelection(const DeviceSnapshot &snapshot);
    void fitSplitterToTree();
    void updateStatusBar(const DeviceSnapshot &snapshot);
    QString kernelRelease() const;
    void onTreeSelectionChanged();
    void onTransactionFinished(const ApplyResult &result, bool wasUndo);
    void updateTuningLabel();
    void setupPathGroups();
    void setupStatistics(); // mainwindow_stats.cpp
    void setupFirstRun(); // mainwindow_firstrun.cpp
    void setupPresets(); // mainwindow_presets.cpp
    void setupRecordings(); // mainwindow_recordings.cpp
    void setupWorkloads(); // mainwindow_workloads.cpp
    void setupExperiments(); // mainwindow_experiments.cpp
    void setupExplain(); // mainwindow_explain.cpp
    void setupLatency(); // mainwindow_latency.cpp: the Latency tab
    void showLatencyOf(const QStringList &devices, const QHash<QString, QString> &labels);
    QWidget *withHostHeader(QWidget *central); // mainwindow_remote.cpp: the host's header and banner above `central`
    void setupConnectMenu(); // mainwindow_remote.cpp: File > Connect to host…
    QWidget *tuneTab(QWidget *editor); // mainwindow_remote.cpp: the Tune tab, with a line on where a remote host's runs
    QString hostName() const; // a remote host's name for titles; empty for this machine
    void updateFirstRunHint(const DeviceSnapshot &snapshot);
    // lab.create (creating) or lab.remove, run unless its plan asks; the answers come back with `creating`.
    void runLabOperation(bool creating, const QString &kind, const QJsonObject &request);
    void onLabPlanned(const OperationPlan &plan, bool creating);
    void onLabFinished(const OperationResult &result, bool creating);
    void labSettled(const QString &message); // not busy any more: panel, hint, status bar
    void chartSelectedDevice(); // the selected device, or a map and its paths, or an NVMe head and its paths
    // Above the charts of a native NVMe head that counts nothing: why, and (where the kernel can) the offer to
    // turn its queue/iostats on, which offerHeadStatistics() makes a pending edit in the Tune tab.
    void showHeadStatisticsNote(const NvmeMultipathHead *head);
    void offerHeadStatistics();

    // The host this window shows (a child, moved last among the children: the widgets go before it).
    HostSession *m_hostSession = nullptr;
    SysfsRoot m_sysfs; // the host's tree
    Discovery *m_discovery = nullptr; // the host's
    DeviceTreeModel *m_model = nullptr;
    DeviceTreeView *m_tree = nullptr;
    DeviceDetailPane *m_detail = nullptr;
    TuningSession *m_session = nullptr;
    ParameterEditor *m_editor = nullptr;
    QWidget *m_tuneTab = nullptr; // m_editor, or (remote) it with the line that says tuning is read-only
    QTabWidget *m_tabs = nullptr;
    PathGroupsPanel *m_pathGroups = nullptr;
    PresetManager *m_presets = nullptr;
    ExternalChangeWatcher *m_externalChanges = nullptr; // the charted devices' changes by others (a live tree only)
    SampleSource *m_samples = nullptr; // the host's
    SeriesStore *m_store = nullptr;
    LiveStatsView *m_stats = nullptr;
    ChangeHistoryPanel *m_historyPanel = nullptr;
    QDockWidget *m_historyDock = nullptr;
    QSplitter *m_splitter = nullptr;
    QLabel *m_firstRunHint = nullptr;
    QString m_labName, m_labBackingFile;
    QString m_labWhyNot; // empty: a lab device can be made here
    bool m_labBusy = false;
    WorkloadPanel *m_workloadPanel = nullptr;
    ExperimentPanel *m_experimentPanel = nullptr;
    ExplainPane *m_explain = nullptr;
    LatencyView *m_latency = nullptr; // this machine's probe, or the remote host's agent's
    QDockWidget *m_explainDock = nullptr;
    QDockWidget *m_workloadDock = nullptr;
    QString m_selectWhenShown; // the lab device just created, selected once a snapshot has it
    QLabel *m_kernelLabel = nullptr;
    QLabel *m_deviceMapperLabel = nullptr;
    QLabel *m_countLabel = nullptr;
    QLabel *m_hotplugLabel = nullptr;
    QLabel *m_tuningLabel = nullptr;

    // The row the user chose, by key and by device: a refresh may remove the row (a path that
    // moved group) while the device is still shown elsewhere.
    QString m_selectedKey;
    QString m_selectedDevice;
    QString m_noteHead; // the head the statistics note is about
    bool m_applyingSnapshot = false;
    bool m_autoFitTree = true;
    // The tree's width when the splitter has twice that: its names and kinds readable.
    static constexpr int MinimumTreeWidth = 280;
    QTimer *m_fitTreeTimer = nullptr;
    bool m_saveSettings = false;
    static constexpr int TabsMinimumHeight = 424; // with the menus, the Workload dock and the status bar: < 716
    HostHeader *m_hostHeader = nullptr; // mainwindow_remote.cpp
    QPointer<MainWindow> m_opener; // the window whose File > Connect opened this one
    QList<QPointer<MainWindow>> m_remoteWindows; // opened from here: deleted with this window
    JobTracker *m_jobs = nullptr; // the window's own reads (About's versions); last: joins before the rest goes
};

} // namespace dmtune
