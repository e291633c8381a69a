#pragma once
// The words the editor and the history use for a transaction's outcome: one wording everywhere.
#include "core/params/applyresult.h"

namespace dmtune {

// "sdb nomerges 0 -> 2, sdc nomerges 0 -> 2" (values changed), or "nothing changed".
QString applySummary(const ApplyResult &result);
// Success: what changed, what the kernel clamped, side effects (rich text).
QString applySuccessHtml(const ApplyResult &result);
// Failure: heading, whether it was rolled back or rejected, one row per error with device,
// attribute, value and the errno text (rich text, red heading).
QString applyErrorHtml(const ApplyResult &result, const QString &heading);
// Stacking warnings with their numbers (rich text), empty when none.
QString warningsHtml(const QList<StackingWarning> &warnings);
// "write" -> "writing" etc., for error rows.
QString stageText(ApplyError::Stage stage);

} // namespace dmtune
