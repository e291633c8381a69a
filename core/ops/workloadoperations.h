#pragma once
// workload.start (docs/operations.md): fio on one device, guarded. The plan is the one check both the
// Workloads dock and dmtunectl run make: the job (a template, or a job file read by fio --showcmd and frozen
// into its checked arguments, fiojobfile.h), and for a write the write guard over the device, held O_EXCL from
// the plan on (writeguard.h). Refusals: a job file fio or dmtune refuses, a device in use. Risk: a write to a
// device that holds data (the device's name to type, --destroy-data-on DEV). Preview: the fio command line.
// Basis: the device's identity (its dev_t, holders, partitions, signatures) and the checked fio arguments.
//
// fio itself runs for minutes and streams, so it is started by a WorkloadSession, not by the operation's run:
// startWorkload() makes runOperation()'s checks (answers, a fresh plan, the basis) and hands back the fresh
// plan's frozen job and device hold; the session runs exactly those (what runs is what was checked).
#include "ops/operationregistry.h"
#include "workloads/devicehold.h"
#include "workloads/fiojob.h"

#include <memory>

namespace dmtune {

inline constexpr auto WorkloadStartKind = "workload.start";

// {"device": "loop3" (any spec resolveDeviceSpec knows), "job": fioJobToJson(job)} (a job file: "job_file").
QJsonObject workloadRequest(const FioJob &job, const QString &device);

struct PreparedWorkload {
    FioJob job; // checked: a job file's options frozen into checkedArguments
    QString device; // kernel name
    QString devicePath;
    bool writes = false;
    QString command; // the fio command line
    std::shared_ptr<DeviceHold> hold; // a write's O_EXCL hold, from the plan until the run takes it
};
const PreparedWorkload *preparedWorkloadOf(const OperationPlan &plan);

struct WorkloadStart {
    OperationResult result; // ok: start `job` on `devicePath` with `hold`; else the refusal (stale, unanswered)
    FioJob job;
    QString devicePath;
    std::shared_ptr<DeviceHold> hold;
};
// runOperation() for workload.start without starting fio: lets go of the plan's own hold, checks the answers,
// plans again (holding the device again) and compares the basis. Blocks (fio --showcmd, libblkid): a job.
WorkloadStart startWorkload(
    const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers);

void registerWorkloadOperations();

} // namespace dmtune
