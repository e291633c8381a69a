#pragma once
// The Workload panel: choose a template (or a job file), edit its parameters, see the exact fio command line
// (copyable), pick the target (the lab device by default), start and stop. A write workload on a device that
// holds anything asks for the device's name first (ConfirmWriteDialog, the PlanDialog of the workload.start
// plan). fio's per-second IOPS, bandwidth and completion latency go to its own charts; start and stop become
// markers on the device charts too; the run can be recorded. Never blocks: workload.start is planned and started
// by the host's WorkloadRuns (host/workloadruns.h: this process's runner, on a thread the core owns, or a job of a
// remote host's agent); the panel renders its events and its result, the same for either.
#include "core/discovery/devicesnapshot.h"
#include "core/ops/operation.h"
#include "core/remote/remotejobs.h"
#include "core/sysfs/sysfsroot.h"
#include "core/workloads/fiojob.h"
#include "core/workloads/fiostream.h"
#include "core/workloads/writeguard.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace dmtune {

class ConfirmWriteDialog;
class HostContext;
class HostSession;
class FioChart;
class LiveStatsView;
class WorkloadRuns;
struct WorkloadExtras;

// The window's lab device as the panel shows it: the window keeps it (from the lab.create / lab.remove results)
// and hands it over; the panel never calls into the device.
struct LabDeviceState {
    QString device; // "loop3"; empty when there is none
    QString whyNot; // empty: one can be created here; else why not (the Create button's tooltip)
    bool busy = false; // a lab operation is planned or running: both buttons wait
};

class WorkloadPanel : public QWidget {
    Q_OBJECT
public:
    // host: this machine's tree and privilege (ops/hostcontext.h): workloads planned and run by a runner of the
    // panel's own.
    explicit WorkloadPanel(std::shared_ptr<const HostContext> host, QWidget *parent = nullptr);
    // The host's (host/hostsession.h): its workloads as the host runs them (HostSession::newWorkloadRuns: a remote
    // host's as jobs of its agent, which outlive a lost connection and are offered to its later windows).
    explicit WorkloadPanel(HostSession *host, QWidget *parent = nullptr);
    ~WorkloadPanel() override;

    // The devices to choose from; keeps the choice, prefers the lab device when there is one.
    void setSnapshot(const DeviceSnapshot &snapshot);
    // The window's lab device: the default target, and what Create/Remove act on (through the signals).
    void setLabState(const LabDeviceState &state);
    LabDeviceState labState() const { return m_lab; }
    bool canCreateLabDevice() const; // the dock's Create lab device button is enabled
    // Start and stop markers go onto these charts too.
    void setStatsView(LiveStatsView *view);
    // Who plans and runs the panel's workloads (its run's job there, once it is one).
    WorkloadRuns *runs() const { return m_runs; }
    // A remote host's jobs this GUI started from a window since closed (and others' that run), as the dock
    // offers them; adoptJob() is what an offer's button does (Attach, Fetch result).
    QList<JobOffer> offeredJobs() const { return m_offers; }
    void adoptJob(const QString &jobId);

    // The job as the form says it.
    FioJob currentJob() const;
    QString currentDevice() const;
    QString commandLine() const;
    bool selectTemplate(const QString &id);
    bool selectDevice(const QString &name);
    void setRuntimeSeconds(int seconds);
    // Record the next run to `path` (empty: do not record).
    void setRecording(const QString &path);
    // Start as the button does: the guard, then (after confirmation when needed) fio.
    void start();
    void stop();
    bool isRunning() const;

    FioChart *chart() const { return m_chart; }
    ConfirmWriteDialog *pendingConfirmation() const; // the dialog waiting for the device name, or null
    QString statusText() const;
    QString readoutText() const;
    // The recording's file name as the dock shows it ("recorded to NAME"); empty when the run records nothing.
    QString recordingText() const;
    // A finished run as the dock shows it: the summary in the messages (scrolled to), the readout on the run's
    // overall numbers, the recording's name. `recordedTo` empty: nothing was recorded.
    void showRunResult(const QList<FioRates> &overall, const QString &recordedTo);

Q_SIGNALS:
    void createLabDeviceRequested();
    void removeLabDeviceRequested();
    // The workload's target, so the window charts it (with a map's paths) while fio runs.
    void targetChosen(const QString &device);
    void runFinished(const QJsonObject &summary);
    // A run of this machine's has started fio (argv: the frozen job's command, program first).
    void fioStarted(const QStringList &argv);
    // fio's rates of an interval went to the chart and the readout.
    void progressShown(double epochSeconds);

private:
    // The Template box's entry for a job edited by hand, and the job id of a run of one.
    static inline const QString CustomTemplateId = QStringLiteral("custom");

