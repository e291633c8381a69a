#pragma once
// The History dock: every transaction applied in this session, newest first, and Undo for the newest. Undo is a
// tuning.apply operation as any change: the newest entry's old values planned on a job, the plan's risks asked in a
// PlanDialog (a write_cache going back to "write through" asks as Apply does), then run; the session refuses a plan
// that is no longer the newest entry's undo. One QAction serves the dock's button and the window's Edit menu; while
// Undo cannot start, it is disabled and its tool tip and status tip say why.
#include "core/ops/operation.h"
#include "core/util/result.h"

#include <QPointer>
#include <QWidget>

class QAction;
class QLabel;
class QPushButton;
class QTableView;

namespace dmtune {

class ChangeHistoryModel;
class PlanDialog;
class TuningSession;
struct ApplyResult;

class ChangeHistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChangeHistoryPanel(TuningSession *session, QWidget *parent = nullptr);
    ~ChangeHistoryPanel() override;

    ChangeHistoryModel *model() const { return m_model; }
    QPushButton *undoButton() const { return m_undo; }
    // "Undo last change": the button's action and Edit > Undo last change (no shortcut of its own here; the window
    // gives it one that text fields do not use).
    QAction *undoAction() const { return m_undoAction; }
    QString messageText() const;

    // Undo the newest entry: plan (a job), ask when the plan has risks, run. False when Undo cannot start now (the
    // action's tool tip says why).
    bool requestUndo();
    bool isPlanningUndo() const { return m_planning; }
    // The dialog asking for an undo's risks, while it is open.
    PlanDialog *pendingUndoConfirmation() const;

Q_SIGNALS:
    // One line on what Undo did (or why it did not), for the status bar.
    void undoReported(const QString &text);

private:
    void updateActions();
    void onFinished(const ApplyResult &result, bool wasUndo);
    void onPlanned(const Result<OperationPlan> &plan);
    void startUndo(const OperationPlan &plan, const OperationAnswers &answers);
    void say(const QString &html);

    TuningSession *m_session;
    ChangeHistoryModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QPushButton *m_undo = nullptr;
    QAction *m_undoAction = nullptr;
    QLabel *m_message = nullptr;
    QPointer<PlanDialog> m_confirm;
    bool m_planning = false;
};

} // namespace dmtune
