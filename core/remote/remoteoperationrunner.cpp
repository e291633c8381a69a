#include "core/remote/remoteoperationrunner.h"

#include "core/remote/agentclient.h"

#include <QTimer>

namespace dmtune {

RemoteOperationRunner::RemoteOperationRunner(AgentClient *client, QObject *parent)
    : OperationService(parent)
    , m_client(client)
{
    connect(m_client, &AgentClient::message, this, &RemoteOperationRunner::onMessage);
    connect(m_client, &AgentClient::disconnected, this, [this](const QString &problem) {
        failAll(QStringLiteral("the connection to %1 was lost (%2)").arg(m_client->address().display(), problem));
    });
}

void RemoteOperationRunner::startPlan(
    const QString &kind, const QJsonObject &request, const Replies &replies, bool runUnlessAsked)
{
    const Pending pending { false, runUnlessAsked, kind, {}, {}, replies };
    if (!m_client->isReady()) {
        // Asynchronous as an answer of the agent would be: the caller may not expect a signal inside its call.
        QTimer::singleShot(0, this, [this, pending] {
            fail(pending, QStringLiteral("not connected to %1").arg(m_client->address().display()));
        });
        return;
    }
    const qint64 id = m_client->request(
        QStringLiteral("plan"), { { QLatin1String("kind"), kind }, { QLatin1String("request"), request } });
    m_pending.insert(id, pending);
}

void RemoteOperationRunner::startRun(const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies)
{
    const Pending pending { true, false, plan.kind, plan.id, plan.target, replies };
    if (!m_client->isReady()) {
        QTimer::singleShot(0, this, [this, pending] {
            fail(pending, QStringLiteral("not connected to %1: nothing was run").arg(m_client->address().display()));
        });
        return;
    }
    const qint64 id = m_client->request(QStringLiteral("run"),
        { { QLatin1String("plan"), planToJson(plan) }, { QLatin1String("answers"), answersToJson(answers) } });
    m_pending.insert(id, pending);
}

namespace {

// A start on the agent: cancel() asks the agent to stop it (the result still comes to the start's id).
class RemoteRun final : public OperationRun {
public:
    RemoteRun(const QString &kind, AgentClient *client, QObject *parent)
        : OperationRun(kind, parent)
        , m_client(client)
    {
    }
    qint64 requestId = 0; // the start's; 0 while nothing was sent

protected:
    void requestCancel() override
    {
        if (requestId > 0 && m_client->isReady())
            m_client->request(QStringLiteral("cancel-run"), { { QLatin1String("target"), requestId } });
    }

private:
    AgentClient *m_client;
};

} // namespace

OperationRun *RemoteOperationRunner::startLong(
    const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies)
{
    auto *run = new RemoteRun(plan.kind, m_client, this);
    const Pending pending { true, false, plan.kind, plan.id, plan.target, replies, run };
    if (!m_client->isReady()) {
        QTimer::singleShot(0, this, [this, pending] {
            fail(pending, QStringLiteral("not connected to %1: nothing was run").arg(m_client->address().display()));
        });
        return run;
    }
    run->requestId = m_client->request(QStringLiteral("start"),
        { { QLatin1String("plan"), planToJson(plan) }, { QLatin1String("answers"), answersToJson(answers) } });
    m_pending.insert(run->requestId, pending);
    return run;
}

void RemoteOperationRunner::fail(const Pending &pending, const QString &error)
{
    if (!pending.isRun) {
        deliverPlanFailed(pending.replies, error);
        return;
    }
    OperationResult result;
    result.kind = pending.kind;
    result.planId = pending.planId;
    result.target = pending.target;
    result.error = error;
    finish(pending, result);
}

void RemoteOperationRunner::finish(const Pending &pending, const OperationResult &result)
{
    if (pending.run)
        deliverRunFinished(pending.run, pending.replies, result);
    else
        deliverFinished(pending.replies, result);
}

void RemoteOperationRunner::failAll(const QString &error)
{
    const QHash<qint64, Pending> pending = std::exchange(m_pending, {});
    for (const Pending &p : pending) {
        fail(p,
            p.isRun ? error + QStringLiteral(" while it ran there: its outcome is unknown; read the state again")
                    : error);
    }
}

void RemoteOperationRunner::onMessage(const QJsonObject &message)
{
    const qint64 id = message.value(QLatin1String("id")).toInteger();
    if (!m_pending.contains(id))
        return;
    const QString type = message.value(QLatin1String("type")).toString();
    if (type == QLatin1String("progress")) { // a start's, before its result
        deliverProgress(m_pending.value(id).replies, message.value(QLatin1String("event")).toObject());
        return;
    }
    const Pending pending = m_pending.take(id);
    if (type == QLatin1String("error")) {
        fail(pending, message.value(QLatin1String("error")).toString());
    } else if (type == QLatin1String("plan") && !pending.isRun) {
        const Result<OperationPlan> plan = planFromJson(message.value(QLatin1String("plan")).toObject());
        if (plan && pending.runUnlessAsked && plan->risks.isEmpty() && plan->refusals.isEmpty())
            startRun(*plan, acceptAll(*plan), pending.replies); // the agent checks it again before it acts
        else if (plan)
            deliverPlanned(pending.replies, *plan);
        else
            fail(pending, QStringLiteral("the agent's plan: %1").arg(plan.errorMessage()));
    } else if (type == QLatin1String("result") && pending.isRun) {
        const Result<OperationResult> result = resultFromJson(message.value(QLatin1String("result")).toObject());
        if (result)
            finish(pending, *result);
        else
            fail(pending, QStringLiteral("the agent's result: %1").arg(result.errorMessage()));
    } else {
        fail(pending, QStringLiteral("the agent answered '%1'").arg(type));
    }
}

} // namespace dmtune