    void buildUi();
    void loadTemplate(int index);
    void proposeTemplate();
    bool nothingToRunOn(const QString &device) const;
    void updateCommandLine();
    void updateButtons();
    void updateLabButtons();
    void showDeviceTextFromItsStart();
    // What Start was pressed on, frozen then: editing the form while the guard probes (or while the
    // confirmation is open) cannot change what runs.
    struct StartRequest {
        FioJob job;
        QString device;
        QString recordPath; // empty: no recording
    };
    void setUp(WorkloadRuns *runs);
    void onPlanned(const OperationPlan &plan, const WorkloadExtras &extras);
    // An existing recording at `path`: asked (window-modal, not a nested loop); Replace starts again.
    void askToReplaceRecording(const QString &path);
    // Starts the plan with its answers: checked again there, then fio with the fresh plan's frozen job and hold.
    void startChecked(const OperationPlan &plan, const OperationAnswers &answers, const WorkloadExtras &extras);
    void onRunEvent(const QJsonObject &event);
    void onRunResult(const OperationResult &result);
    void showProgress(double epochSeconds, const QList<FioRates> &rates);
    void setStatus(const QString &text);
    QString startLabel() const; // the run's start marker ("fio start: ID", "... on HOST" in a remote host's window)
    void showRecording(const QString &path, bool running);
    static QString readoutLine(const QList<FioRates> &rates);
    void showOffers(const QList<JobOffer> &offers);
    void log(const QString &line);
    QString defaultRecordPath(const FioJob &job) const;

    std::shared_ptr<const HostContext> m_host;
    SysfsRoot m_root; // m_host's tree
    QString m_hostName; // empty for this machine
    bool m_actsOnHost = false; // a live host (this machine's, or a remote one's through its agent): workloads run
    WorkloadRuns *m_runs = nullptr; // a child, deleted first
    // The run under way or last run: what Start was pressed on (or the adopted job's), as planned.
    FioJob m_runJob;
    QString m_runDevice, m_runDevicePath, m_runRecordPath, m_runJobId;
    bool m_runLatency = false; // its recording asked for the latency histograms
    bool m_runLatencyNoted = false; // and the run said why it goes without
    bool m_startShown = false; // its start marker is on the charts
    QList<JobOffer> m_offers;
    bool m_adopting = false; // adoptJob() asked the agent to attach; its answer is not a re-attach
    LabDeviceState m_lab { {}, tr("no lab device offered here"), false };
    QPointer<LiveStatsView> m_statsView;
    QPointer<ConfirmWriteDialog> m_confirm;
    DeviceSnapshot m_snapshot;
    bool m_checking = false;
    // The recording file the user said may be replaced (the question after Start); consumed by the start it
    // answered, so that a later Start asks again.
    QString m_replaceAnswered;
    bool m_loadingTemplate = false;
    bool m_templatePicked = false; // the user chose a template: it no longer follows the target

    QComboBox *m_template = nullptr;
    QLineEdit *m_jobFile = nullptr;
    QPushButton *m_browse = nullptr;
    QComboBox *m_rw = nullptr;
    QLineEdit *m_bs = nullptr;
    QSpinBox *m_iodepth = nullptr;
    QSpinBox *m_numjobs = nullptr;
    QSpinBox *m_runtime = nullptr;
    QComboBox *m_engine = nullptr;
    QCheckBox *m_batching = nullptr;
    QComboBox *m_device = nullptr;
    QPushButton *m_createLab = nullptr;
    QPushButton *m_removeLab = nullptr;
    QLineEdit *m_command = nullptr;
    QPushButton *m_copy = nullptr;
    QCheckBox *m_record = nullptr;
    QLineEdit *m_recordPath = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_stop = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_readout = nullptr;
    QLabel *m_recorded = nullptr; // the recording's file name, under Record to
    QWidget *m_offersBox = nullptr;
    FioChart *m_chart = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QTabWidget *m_right = nullptr; // fio charts | Messages
};

} // namespace dmtune
