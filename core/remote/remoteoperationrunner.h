#pragma once
// The core operations of a remote host, for the GUI: OperationRunner's calls and signals, answered by the agent
// (agentoperations.h), which plans and runs them on its host. Plans and results come back in their JSON form and
// are read with planFromJson / resultFromJson: the near side renders and asks, the far side decides.
// A connection lost while a run was under way gives a failed result that says its outcome is unknown (the far
// side finishes a step it began; the state must be read again); a plan asked for then gives planFailed.
#include "ops/operation.h"

#include <QHash>
#include <QObject>

namespace dmtune {

class AgentClient;

class RemoteOperationRunner : public QObject {
    Q_OBJECT
public:
    explicit RemoteOperationRunner(AgentClient *client, QObject *parent = nullptr);

    // `tag` comes back with the answer. Nothing is sent when the client is not connected: the answer says so.
    void plan(const QString &kind, const QJsonObject &request, const QString &tag = {});
    void run(const OperationPlan &plan, const OperationAnswers &answers, const QString &tag = {});
    bool isBusy() const { return !m_pending.isEmpty(); }

Q_SIGNALS:
    void planned(const dmtune::OperationPlan &plan, const QString &tag);
    void planFailed(const QString &kind, const QString &error, const QString &tag);
    void finished(const dmtune::OperationResult &result, const QString &tag);

private:
    struct Pending {
        bool isRun = false;
        QString kind, planId, target, tag;
    };
    void onMessage(const QJsonObject &message);
    void fail(const Pending &pending, const QString &error);
    void failAll(const QString &error);

    AgentClient *m_client;
    QHash<qint64, Pending> m_pending;
};

} // namespace dmtune
