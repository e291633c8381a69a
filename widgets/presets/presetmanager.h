#pragma once
// The preset manager: built-in and user presets; new from the selected devices; a JSON editor that
// validates as you type (the loader's error names the rule and field); apply with a preview (as one
// transaction through the window's TuningSession, so markers land on the charts and Undo works);
// verify (the drift only); export to udev / tuned / multipath.conf; and the opt-in "keep applied". The preview
// reads every matched device's attributes: a job (startLatest), rendered when it is in.
#include "core/discovery/devicesnapshot.h"
#include "core/presets/preset.h"
#include "core/presets/presetcapture.h"
#include "core/presets/presetselection.h"
#include "core/util/atomicfile.h"
#include "core/util/result.h"

#include <functional>
#include <memory>
#include <vector>

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QMessageBox;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableView;

namespace dmtune {

class DeviceMapper;
class JobTracker;
class NewPresetDialog;
class OperationRunner;
class OperationService;
class PlanDialog;
class PresetKeeper;
class PresetPreviewModel;
class TuningSession;
struct OperationAnswers;
struct OperationPlan;
struct OperationResult;
struct PresetResolution;

class PresetManager : public QWidget {
    Q_OBJECT
public:
    explicit PresetManager(TuningSession *session, QWidget *parent = nullptr);
    // Waits for an apply that has begun (a map being reloaded is resumed first); one not begun never starts.
    ~PresetManager() override;

    // The newest snapshot (preview, verify, keep applied).
    void setSnapshot(const DeviceSnapshot &snapshot);
    // The devices "New from selection" saves.
    void setSelection(const QStringList &devices);
    // Re-reads the built-in and user presets; keeps the current one selected when it is still there.
    void reload();
    // Selects a listed preset by name or file base name; false when absent.
    bool selectPreset(const QString &name);
    // Loads a preset into the editor and preview without storing it (import, tests).
    void showPreset(const Preset &preset);

    // Where the per-map multipath settings are reloaded (by the preset.apply operation, on the manager's job
    // thread). Default: the session's host's (HostContext::deviceMapper(): the kernel's, as root on the live /sys;
    // none otherwise, and then a preset with map settings is refused). Tests: the factory's (null: none); the
    // backend made here lives as long as the manager.
    using DeviceMapperFactory = std::function<std::unique_ptr<DeviceMapper>()>;
    void setDeviceMapperFactory(DeviceMapperFactory factory);
    // A remote host's window: preset.apply is planned and run on `host` by `service` (its agent; not owned, it
    // outlives the manager), the preview reads the session's tree (the host's capture). Null: this process.
    // Made from the session's: a remote host's session's service and host (TuningSession::remoteService()).
    void setOperationService(OperationService *service, const QString &host);
    OperationService *operationService() const { return m_service; }

    // Actions, also behind the buttons.
    // Plans the core operation preset.apply (on `devices` only, when given) off the UI thread; a plan with
    // refusals is shown and not run, one with risks (a reload's, a write that puts data at risk) opens a
    // PlanDialog and runs once it is answered, any other runs at once. false when busy, read-only or no preset.
    bool applyCurrent(const QStringList &devices = {});
    // The open confirmation of an apply (a closed one is deleted later: not pending any more).
    PlanDialog *pendingPlanDialog() const;
    // "New from selection": reads the selected devices' writable attributes (a job), then opens a NewPresetDialog
    // (a name; the attributes changed through dmtune or differing from their first-seen values checked); its Save
    // stores a preset of the checked ones. False (status line says why) without a selection.
    bool promptNewFromSelection(const QString &suggestedName = {});
    // The open "New from selection" dialog (opened with open(); the preset is saved when it is accepted).
    NewPresetDialog *pendingNewPresetDialog() const;
    // The values dmtune first read of each device's tunables (recorded on the first snapshot a device is in, a job;
    // and the old value of every change of the session's transactions, when none was read yet).
    const FirstSeenValues &firstSeenValues() const { return m_firstSeen; }
    // No read of first-seen values in flight.
    bool firstSeenRecorded() const { return m_firstSeenPending.isEmpty(); }
    bool isApplying() const;
    // Saving over a stored preset (the same file name) asks first; the save happens when "Replace" is clicked.
    QMessageBox *pendingReplaceConfirmation() const;
    void verifyCurrent(); // the preview shows only the drift
    // Reads the selected devices' settings (a job: sysfs reads) into a preset named `name` and stores it;
    // newPresetSaved() says where, or why not. False (and nothing started) when nothing is selected.
    // `attributes`: what to save of each device (core presetFromSelection, as dmtunectl preset save --attr); empty:
    // every writable attribute of the selection.
    bool newFromSelection(const QString &name, const QList<DeviceAttributes> &attributes = {});
    Result<QString> saveEdited(); // stores the editor's preset in the user dir
    QString exportText(const QString &format) const;

