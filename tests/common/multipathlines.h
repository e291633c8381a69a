#pragma once
// One whole `dmsetup table` / `dmsetup status` line of a multipath target ("0 2097152 multipath ...") to its table
// or status: how the tests and the fuzzers write their cases. The product reads a map's lines through
// parseTargetLines() and multipathTableOf() / multipathStatusOf(), which also refuse a map of several targets.
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"
#include "core/util/result.h"

#include <QStringView>

namespace dmtune {

// Fails for another target type, as multipathTableOf() does.
Result<MultipathTable> parseMultipathTableLine(QStringView line);
Result<MultipathStatus> parseMultipathStatusLine(QStringView line);

} // namespace dmtune
