#include "core/dm/backend/devicemapper.h"

namespace dmtune {

Status checkMapName(const QString &name)
{
    // DM_NAME_LEN is 128 including the terminating NUL.
    constexpr qsizetype maxNameBytes = 127;
    if (name.isEmpty())
        return Status::failure(QStringLiteral("empty map name"));
    if (name.toUtf8().size() > maxNameBytes)
        return Status::failure(QStringLiteral("map name longer than %1 bytes").arg(maxNameBytes));
    if (name.contains(QLatin1Char('/')) || name == QLatin1String(".") || name == QLatin1String(".."))
        return Status::failure(QStringLiteral("invalid map name \"%1\"").arg(name));
    for (const QChar c : name) {
        if (c.unicode() < 0x20)
            return Status::failure(QStringLiteral("map name with a control character"));
    }
    return Status::success();
}

} // namespace dmtune
