#include "remote/agentoperations.h"

#include "discovery/sysfscapture.h"
#include "dm/devicemapper.h"
#include "ops/operationrunner.h"

#include <QJsonArray>

namespace dmtune {

namespace {

QLatin1String key(const char *k)
{
    return QLatin1String(k);
}

} // namespace

AgentOperations::AgentOperations(const SysfsRoot &root, Send send, QObject *parent)
    : QObject(parent)
    , m_send(std::move(send))
{
    registerBuiltinOperations();
    OperationEnvironment env;
    env.sysfs = root;
    if (const auto dm = deviceMapperFor(root)) {
        m_dm = dm.value();
        env.dm = m_dm.get();
    }
    if (root.isLive())
        env.multipathd = [] { return liveMultipathd(); };
    m_runner = new OperationRunner(this);
    m_runner->setEnvironment(env);
    connect(m_runner, &OperationRunner::planned, this, [this](const OperationPlan &plan, const QString &tag) {
        m_send({ { key("type"), QStringLiteral("plan") }, { key("id"), tag.toLongLong() },
            { key("plan"), planToJson(plan) } });
    });
    connect(m_runner, &OperationRunner::planFailed, this,
        [this](const QString &kind, const QString &error, const QString &tag) {
            m_send({ { key("type"), QStringLiteral("error") }, { key("id"), tag.toLongLong() },
                { key("error"), QStringLiteral("%1: %2").arg(kind, error) } });
        });
    connect(m_runner, &OperationRunner::finished, this, [this](const OperationResult &result, const QString &tag) {
        m_send({ { key("type"), QStringLiteral("result") }, { key("id"), tag.toLongLong() },
            { key("result"), resultToJson(result) } });
    });
}

AgentOperations::~AgentOperations()
{
    delete m_runner; // joins its job before the device-mapper backend goes
    m_runner = nullptr;
}

bool AgentOperations::isOperationOp(const QString &op)
{
    return op == QLatin1String("kinds") || op == QLatin1String("plan") || op == QLatin1String("run");
}

QString AgentOperations::handle(qint64 id, const QString &op, const QJsonObject &request)
{
    const QString tag = QString::number(id);
    if (op == QLatin1String("kinds")) {
        QJsonArray kinds;
        for (const QString &kind : operationKinds()) {
            kinds.append(
                QJsonObject { { key("kind"), kind }, { key("description"), findOperation(kind)->description } });
        }
        m_send({ { key("type"), QStringLiteral("kinds") }, { key("id"), id }, { key("kinds"), kinds } });
        return {};
    }
    if (op == QLatin1String("plan")) {
        const QString kind = request.value(key("kind")).toString();
        if (!findOperation(kind))
            return QStringLiteral("plan: no operation '%1' here (kinds lists them)").arg(kind);
        if (!request.value(key("request")).isObject())
            return QStringLiteral("plan: \"request\" must be an object");
        m_runner->plan(kind, request.value(key("request")).toObject(), tag);
        return {};
    }
    const Result<OperationPlan> plan = planFromJson(request.value(key("plan")).toObject());
    if (!plan)
        return QStringLiteral("run: the plan: %1").arg(plan.errorMessage());
    const Result<OperationAnswers> answers = answersFromJson(request.value(key("answers")).toObject());
    if (!answers)
        return QStringLiteral("run: the answers: %1").arg(answers.errorMessage());
    m_runner->run(*plan, *answers, tag);
    return {};
}

} // namespace dmtune
