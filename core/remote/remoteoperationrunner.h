#pragma once
// The core operations of a remote host, for the GUI (a remote window's OperationService, ops/operationservice.h):
// OperationRunner's calls and continuations, answered by the agent
// (agentoperations.h), which plans and runs them on its host. Plans and results come back in their JSON form and
// are read with planFromJson / resultFromJson: the near side renders and asks, the far side decides.
// A connection lost while a run was under way gives a failed result that says its outcome is unknown (the far
// side finishes a step it began; the state must be read again); a plan asked for then fails.
#include "core/ops/operationservice.h"

#include <QHash>

namespace dmtune {

class AgentClient;

class RemoteOperationRunner : public OperationService {
    Q_OBJECT
public:
    explicit RemoteOperationRunner(AgentClient *client, QObject *parent = nullptr);

    bool isBusy() const override { return !m_pending.isEmpty(); }

protected:
    // Nothing is sent when the client is not connected: the answer says so. runUnlessAsked: the agent plans; a
    // plan without risks or refusals is sent back at once to run (the far side checks it again), any other
    // comes back to the caller's onPlanned.
    void startPlan(
        const QString &kind, const QJsonObject &request, const Replies &replies, bool runUnlessAsked) override;
    void startRun(const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies) override;
    // The agent's `start` (agentoperations.h): its progress messages to the call's onProgress, its result to
    // onFinished; the handle's cancel() sends `cancel-run`. A connection lost meanwhile: a failed result whose
    // outcome is unknown (the agent's end stops the run there, which restores what it changed).
    OperationRun *startLong(
        const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies) override;

private:
    struct Pending {
        bool isRun = false;
        bool runUnlessAsked = false; // a plan that needs no answer is run when it comes
        QString kind, planId, target;
        Replies replies;
        QPointer<OperationRun> run; // a start's handle
    };
    void onMessage(const QJsonObject &message);
    void fail(const Pending &pending, const QString &error);
    void finish(const Pending &pending, const OperationResult &result); // a start's through its handle
    void failAll(const QString &error);

    AgentClient *m_client;
    QHash<qint64, Pending> m_pending;
};

} // namespace dmtune
