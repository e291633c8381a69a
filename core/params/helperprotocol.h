#pragma once
// dmtune-helper's protocol and its whole logic, kept here so it is unit-tested on temp trees and
// the helper binary stays a few lines. Request on stdin:
//   {"changes":[{"device":"sdb","attribute":"queue/nomerges","value":"2"}],"dry_run":false}
// plus "risks_confirmed":true when the user confirmed the data risks of the change set (planner.h).
// Reply on stdout: an ApplyResult as JSON (applyresult.h). Exit 0 applied, 1 failed and rolled
// back, 2 request rejected (nothing written).
#include "core/params/applyresult.h"
#include "core/params/changeset.h"
#include "core/params/planner.h"
#include "core/sysfs/sysfsroot.h"

#include <QByteArray>

namespace dmtune {

struct HelperRequest {
    ChangeSet changes;
    bool dryRun = false;
    RiskConsent consent = RiskConsent::None;
};

constexpr qsizetype helperMaxRequestBytes = 1 << 20;
constexpr qsizetype helperMaxChanges = 4096;

// Strict: an object with a "changes" array of {device, attribute, value} strings (nothing else)
// and optional booleans "dry_run" and "risks_confirmed".
Result<HelperRequest> parseHelperRequest(const QByteArray &json);
QByteArray helperRequestJson(const ChangeSet &changes, bool dryRun, RiskConsent consent = RiskConsent::None);

struct HelperReply {
    QByteArray json;
    int exitCode = 0;
};

// Validates and applies through the same planner and transaction as in-process callers.
HelperReply runHelper(const SysfsRoot &sysfs, const QByteArray &request);

} // namespace dmtune
