#pragma once
// The core operations of a remote host, for the GUI (a remote window's OperationService, ops/operationservice.h):
// OperationRunner's calls and signals, answered by the agent
// (agentoperations.h), which plans and runs them on its host. Plans and results come back in their JSON form and
// are read with planFromJson / resultFromJson: the near side renders and asks, the far side decides.
// A connection lost while a run was under way gives a failed result that says its outcome is unknown (the far
// side finishes a step it began; the state must be read again); a plan asked for then gives planFailed.
#include "ops/operationservice.h"

#include <QHash>

namespace dmtune {

class AgentClient;

class RemoteOperationRunner : public OperationService {
    Q_OBJECT
public:
    explicit RemoteOperationRunner(AgentClient *client, QObject *parent = nullptr);

    // `tag` comes back with the answer. Nothing is sent when the client is not connected: the answer says so.
    void plan(const QString &kind, const QJsonObject &request, const QString &tag = {}) override;
    void run(const OperationPlan &plan, const OperationAnswers &answers, const QString &tag = {}) override;
    // The agent plans; a plan without risks or refusals is sent back at once to run (the far side checks it
    // again), any other comes back as planned().
    void runUnlessAsked(const QString &kind, const QJsonObject &request, const QString &tag = {}) override;
    bool isBusy() const override { return !m_pending.isEmpty(); }

private:
    struct Pending {
        bool isRun = false;
        bool runUnlessAsked = false; // a plan that needs no answer is run when it comes
        QString kind, planId, target, tag;
    };
    void onMessage(const QJsonObject &message);
    void sendPlan(const QString &kind, const QJsonObject &request, const QString &tag, bool runUnlessAsked);
    void fail(const Pending &pending, const QString &error);
    void failAll(const QString &error);

    AgentClient *m_client;
    QHash<qint64, Pending> m_pending;
};

} // namespace dmtune
