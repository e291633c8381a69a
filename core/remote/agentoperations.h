#pragma once
// The core operations on the agent's host (protocol 1.1; ops/operationregistry.h): the near side renders plans
// and results and asks the user; every rule stays in the operation, which runs here, on this host's state.
//   kinds  -> {"type":"kinds","kinds":[{"kind","description"}...]}
//   plan   {"kind", "request"} -> {"type":"plan","plan":planToJson} (or an error line). A workload.start
//          request may carry its job file as content (workloadRequestWithContent): written here into a private
//          temporary directory (0700, the file created new, no link followed) and planned with that path, so that
//          fio reads it here and the write guard looks at this host's device; removed once the plan is made.
//   run    {"plan":planToJson, "answers":answersToJson} -> {"type":"result","result":resultToJson}: run() plans
//          again on the state here and refuses a stale plan or answers that do not cover it, as locally.
//   start  {"plan", "answers"} of a long-running kind (ops/operationactivity.h: experiment.sweep) ->
//          {"type":"progress","event":{...}} for each of its progress events, in order, then {"type":"result"}:
//          OperationService::start here (the checks, then the activity on this agent's runner). A refusal is the
//          result alone. The connection's end stops it (the runner goes: a sweep restores its values).
//   cancel-run {"target": the start's id} -> {"type":"cancelling"}; the run's result follows to the start's id.
// The operations run one at a time on a job (OperationRunner): the agent's streams go on meanwhile.
// lab.create and lab.remove act on the connection's own lab devices (a remote window's lab device on the host): the
// connection's end removes the ones it made.
#include "core/sysfs/sysfsroot.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

class QTemporaryDir;

namespace dmtune {

class DeviceMapper;
class LabDevices;
class OperationRun;
class OperationRunner;

class AgentOperations : public QObject {
    Q_OBJECT
public:
    using Send = std::function<void(const QJsonObject &)>;
    // Device-mapper of `root` (libdevmapper live, a capture's recorded maps) and multipathd on a live root.
    AgentOperations(const SysfsRoot &root, Send send, QObject *parent = nullptr);
    ~AgentOperations() override;

    static bool isOperationOp(const QString &op);
    // Handles one request of isOperationOp(op); an error message for one that cannot be read.
    QString handle(qint64 id, const QString &op, const QJsonObject &request);

private:
    Send m_send;
    QHash<qint64, std::shared_ptr<QTemporaryDir>> m_sentJobFiles; // by request id: a plan's job file, until it is made
    QHash<qint64, QPointer<OperationRun>> m_runs; // by the start's id, until its result
    std::shared_ptr<DeviceMapper> m_dm; // outlives the runner (declared first, destroyed last)
    std::unique_ptr<LabDevices> m_labs; // outlives the runner too; removes its devices when it goes
    OperationRunner *m_runner = nullptr;
};

} // namespace dmtune
