#pragma once
// The multipath operations as core operations (operationregistry.h), over dm/multipathchange.h:
//   multipath.fail-path / multipath.reinstate-path   {"map": "mpatha", "path": "sdb" | "8:16" | "/dev/sdb"}
//   multipath.switch-group / enable-group / disable-group   {"map": "mpatha", "group": 2}
//   multipath.queueing                               {"map": "mpatha", "queue_if_no_path": true}
//   multipath.reload                                 {"map": "mpatha", "table": "<multipath table text>"}
// Basis (what run() compares): the map's table, each path's state (A/F) and which groups are disabled.
#include "core/ops/operation.h"

#include <QJsonObject>

namespace dmtune {

struct MultipathMapState;

void registerMultipathOperations();

// The basis of a multipath plan: {"table": "<table>", "paths": "8:16=A 8:32=F", "disabled_groups": "2"}.
QJsonObject multipathBasis(const MultipathMapState &state);

// What a plan of this process (its `prepared`) will send, for renderers that print the dm forms:
// "fail_path 8:16", "disable_group 1"; empty for a plan read from JSON or of another kind.
QString multipathOperationOf(const OperationPlan &plan);
// A multipath.reload plan's new target line ("0 2097152 multipath ..."); empty as above.
QString reloadTargetLineOf(const OperationPlan &plan);

} // namespace dmtune
