#pragma once
// A long-running operation as a detached job of the agent (docs/remote.md, "Jobs"): workload.start from a remote
// window goes on when the connection is lost, and is attached again, as `dmtunectl run` jobs are. The client sends
// the operation ({"op": "start", "detach": true, "plan", "answers"}), not a command line; the agent writes what the
// job needs into the job's directory (OperationJob: the request as the job plans it, its job file and recording
// inside that directory, and what the user answered: the basis of the plan shown and the risks accepted) and starts
// `dmtunectl agent --run-job DIR` in a session of its own. The job plans again there and starts the operation only
// when nothing changed (checkOperationJob): the same rule as OperationService::start, across a process boundary.
// Its stdout is one JSON line per progress event ({"event": ...}) and the result last ({"result": resultToJson}).
#include "core/ops/operationregistry.h"

#include <QJsonObject>
#include <QStringList>

#include <variant>

namespace dmtune {

inline constexpr auto OperationJobFileName = "operation.json";
inline constexpr qint64 MaxOperationJobBytes = 4 << 20;

struct OperationJob {
    QString kind;
    QJsonObject request; // as the job plans it
    QJsonObject basis; // of the plan the user saw and answered
    QStringList accepted; // the risk ids the user accepted
    QString command; // how the job list shows it: "workload.start batched-write-4k --device loop0"
};

// Kinds that run as detached jobs (workload.start); others are refused ("start" without "detach" runs them).
bool isDetachableOperation(const QString &kind);

QJsonObject operationJobToJson(const OperationJob &job);
Result<OperationJob> operationJobFromJson(const QJsonObject &json);

// The job list's command of a workload.start request: "workload.start NAME --device DEV" (NAME the template's id or
// the job file's name), which runCommandParts() reads as it reads a `run` command line.
QString operationJobCommand(const QString &kind, const QJsonObject &request);

// The job's own check before it starts, on the state now: the request planned again (its refusals), its basis
// against the one the user answered (stale), its risks against those accepted (a new one refuses). ok: the fresh
// plan and the answers that start it; else the result to print (nothing was done).
struct CheckedOperationJob {
    OperationPlan plan;
    OperationAnswers answers;
};
std::variant<CheckedOperationJob, OperationResult> checkOperationJob(
    const OperationEnvironment &env, const OperationJob &job);

// The job's stdout, one line each.
QByteArray operationJobEventLine(const QJsonObject &event);
QByteArray operationJobResultLine(const OperationResult &result);

} // namespace dmtune
