#include "widgets/params/changehistorypanel.h"

#include "core/ops/operationservice.h"
#include "core/ops/tuningoperations.h"
#include "core/params/tuningsession.h"
#include "widgets/ops/plandialog.h"
#include "widgets/params/applyresulttext.h"
#include "widgets/params/changehistorymodel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

namespace dmtune {

namespace {

QString plainText(const QString &html)
{
    return QTextDocumentFragment::fromHtml(html).toPlainText();
}

} // namespace

ChangeHistoryPanel::ChangeHistoryPanel(TuningSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
{
    m_model = new ChangeHistoryModel(session->history(), this);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("historyView"));
    m_view->setModel(m_model);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(ChangeHistoryModel::ChangesColumn, QHeaderView::Stretch);
    m_view->setWordWrap(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);

    m_undoAction = new QAction(tr("&Undo last change"), this);
    m_undoAction->setObjectName(QStringLiteral("undoLastChange"));
    connect(m_undoAction, &QAction::triggered, this, [this] { requestUndo(); });
    m_undo = new QPushButton(tr("&Undo last"), this);
    m_undo->setObjectName(QStringLiteral("undoButton"));
    connect(m_undo, &QPushButton::clicked, m_undoAction, &QAction::trigger);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::RichText);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_message, 1);
    buttons->addWidget(m_undo, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);

    connect(m_session, &TuningSession::busyChanged, this, &ChangeHistoryPanel::updateActions);
    connect(m_session, &TuningSession::readOnlyChanged, this, &ChangeHistoryPanel::updateActions);
    connect(m_session, &TuningSession::finished, this, &ChangeHistoryPanel::onFinished);
    connect(m_session->history(), &ChangeHistory::changed, this, &ChangeHistoryPanel::updateActions);
    updateActions();
}

ChangeHistoryPanel::~ChangeHistoryPanel() = default;

QString ChangeHistoryPanel::messageText() const
{
    return plainText(m_message->text());
}

PlanDialog *ChangeHistoryPanel::pendingUndoConfirmation() const
{
    return m_confirm && m_confirm->isVisible() ? m_confirm.data() : nullptr;
}

void ChangeHistoryPanel::say(const QString &html)
{
    m_message->setText(html);
    if (!html.isEmpty())
        Q_EMIT undoReported(plainText(html));
}

bool ChangeHistoryPanel::requestUndo()
{
    const QString why = m_session->undoUnavailableReason();
    if (!why.isEmpty() || m_planning || pendingUndoConfirmation()) {
        if (!why.isEmpty())
            say(why.toHtmlEscaped());
        return false;
    }
    const ChangeSet changes = m_session->undoChanges();
    if (changes.isEmpty()) {
        // Every value of the newest entry is as it was before it: the entry goes, nothing is written.
        m_session->dropEmptyUndo();
        say(tr("The newest entry had nothing to put back: removed from the history."));
        return true;
    }
    // As Apply: planned on the host's state now (a job here, or a remote host's agent there), its risks asked, the
    // run plans again and refuses a stale plan.
    m_planning = true;
    say(tr("Planning the undo…"));
    updateActions();
    m_session->planner()->plan(
        QString::fromLatin1(TuningApplyKind), tuningRequest(changes), this,
        [this](const OperationPlan &plan) { onPlanned(plan); },
        [this](const QString &error) { onPlanned(Result<OperationPlan>::failure(error)); });
    return true;
}

void ChangeHistoryPanel::onPlanned(const Result<OperationPlan> &plan)
{
    m_planning = false;
    if (!plan) {
        say(tr("Undo cannot be planned: %1").arg(plan.errorMessage().toHtmlEscaped()));
    } else if (!plan->runnable()) {
        QStringList why = plan->refusals;
        for (const OperationRisk &risk : plan->risks) {
            if (!risk.confirmable)
                why << risk.text;
        }
        say(tr("Undo cannot run (nothing was written): %1").arg(why.join(QStringLiteral("; ")).toHtmlEscaped()));
    } else if (!plan->needsAnswers()) {
        startUndo(plan.value(), acceptAll(plan.value()));
    } else {
        // The operation found the risk; this only asks (no nested event loop), and the run checks the answers.
        m_confirm = new PlanDialog(plan.value(), window());
        m_confirm->setAttribute(Qt::WA_DeleteOnClose);
        m_confirm->setWindowTitle(tr("Undo last change"));
        connect(m_confirm, &PlanDialog::answered, this, [this, asked = plan.value()](const OperationAnswers &answers) {
            m_confirm.clear(); // answered: no longer waiting for the user
            startUndo(asked, answers);
        });
        connect(m_confirm, &QDialog::finished, this, &ChangeHistoryPanel::updateActions);
        connect(m_confirm, &QDialog::rejected, this, [this] {
            say(tr("Undo cancelled: nothing was written."));
            updateActions();
        });
        say(tr("Undo puts data at risk: the dialog asks first."));
        m_confirm->open();
    }
    updateActions();
}

void ChangeHistoryPanel::startUndo(const OperationPlan &plan, const OperationAnswers &answers)
{
    if (m_session->runUndo(plan, answers))
        say(tr("Undoing…"));
    else
        say(tr("Not undone (nothing was written): the history or the session changed since the undo "
               "was planned. Undo again to plan the newest entry."));
    updateActions();
}

void ChangeHistoryPanel::updateActions()
{
    QString why = m_session->undoUnavailableReason();
    if (why.isEmpty() && m_planning)
        why = tr("Planning the undo…");
    else if (why.isEmpty() && pendingUndoConfirmation())
        why = tr("The undo's plan waits for your answer.");
    QString tip = why;
    if (why.isEmpty()) {
        QStringList back;
        for (const Change &c : m_session->undoChanges())
            back << QStringLiteral("%1 %2 = %3").arg(c.device, c.attribute, c.value);
        tip = back.isEmpty()
            ? tr("Remove the newest entry: it changed nothing.")
            : tr("Put back %1, as a new transaction: planned and checked as Apply is (a data risk asks "
                 "first), rolled back on any error.")
                  .arg(back.join(QStringLiteral(", ")));
    }
    m_undoAction->setEnabled(why.isEmpty());
    m_undoAction->setToolTip(tip);
    m_undoAction->setStatusTip(tip);
    m_undo->setEnabled(why.isEmpty());
    m_undo->setToolTip(tip);
}

void ChangeHistoryPanel::onFinished(const ApplyResult &result, bool wasUndo)
{
    if (!wasUndo)
        return;
    say(result.ok() ? tr("Undone: %1").arg(applySummary(result).toHtmlEscaped())
                    : applyErrorHtml(result, tr("Undo failed")));
    updateActions();
}

} // namespace dmtune
