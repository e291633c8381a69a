#pragma once
// One line of `dmsetup table` / `dmsetup status`: "<start> <length> <target type> <params>".
#include "core/util/result.h"

#include <QJsonArray>
#include <QJsonValue>
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

// Lines as JSON text, one string each as dmsetup prints it (a capture's tables, the agent's map reports), and back
// through parseTargetLine(); `where` names the list in an error ("mpatha.table[2]: ...").
QJsonArray targetLinesJson(const QList<DmTargetLine> &lines);
Result<QList<DmTargetLine>> targetLinesFromJson(const QJsonValue &value, const QString &where);

// The params of a multipath map's one target (its table or its status); an error when there is not exactly
// one line or its type is not multipath.
Result<QString> multipathTargetParams(const QList<DmTargetLine> &lines);

} // namespace dmtune
