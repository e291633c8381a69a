#include "core/recordings/recordingsfolder.h"

#include <QDir>
#include <QStandardPaths>

namespace dmtune {

namespace {

bool holdsRecordings(const QString &directory)
{
    return !QDir(directory).entryList({ QStringLiteral("*.dmrec") }, QDir::Files).isEmpty();
}

} // namespace

QString recordingsDirectory()
{
    // GenericDataLocation: $XDG_DATA_HOME (~/.local/share) without the organisation and application names.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/dmtune/recordings");
}

QString legacyRecordingsDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/dmtune/dmtune/recordings");
}

QString recordingsBrowseDirectory()
{
    const QString current = recordingsDirectory();
    const QString legacy = legacyRecordingsDirectory();
    if (!holdsRecordings(current) && holdsRecordings(legacy))
        return legacy;
    QDir().mkpath(current);
    return current;
}

} // namespace dmtune
