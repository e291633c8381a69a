#include "core/params/changehistory.h"

namespace dmtune {

ChangeHistory::ChangeHistory(Applier *applier, QObject *parent)
    : QObject(parent)
    , m_applier(applier)
{
    connect(m_applier, &Applier::finished, this, &ChangeHistory::onFinished);
}

ChangeSet ChangeHistory::inverse(const ApplyResult &result)
{
    ChangeSet out;
    for (auto it = result.changes.crbegin(); it != result.changes.crend(); ++it) {
        if ((it->written || it->sideEffect) && it->oldValue != it->newValue)
            out << Change { it->device, it->attribute, it->oldValue };
    }
    return out;
}

bool ChangeHistory::dropEmptyEntry()
{
    if (!canUndo() || !inverse(m_entries.last().result).isEmpty())
        return false;
    m_entries.removeLast();
    Q_EMIT changed();
    return true;
}

ChangeSet ChangeHistory::undoChanges() const
{
    return m_entries.isEmpty() ? ChangeSet() : inverse(m_entries.last().result);
}

bool ChangeHistory::runUndo(const OperationPlan &plan, const OperationAnswers &answers)
{
    if (!canUndo())
        return false;
    m_undoPending = m_applier->run(plan, answers);
    return m_undoPending;
}

void ChangeHistory::record(const ApplyResult &result)
{
    if (!result.ok() || result.dryRun || !result.anyWritten())
        return;
    m_entries << HistoryEntry { result, QDateTime::currentDateTime() };
    Q_EMIT applied(result);
    Q_EMIT changed();
}

void ChangeHistory::recordUndo(const ApplyResult &result)
{
    if (!result.ok() || result.dryRun || !result.anyWritten() || m_entries.isEmpty())
        return;
    m_entries.removeLast();
    Q_EMIT applied(result);
    Q_EMIT changed();
}

void ChangeHistory::onFinished(const ApplyResult &result)
{
    const bool wasUndo = std::exchange(m_undoPending, false);
    if (!result.ok() || result.dryRun)
        return; // TuningSession::finished reports it (the history panel says an undo failed)
    if (!result.anyWritten())
        return;
    if (wasUndo)
        m_entries.removeLast();
    else
        m_entries << HistoryEntry { result, QDateTime::currentDateTime() };
    Q_EMIT applied(result);
    Q_EMIT changed();
}

} // namespace dmtune
