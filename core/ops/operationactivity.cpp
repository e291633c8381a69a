#include "core/ops/operationactivity.h"

#include <QHash>
#include <QMutex>

namespace dmtune {

namespace {

struct LongKinds {
    QMutex mutex;
    QHash<QString, StartOperation> starts;
};

LongKinds &longKinds()
{
    static LongKinds kinds;
    return kinds;
}

StartOperation startOf(const QString &kind)
{
    registerBuiltinOperations();
    LongKinds &kinds = longKinds();
    const QMutexLocker lock(&kinds.mutex);
    return kinds.starts.value(kind);
}

} // namespace

void registerLongOperation(const QString &kind, const StartOperation &start)
{
    LongKinds &kinds = longKinds();
    const QMutexLocker lock(&kinds.mutex);
    kinds.starts.insert(kind, start);
}

bool isLongOperation(const QString &kind)
{
    return bool(startOf(kind));
}

OperationStart startOperation(
    const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers)
{
    const StartOperation start = startOf(plan.kind);
    if (start)
        return start(env, plan, answers);
    OperationStart refused;
    refused.result.kind = plan.kind;
    refused.result.planId = plan.id;
    refused.result.target = plan.target;
    refused.result.error = QStringLiteral("%1 is not a long-running operation: run it").arg(plan.kind);
    return refused;
}

} // namespace dmtune
