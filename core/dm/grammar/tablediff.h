#pragma once
// A human-readable difference of two multipath tables (pure): what a reload would change.
#include "core/dm/grammar/multipathtable.h"

#include <QString>
#include <QStringList>

namespace dmtune {

// One line per difference, e.g. "features: 0 -> 1 queue_if_no_path",
// "group 1: selector round-robin 0 -> service-time 0", "group 2: - 8:32 (path removed)".
// Empty when the tables are equal.
QStringList tableDiffLines(const MultipathTable &a, const MultipathTable &b);
// The lines joined with '\n'; empty when equal.
QString tableDiff(const MultipathTable &a, const MultipathTable &b);

} // namespace dmtune
