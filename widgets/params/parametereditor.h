#pragma once
// The Tune tab: the selected device's tunables with pending edits, the scope they apply to, a
// preview of the planned writes and stacking warnings, Apply / Revert, and the outcome (with each
// error of a rolled-back transaction). Applying is the tuning.apply operation (ops/tuningoperations.h) through
// the window's TuningSession: the preview is its plan, a plan with risks is asked in a PlanDialog, the run
// re-checks the plan against the state; always asynchronous, never a nested event loop. Reading the tunables and
// planning the preview read sysfs: both are jobs (startLatest: a newer read or plan supersedes the older, a result
// for a device no longer shown is dropped), the UI thread only renders them.
#include "core/discovery/devicesnapshot.h"
#include "core/ops/operation.h"
#include "core/params/changeset.h"
#include "core/params/planner.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QTableView;
class QTimer;

namespace dmtune {

class ChangePreviewModel;
class JobTracker;
class PlanDialog;
class TunableFilterProxy;
class TunableTableModel;
class TuningSession;
struct ApplyResult;

class ParameterEditor : public QWidget {
    Q_OBJECT
public:
    explicit ParameterEditor(TuningSession *session, QWidget *parent = nullptr);

    // Keeps the shown device (re-reads its values, keeps the edits).
    void setSnapshot(const DeviceSnapshot &snapshot);
    // A disk, a dm device or a partition (its disk's queue is shown); empty: nothing to tune.
    void showDevice(const QString &name);
    QString shownDevice() const { return m_device; } // the device whose tunables are listed
    // The devices selected in the tree, for the "selection" scope.
    void setSelectedDevices(const QStringList &devices);

    void setScope(ChangeScope scope);
    ChangeScope scope() const;
    bool isScopeAvailable(ChangeScope scope) const;
    // The devices the scope covers now, or why none.
    Result<QStringList> scopeDevices() const;
    // The pending edits expanded to the scope (empty without edits).
    Result<ChangeSet> changeSet() const;

    // Re-reads the values from sysfs (edits stay) and re-plans the preview, both off the UI thread.
    void refresh();
    // Plans the pending edits (nothing is written) on a job; the preview shows "reading…" until the plan
    // arrives (previewUpdated()).
    void updatePreview();
    // A read of the tunables or a plan of the preview is in flight.
    bool isReading() const { return m_readingTunables || m_planning; }
    // Starts the transaction of the previewed change set; false when there is nothing valid to
    // apply or a transaction runs. The outcome arrives through the session. A change set that puts data at
    // risk (write_cache=write through) opens a PlanDialog first (the device's name to type) and runs the plan
    // it showed once answered; the run refuses it when the attributes changed meanwhile. When the preview is
    // not the plan of the edits yet (being planned), true: the plan is made first, then applied (or asked) as
    // above, or its problems shown.
    bool apply();
    // The open confirmation (a closed one is deleted later: not pending any more).
    PlanDialog *pendingRiskConfirmation() const;
    // The tuning.apply plan of the preview (empty kind without edits).
    const OperationPlan &operationPlan() const { return m_operation; }
    // Drops every pending edit.
    void revert();

    TunableTableModel *model() const { return m_model; }
    ChangePreviewModel *previewModel() const { return m_previewModel; }
    QTableView *tableView() const { return m_table; }
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *revertButton() const { return m_revert; }
    QString warningText() const; // stacking warnings, plain text
    QString problemText() const; // why the preview cannot be applied, plain text
    QString resultText() const; // outcome of the last transaction, plain text

Q_SIGNALS:
    // A transaction started from this editor finished (successful or not).
    void applyFinished(const dmtune::ApplyResult &result);
    // The shown device's tunables arrived from their read (the table is filled).
    void tunablesRead();
    // The preview shows the plan of the edits as they were when it was asked for.
    void previewUpdated();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void reloadTunables();
    void updateScopeChoices();
    void updateSummary();
    void updateActions();
    void schedulePreview();
    void onFinished(const ApplyResult &result, bool wasUndo);
    QString mapDevice() const; // the multipath map (or dm device with slaves) of the shown device
    bool startRun(const OperationPlan &plan, const OperationAnswers &answers);
    bool applyPlanned();
    void showPlan(const Result<ChangeSet> &changes, const Result<OperationPlan> &operation);

    TuningSession *m_session;
    DeviceSnapshot m_snapshot;
    QString m_requested; // what showDevice() was given (a partition, perhaps)
    QString m_device;
    QStringList m_selection;
    OperationPlan m_operation; // the preview's tuning.apply plan
    Plan m_plan; // the planner's plan inside it
    ChangeSet m_planned;
    bool m_waiting = false;
    bool m_readingTunables = false;
    // A remote host's values read back by its agent after Apply ("device/attribute" -> value), shown over the
    // capture's until the next capture arrives: the capture on disk is older, and showing it would put the old
    // value back for a moment.
    QHash<QString, QString> m_readBackOverCapture;
    bool m_planning = false;
    bool m_applyWhenPlanned = false; // apply() asked while the plan was being made
    quint64 m_previewGeneration = 0; // a plan of an older request (edits, scope, device) is dropped
    bool m_splitSized = false;
    QPointer<PlanDialog> m_confirmRisk;

    QLabel *m_title = nullptr;
    QLabel *m_summary = nullptr;
    QLineEdit *m_filter = nullptr;
    TunableTableModel *m_model = nullptr;
    TunableFilterProxy *m_proxy = nullptr;
    QCheckBox *m_showRaw = nullptr;
    QTableView *m_table = nullptr;
    QSplitter *m_splitter = nullptr;
    QComboBox *m_scope = nullptr;
    QLabel *m_scopeDevices = nullptr;
    ChangePreviewModel *m_previewModel = nullptr;
    QTableView *m_preview = nullptr;
    QLabel *m_warnings = nullptr;
    QLabel *m_problems = nullptr;
    QLabel *m_result = nullptr;
    QPushButton *m_previewButton = nullptr;
    QPushButton *m_apply = nullptr;
    QPushButton *m_revert = nullptr;
    QTimer *m_previewTimer = nullptr;
    QTimer *m_refreshTimer = nullptr;
    JobTracker *m_jobs = nullptr; // last: joins its reads before the members they report to go
};

} // namespace dmtune
