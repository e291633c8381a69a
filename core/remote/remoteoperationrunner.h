#pragma once
// The core operations of a remote host, for the GUI (a remote window's OperationService, ops/operationservice.h):
// OperationRunner's calls and continuations, answered by the agent
// (agentoperations.h), which plans and runs them on its host. Plans and results come back in their JSON form and
// are read with planFromJson / resultFromJson: the near side renders and asks, the far side decides.
// A connection lost while a run was under way gives a failed result that says its outcome is unknown (the far
// side finishes a step it began; the state must be read again); a plan asked for then fails.
#include "ops/operationservice.h"

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
    // Not yet through the agent (protocol 1.1 has no progress stream for an operation): the handle's result refuses
    // it at once, with the command that runs it there (`dmtunectl --host HOST sweep`).
    OperationRun *startLong(
        const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies) override;

private:
    struct Pending {
        bool isRun = false;
        bool runUnlessAsked = false; // a plan that needs no answer is run when it comes
        QString kind, planId, target;
        Replies replies;
    };
    void onMessage(const QJsonObject &message);
    void fail(const Pending &pending, const QString &error);
    void failAll(const QString &error);

    AgentClient *m_client;
    QHash<qint64, Pending> m_pending;
};

} // namespace dmtune
