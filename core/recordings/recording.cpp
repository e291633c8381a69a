#include "recordings/recording.h"

#include <QFileInfo>

namespace dmtune {

QString Recording::displayName() const
{
    if (!meta.title.isEmpty())
        return meta.title;
    if (!path.isEmpty())
        return QFileInfo(path).completeBaseName();
    return QStringLiteral("recording");
}

double Recording::startSeconds() const
{
    if (batches.isEmpty())
        return double(meta.started.toMSecsSinceEpoch()) / 1000.0;
    const RecordedBatch &first = batches.first();
    return double(first.wallMs) / 1000.0 - first.elapsedSeconds;
}

double Recording::endSeconds() const
{
    return batches.isEmpty() ? startSeconds() : double(batches.last().wallMs) / 1000.0;
}

double Recording::alignSeconds() const
{
    for (const RecordedEvent &m : markers) {
        if (m.text == RecordingWriter::fioStartLabel())
            return m.time;
    }
    return startSeconds();
}

double Recording::workloadEndSeconds() const
{
    const double start = alignSeconds();
    for (const RecordedEvent &m : markers) {
        if (m.text == RecordingWriter::fioEndLabel() && m.time >= start)
            return m.time;
    }
    return endSeconds();
}

QStringList Recording::deviceNames() const
{
    QStringList names = meta.devices;
    for (const RecordedDevice &d : devices) {
        if (!names.contains(d.name))
            names.append(d.name);
    }
    return names;
}

} // namespace dmtune
