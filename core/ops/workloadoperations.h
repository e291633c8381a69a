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
#include <optional>

namespace dmtune {

inline constexpr auto WorkloadStartKind = "workload.start";

// {"device": "loop3" (any spec resolveDeviceSpec knows), "job": fioJobToJson(job)} (a job file: "job_file").
QJsonObject workloadRequest(const FioJob &job, const QString &device);

// A job file for another host (a remote window): its content goes in the request, not its path, as
// "job_file_data" (base64) and "job_file_name" (the path here, for the title). Only an agent takes it
// (remote/agentoperations.h): it writes the bytes into a private directory and plans with that path, so that
// fio reads the job there; a local plan refuses it (a local job file is read where "job_file" says).
inline constexpr qsizetype MaxJobFileBytes = 1 << 20;
// The job file read once (inlineFioJobFile(): its includes inlined, each file through readInputFile), at most
// MaxJobFileBytes; the error names the file.
Result<QByteArray> readJobFileContent(const QString &path);
QJsonObject workloadRequestWithContent(const FioJob &job, const QString &device, const QByteArray &content);

struct SentJobFile {
    QByteArray content;
    QString fileName; // a plain file name for the copy: the sent name's last part, "job.fio" when it has none
};
// The job file a request carries as content: nullopt when it carries none; an error line for both a path and
// content, content over MaxJobFileBytes, or data that is not base64.
Result<std::optional<SentJobFile>> sentJobFileOf(const QJsonObject &request);
// The request with its content replaced by the path the copy was written to (the title stays the sent name).
QJsonObject withJobFileAt(const QJsonObject &request, const QString &path);

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
