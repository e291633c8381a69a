#include "params/changehistorypanel.h"

#include "params/applyresulttext.h"
#include "params/changehistorymodel.h"
#include "params/tuningsession.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

namespace dmtune {

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

    m_undo = new QPushButton(QStringLiteral("&Undo last"), this);
    m_undo->setObjectName(QStringLiteral("undoButton"));
    m_undo->setToolTip(QStringLiteral("Put back the old values of the newest entry, as a new transaction "
                                      "(same order rules, rolled back on any error)."));
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

    connect(m_undo, &QPushButton::clicked, this, [this] {
        m_message->clear();
        if (!m_session->undo())
            m_message->setText(QStringLiteral("Nothing to undo, or a transaction is running."));
        updateActions();
    });
    connect(m_session, &TuningSession::busyChanged, this, &ChangeHistoryPanel::updateActions);
    connect(m_session, &TuningSession::finished, this, &ChangeHistoryPanel::onFinished);
    connect(m_session->history(), &ChangeHistory::changed, this, &ChangeHistoryPanel::updateActions);
    updateActions();
}

QString ChangeHistoryPanel::messageText() const
{
    return QTextDocumentFragment::fromHtml(m_message->text()).toPlainText();
}

void ChangeHistoryPanel::updateActions()
{
    m_undo->setEnabled(m_session->canUndo());
    if (m_session->isReadOnly())
        m_undo->setToolTip(QStringLiteral("Read-only: nothing is applied on a captured tree."));
}

void ChangeHistoryPanel::onFinished(const ApplyResult &result, bool wasUndo)
{
    if (!wasUndo)
        return;
    m_message->setText(result.ok() ? QStringLiteral("Undone: %1").arg(applySummary(result).toHtmlEscaped())
                                   : applyErrorHtml(result, QStringLiteral("Undo failed")));
    updateActions();
}

} // namespace dmtune