    PresetPreviewModel *previewModel() const { return m_model; }
    QListWidget *presetList() const { return m_list; }
    QPlainTextEdit *editor() const { return m_editor; }
    QString validationText() const;
    QString statusText() const;
    PresetKeeper *keeper() const { return m_keeper; }
    bool hasPreset() const { return m_current.has_value(); }
    // The preview (or a verify) is being read.
    bool isResolving() const { return m_resolving; }

Q_SIGNALS:
    // Something worth a line in the status bar ("kept applied: sdd appeared, 2 writes").
    void message(const QString &text);
    // The preview shows the resolution of the current preset on the newest snapshot.
    void previewShown();
    // newFromSelection()'s end: the stored file, or the error (ok false).
    void newPresetSaved(bool ok, const QString &pathOrError);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void buildUi();
    void onCurrentRowChanged(int row);
    void onEditorChanged();
    void refreshPreview();
    void showResolution(const Preset &preset, const PresetResolution &res, bool notes);
    void refreshExport();
    // What one call of this manager to the service is for; its answers come back with it.
    struct Call {
        enum Purpose { DryRun, Apply, Keep };
        Purpose purpose = Apply;
        QString keepReason; // Keep: why it is applied again ("sdd appeared")
    };
    // preset.apply for `request`: planned only (a dry run), else run unless it asks.
    void callService(const Call &call, const QJsonObject &request);
    void runOnService(const OperationPlan &plan, const OperationAnswers &answers, const Call &call);
    void onPlanned(const OperationPlan &plan, const Call &call);
    void onPlanFailed(const QString &error);
    void onOperationFinished(const OperationResult &result, const Call &call);
    void updateEnvironment();
    void onReapply(const QStringList &devices, const QString &reason);
    void importFile();
    void exportToFile();
    void setStatus(const QString &text);
    // The session can take a transaction (local), or the remote host's service is there.
    bool canApply() const;
    // Into the user dir, then listed and current; an existing one is replaced only after the user confirmed.
    Result<QString> storeAndSelect(const Preset &preset, ExistingFile existing = ExistingFile::Refuse);

    TuningSession *m_session;
    DeviceSnapshot m_snapshot;
    QStringList m_selection;
    std::optional<Preset> m_current;
    PresetKeeper *m_keeper;
    // Backends the operations reload maps with, made by setDeviceMapperFactory() (else the host's); retired ones
    // stay until the runner has joined (a job may use one).
    std::unique_ptr<DeviceMapper> m_dm;
    bool m_dmFromFactory = false;
    std::vector<std::unique_ptr<DeviceMapper>> m_retiredDms;
    int m_operations = 0; // plans and runs of this manager in flight
    bool m_previewStale = false;
    bool m_resolving = false;
    bool m_verifyWhenResolved = false; // verifyCurrent() asked: its status line once the drift is read
    quint64 m_previewGeneration = 0; // a resolution for an older preset or snapshot is dropped
    quint64 m_statusGeneration = 0; // a status set after the preview was asked for is not overwritten by its notes
    QPointer<PlanDialog> m_planDialog;
    QPointer<NewPresetDialog> m_newDialog;
    FirstSeenValues m_firstSeen;
    QStringList m_firstSeenPending; // first-seen keys being read
    void recordFirstSeen(const DeviceSnapshot &snapshot);
    QPointer<QMessageBox> m_confirmReplace;
    OperationRunner *m_runner = nullptr; // child; deleted first in the destructor (joins its jobs)
    OperationService *m_service = nullptr; // who plans and runs: m_runner, or a remote host's agent
    QString m_remoteHost; // that host, empty when local

    QListWidget *m_list = nullptr;
    QLabel *m_about = nullptr;
    QTabWidget *m_tabs = nullptr;
    PresetPreviewModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QPushButton *m_apply = nullptr;
    QCheckBox *m_driftOnly = nullptr;
    QCheckBox *m_keep = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    QLabel *m_validation = nullptr;
    QComboBox *m_format = nullptr;
    QPlainTextEdit *m_exportView = nullptr;
    QLabel *m_status = nullptr;
    JobTracker *m_jobs = nullptr; // the preview's reads; deleted (joined) in the destructor
};

} // namespace dmtune
