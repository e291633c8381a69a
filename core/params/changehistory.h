#pragma once
// The undo history of applied transactions. Undo writes the old values as a new tuning.apply operation (planned,
// answered and run as any change: runUndo(); same order rules and rollback). Emits applied() for every transaction that
// changed something, so charts can put a marker ("sdb nomerges 0 -> 2").
#include "core/params/applier.h"

#include <QDateTime>

namespace dmtune {

struct HistoryEntry {
    ApplyResult result;
    QDateTime at;
};

class ChangeHistory : public QObject {
    Q_OBJECT
public:
    // Records every successful transaction the applier finishes, whoever started it.
    explicit ChangeHistory(Applier *applier, QObject *parent = nullptr);

    const QList<HistoryEntry> &entries() const { return m_entries; }
    bool canUndo() const { return !m_entries.isEmpty() && !m_applier->isBusy(); }
    // Drops the newest entry when it has nothing to put back (every value is as before it); false when there is
    // none, the applier is busy, or it has something to put back (that is runUndo()'s).
    bool dropEmptyEntry();
    // What undo puts back: inverse() of the newest entry (empty when there is none, or nothing to put back).
    ChangeSet undoChanges() const;
    // Undo as a planned operation: runs a tuning.apply plan of undoChanges() with the user's answers (the applier
    // plans again and refuses a stale plan or an unanswered risk); when it writes, the newest entry goes.
    bool runUndo(const OperationPlan &plan, const OperationAnswers &answers);
    // The change set that puts back the old values of a result's written changes (and of
    // nr_requests when a scheduler change reset it).
    static ChangeSet inverse(const ApplyResult &result);
    // A transaction another runner made on the same tree (a core operation run as a job: preset.apply): an entry
    // like the applier's own, so Undo puts it back.
    void record(const ApplyResult &result);
    // The newest entry's undo, run by another runner (a remote host's agent): when it wrote, the entry goes.
    void recordUndo(const ApplyResult &result);

Q_SIGNALS:
    void applied(const dmtune::ApplyResult &result);
    void changed();

private:
    void onFinished(const ApplyResult &result);

    Applier *m_applier;
    QList<HistoryEntry> m_entries;
    bool m_undoPending = false;
};

} // namespace dmtune
