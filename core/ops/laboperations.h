#pragma once
// lab.create and lab.remove (docs/operations.md): the lab device (workloads/labloop.h: a loop device with
// direct I/O over a sparse file, mq-deadline) as operations, on the process's LabDevices
// (OperationEnvironment::labs; null: both refuse). The plans read only; the runs make the loop ioctls and the
// scheduler writes and read back what the kernel says. lab.remove acts on this process's own lab devices only,
// detaches one only while the kernel still backs it by our file (its basis: backing inode and device), and
// refuses a device something holds or has claimed.
#include "core/ops/operationregistry.h"

namespace dmtune {

inline constexpr auto LabCreateKind = "lab.create";
inline constexpr auto LabRemoveKind = "lab.remove";

// {"bytes": N} (and "base_dir" when not the default)
QJsonObject labCreateRequest(qint64 bytes, const QString &baseDir = {});
// {"device": "loop3"}
QJsonObject labRemoveRequest(const QString &device);

void registerLabOperations();

} // namespace dmtune
