#pragma once
// workload.start (docs/operations.md): fio on one device, guarded. The plan is the one check both the
// Workloads dock and dmtunectl run make: the job (a template, or a job file read by fio --showcmd and frozen
// into its checked arguments, fiojobfile.h), and for a write the write guard over the device, held O_EXCL from
// the plan on (writeguard.h). Refusals: a job file fio or dmtune refuses, a device in use. Risk: a write to a
// device that holds data (the device's name to type, --destroy-data-on DEV). Preview: the fio command line.
// Basis: the device's identity (its dev_t, holders, partitions, signatures) and the checked fio arguments.
//
// fio itself runs for minutes and streams, so workload.start is a long-running operation: started, not run
// (OperationService::start; its activity and events: workloads/workloadactivity.h). Its run answers a dry run only.
#include "core/ops/operationregistry.h"
#include "core/workloads/devicehold.h"
#include "core/workloads/fiojob.h"

#include <memory>
#include <optional>

namespace dmtune {

inline constexpr auto WorkloadStartKind = "workload.start";

// {"device": "loop3" (any spec resolveDeviceSpec knows), "job": fioJobToJson(job)} (a job file: "job_file").
// Optional: "record" (a new recording file; an existing one is refused unless "replace_recording" is true) and
// "latency" (WorkloadLatencyRequired or WorkloadLatencyWanted: the block-layer probe's histograms of the run).
QJsonObject workloadRequest(const FioJob &job, const QString &device);
inline constexpr auto WorkloadLatencyRequired = "required"; // no probe, no run (dmtunectl run --histogram)
inline constexpr auto WorkloadLatencyWanted = "wanted"; // no probe: the run goes on and says why (the dock)
struct WorkloadExtras {
    QString recordPath; // empty: not recorded
    bool replaceRecording = false;
    QString latency; // empty, WorkloadLatencyRequired or WorkloadLatencyWanted
};
QJsonObject withWorkloadExtras(QJsonObject request, const WorkloadExtras &extras);

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

void registerWorkloadOperations();

} // namespace dmtune
