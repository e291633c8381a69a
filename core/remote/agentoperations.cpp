#include "core/remote/agentoperations.h"

#include "core/discovery/sysfscapture.h"
#include "core/dm/backend/devicemapper.h"
#include "core/ops/operationrunner.h"

#include "core/ops/workloadoperations.h"
#include "core/util/fd.h"
#include "core/workloads/labdevices.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>

#include <fcntl.h>

namespace dmtune {

using namespace Qt::StringLiterals;

namespace {

// A sent job file in a directory of its own: mkdtemp's (0700, new), the file created O_EXCL beneath it with no
// link followed (createNewFile). The directory goes when the pointer does.
Result<std::shared_ptr<QTemporaryDir>> writeSentJobFile(const SentJobFile &sent, QString *path)
{
    using R = Result<std::shared_ptr<QTemporaryDir>>;
    auto dir = std::make_shared<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/dmtune-agent-plan-XXXXXX"));
    if (!dir->isValid())
        return R::failure(QStringLiteral("plan: cannot make a temporary directory: %1").arg(dir->errorString()));
    const Fd dirFd(::open(QFile::encodeName(dir->path()).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (dirFd.get() < 0)
        return R::failure(QStringLiteral("plan: cannot open %1").arg(dir->path()));
    if (const Status written = createNewFile(dirFd.get(), sent.fileName, sent.content, 0600); !written)
        return R::failure(QStringLiteral("plan: the job file: %1").arg(written.errorMessage()));
    *path = dir->filePath(sent.fileName);
    return R(dir);
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
    if (root.isLive()) {
        env.multipathd = [] { return liveMultipathd(); };
        m_labs = std::make_unique<LabDevices>();
        env.labs = m_labs.get();
    }
    m_runner = new OperationRunner(this);
    m_runner->setEnvironment(env);
}

AgentOperations::~AgentOperations()
{
    delete m_runner; // joins its job before the device-mapper backend goes
    m_runner = nullptr;
}

bool AgentOperations::isOperationOp(const QString &op)
{
    return op == QLatin1String("kinds") || op == QLatin1String("plan") || op == QLatin1String("run")
        || op == QLatin1String("start") || op == QLatin1String("cancel-run");
}

QString AgentOperations::handle(qint64 id, const QString &op, const QJsonObject &request)
{
    if (op == QLatin1String("kinds")) {
        QJsonArray kinds;
        for (const QString &kind : operationKinds()) {
            kinds.append(QJsonObject { { "kind"_L1, kind }, { "description"_L1, findOperation(kind)->description } });
        }
        m_send({ { "type"_L1, QStringLiteral("kinds") }, { "id"_L1, id }, { "kinds"_L1, kinds } });
        return {};
    }
    if (op == QLatin1String("plan")) {
        const QString kind = request.value("kind"_L1).toString();
        if (!findOperation(kind))
            return QStringLiteral("plan: no operation '%1' here (kinds lists them)").arg(kind);
        if (!request.value("request"_L1).isObject())
            return QStringLiteral("plan: \"request\" must be an object");
        QJsonObject asked = request.value("request"_L1).toObject();
        if (kind == QLatin1String(WorkloadStartKind)) {
            const auto sent = sentJobFileOf(asked);
            if (!sent)
                return sent.errorMessage();
            if (sent->has_value()) {
                QString path;
                const auto dir = writeSentJobFile(**sent, &path);
                if (!dir)
                    return dir.errorMessage();
                m_sentJobFiles.insert(id, dir.value());
                asked = withJobFileAt(asked, path);
            }
        }
        m_runner->plan(
            kind, asked, this,
            [this, id](const OperationPlan &plan) {
                m_sentJobFiles.remove(id);
                m_send({ { "type"_L1, QStringLiteral("plan") }, { "id"_L1, id }, { "plan"_L1, planToJson(plan) } });
            },
            [this, id, kind](const QString &error) {
                m_sentJobFiles.remove(id);
                m_send({ { "type"_L1, QStringLiteral("error") }, { "id"_L1, id },
                    { "error"_L1, QStringLiteral("%1: %2").arg(kind, error) } });
            });
        return {};
    }
    if (op == QLatin1String("cancel-run")) {
        const qint64 target = request.value("target"_L1).toInteger();
        const QPointer<OperationRun> run = m_runs.value(target);
        if (!run)
            return QStringLiteral("cancel-run: no operation %1 runs here").arg(target);
        run->cancel(); // its result still comes, to the start's id
        m_send({ { "type"_L1, QStringLiteral("cancelling") }, { "id"_L1, id }, { "target"_L1, target } });
        return {};
    }
    const Result<OperationPlan> plan = planFromJson(request.value("plan"_L1).toObject());
    if (!plan)
        return QStringLiteral("%1: the plan: %2").arg(op, plan.errorMessage());
    const Result<OperationAnswers> answers = answersFromJson(request.value("answers"_L1).toObject());
    if (!answers)
        return QStringLiteral("%1: the answers: %2").arg(op, answers.errorMessage());
    if (op == QLatin1String("start")) {
        const QPointer<OperationRun> run = m_runner->start(
            *plan, *answers, this,
            [this, id](const QJsonObject &event) {
                m_send({ { "type"_L1, QStringLiteral("progress") }, { "id"_L1, id }, { "event"_L1, event } });
            },
            [this, id](const OperationResult &result) {
                m_runs.remove(id);
                m_send({ { "type"_L1, QStringLiteral("result") }, { "id"_L1, id },
                    { "result"_L1, resultToJson(result) } });
            });
        m_runs.insert(id, run);
        return {};
    }
    m_runner->run(*plan, *answers, this, [this, id](const OperationResult &result) {
        m_send({ { "type"_L1, QStringLiteral("result") }, { "id"_L1, id }, { "result"_L1, resultToJson(result) } });
    });
    return {};
}

} // namespace dmtune
