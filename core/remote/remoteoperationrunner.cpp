#include "remote/remoteoperationrunner.h"

#include "remote/agentclient.h"

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

OperationRun *RemoteOperationRunner::startLong(
    const OperationPlan &plan, const OperationAnswers &, const Replies &replies)
{
    auto *run = new OperationRun(plan.kind, this);
    OperationResult result;
    result.kind = plan.kind;
    result.planId = plan.id;
    result.target = plan.target;
    result.error = QStringLiteral("%1 on %2 is not supported from a window yet: nothing was run (run it there: "
                                  "dmtunectl --host %2 ...)")
                       .arg(plan.kind, m_client->address().display());
    // Asynchronous as the agent's answer would be.
    QTimer::singleShot(0, run, [this, run, replies, result] { deliverRunFinished(run, replies, result); });
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
    const Pending pending = m_pending.take(id);
    const QString type = message.value(QLatin1String("type")).toString();
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
            deliverFinished(pending.replies, *result);
        else
            fail(pending, QStringLiteral("the agent's result: %1").arg(result.errorMessage()));
    } else {
        fail(pending, QStringLiteral("the agent answered '%1'").arg(type));
    }
}

} // namespace dmtune
