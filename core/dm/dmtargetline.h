#pragma once
// One line of `dmsetup table` / `dmsetup status`: "<start> <length> <target type> <params>".
#include "util/result.h"

#include <QList>
#include <QString>
#include <QStringView>

namespace dmtune {

struct DmTargetLine {
    quint64 start = 0; // sectors
    quint64 length = 0; // sectors
    QString targetType; // "multipath", "linear", ...
    QString params; // the target's own text, without leading or trailing blanks

    bool operator==(const DmTargetLine &) const = default;
};

Result<DmTargetLine> parseTargetLine(QStringView line);
// "start length type params" with single blanks (no trailing blank when params is empty).
QString formatTargetLine(const DmTargetLine &line);

// Several lines (a whole `dmsetup table NAME` output); blank lines are skipped.
Result<QList<DmTargetLine>> parseTargetLines(QStringView text);

// The params of a multipath map's one target (its table or its status); an error when there is not exactly
// one line or its type is not multipath.
Result<QString> multipathTargetParams(const QList<DmTargetLine> &lines);

} // namespace dmtune
