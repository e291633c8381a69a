#pragma once
// The Experiment tab (docs/experiments.md): the GUI's `dmtunectl sweep`. The form makes a SweepRequest; Run
// plans experiment.sweep through the panel's OperationService (an OperationRunner in the host's environment),
// shows the plan (PlanDialog: the device's name to type when a workload would destroy data) and starts it
// (OperationService::start: the checks again, then the sweep on the service's own thread, so no sysfs write or fio
// start happens on the UI thread). Its progress events fill the log, the table and the chart after every run;
// Stop cancels it through its handle; Open reads an earlier sweep's sweep.json. Closing the panel stops a running
// sweep and waits for its values to be put back (the service's destructor).
// In a remote host's window the same form plans and starts the sweep through the host's agent
// (setOperationService): the sweep runs and restores there, its progress events fill the same log, table and chart.
#include "core/discovery/devicesnapshot.h"
#include "core/experiments/sweepoperation.h"
#include "core/sysfs/sysfsroot.h"
#include "core/util/atomicfile.h"
#include "widgets/ops/plandialog.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace dmtune {

class HostContext;
class HostSession;
class OperationRun;
class OperationRunner;
class OperationService;
class SweepChart;
class SweepResultsModel;

class ExperimentPanel : public QWidget {
    Q_OBJECT
public:
    // host: the window's (ops/hostcontext.h); sweeps run on its devices when its tree is live.
    explicit ExperimentPanel(std::shared_ptr<const HostContext> host, QWidget *parent = nullptr);
    // The host's (host/hostsession.h): its sweeps planned and started by a service of the panel's own the host
    // makes (this process's runner, or the host's agent: the sweep runs and restores there).
    explicit ExperimentPanel(HostSession *host, QWidget *parent = nullptr);
    ~ExperimentPanel() override;

    // A remote host's sweeps (its window): planned and started by its agent (`service`, not owned; its runs end when
    // it goes), on its devices; `host` names it in the panel's lines. Not recorded (a recording would be a folder on
    // the host: `dmtunectl --host HOST sweep --record-dir DIR`): the results are the table's. Job files are paths
    // on the host, read there.
    void setOperationService(OperationService *service, const QString &host);
    QString hostName() const { return m_hostName; } // empty: this machine

    void setSnapshot(const DeviceSnapshot &snapshot);
    bool selectDevice(const QString &name);
    QString currentDevice() const; // empty: none chosen
    // The form, as a script or a test fills it: "queue_depth=2,8,32" and an optional second one.
    void setParameters(const QString &first, const QString &second = {});
    void setWithPaths(bool on);
    // Templates to run (every other one unchecked) and job files.
    void setWorkloads(const QStringList &templateIds, const QStringList &jobFiles = {});
    void setRepeats(int repeats);
    void setRuntimeSeconds(int seconds); // 0: each template's own
    void setSettleSeconds(int seconds);
    void setRecordDirectory(const QString &dir); // empty: no recordings

    // The form from a request (an opened sweep's, to run it again); the device chosen when it is in the snapshot.
    void setRequest(const SweepRequest &request);
    // The request as the form says it; an error names the field.
    Result<SweepRequest> currentRequest() const;
    // Run as the button does: plan (a job), the dialog, then the start (checked again, then run).
    void run();
    void stop();
    bool isRunning() const { return !m_sweep.isNull(); }
    bool isBusy() const { return m_checking || isRunning(); }
    // An earlier sweep's results from DIR/sweep.json; false (and the reason in the status) when unreadable.
    bool openResults(const QString &dir);
    // The report (HTML or PDF, by the suffix) of the sweep shown, when it has a folder (recorded or opened).
    Status writeReport(const QString &path, ExistingFile existing = ExistingFile::Refuse);
    QString shownDirectory() const { return m_shownDir; }

    // The form's page or the results' (the chart, the log, the table): each has the tab's whole room.
    enum class Page { Sweep, Results };
    void showPage(Page page);
    Page currentPage() const;

    PlanDialog *pendingConfirmation() const { return m_confirm; }
    SweepResultsModel *resultsModel() const { return m_model; }
    QTableView *resultsView() const { return m_table; }
    SweepChart *chart() const { return m_chart; }
    QComboBox *metricCombo() const { return m_metric; }
    QComboBox *deviceCombo() const { return m_resultDevice; }
    QString statusText() const;
    QString logText() const;
    SweepOutcome lastOutcome() const { return m_outcome; }

Q_SIGNALS:
    // The sweep's device, so the window charts it while the sweep runs.
    void targetChosen(const QString &device);
    void sweepFinished(const dmtune::SweepOutcome &outcome);

private:
    void buildUi();
    void onPlanned(const OperationPlan &plan);
    void startChecked(const OperationPlan &plan, const OperationAnswers &answers);
    void onProgress(const QJsonObject &event);
    void onStarted(const SweepRequest &request, int points);
    void onRunFinished(const SweepMeasurement &measurement);
    void onResult(const OperationResult &result);
    void onFinished(const SweepOutcome &outcome);
    void showResults(const SweepRequest &request, const QList<SweepPointResult> &results);
    void updateChart();
    void updatePlaceholders(); // the parameter examples, for the device chosen
    void updateButtons();
    void setStatus(const QString &text);
    void log(const QString &line);
    QString devicePath(const QString &device) const; // "/dev/sdb", in a remote window "HOST:/dev/sdb"

    std::shared_ptr<const HostContext> m_host;
    SysfsRoot m_root; // m_host's tree
    DeviceSnapshot m_snapshot;
    SweepRequest m_shown; // the request of the results shown
    QString m_shownDir; // their folder (sweep.json), or empty
    QList<SweepMeasurement> m_measurements; // of the running sweep
    QList<SweepPoint> m_points;
    SweepOutcome m_outcome;
    bool m_checking = false;
    bool m_began = false; // the running sweep's "started" event came
    QPointer<PlanDialog> m_confirm;

    QTabWidget *m_pages = nullptr;
    QComboBox *m_device = nullptr;
    QLineEdit *m_param1 = nullptr;
    QLineEdit *m_param2 = nullptr;
    QCheckBox *m_withPaths = nullptr;
    QListWidget *m_templates = nullptr;
    QLineEdit *m_jobFiles = nullptr;
    QSpinBox *m_repeats = nullptr;
    QSpinBox *m_runtime = nullptr;
    QSpinBox *m_warmup = nullptr;
    QSpinBox *m_settle = nullptr;
    QCheckBox *m_record = nullptr;
    QLineEdit *m_recordDir = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_open = nullptr;
    QPushButton *m_report = nullptr;
    QLabel *m_status = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QComboBox *m_resultDevice = nullptr;
    QComboBox *m_metric = nullptr;
    QTableView *m_table = nullptr;
    SweepResultsModel *m_model = nullptr;
    SweepChart *m_chart = nullptr;

    // Plans and starts experiment.sweep in m_host's environment; deleted first in the destructor (a running sweep
    // stops and restores there). m_sweep: the running sweep's handle (the service deletes it after its result).
    OperationRunner *m_operations = nullptr;
    QPointer<OperationService> m_ownService; // the host session's, the panel's own: deleted (joined) first
    QPointer<OperationService> m_service; // who plans and starts: m_operations, or a remote host's agent
    QString m_hostName; // the remote host's; empty for this machine
    QPushButton *m_browseJobFiles = nullptr;
    QPointer<OperationRun> m_sweep;
};

} // namespace dmtune
