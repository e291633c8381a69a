#include "core/recordings/recording.h"

#include <QDateTime>
#include <QFileInfo>
#include <QSet>

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

namespace {

// Which entries of `names` occur more than once.
QList<bool> repeated(const QStringList &names)
{
    QList<bool> out;
    for (const QString &n : names)
        out.append(names.count(n) > 1);
    return out;
}

} // namespace

QStringList distinctRecordingNames(const QList<Recording> &recordings)
{
    QStringList names;
    for (const Recording &r : recordings)
        names.append(r.displayName());
    const QList<bool> clash = repeated(names);
    const auto start
        = [](const Recording &r) { return QDateTime::fromMSecsSinceEpoch(qint64(r.startSeconds() * 1000), Qt::UTC); };
    // The date only where the clashing recordings were made on different days.
    QSet<QDate> days;
    for (qsizetype i = 0; i < recordings.size(); ++i) {
        if (clash[i])
            days.insert(start(recordings[i]).date());
    }
    const QString format = days.size() > 1 ? QStringLiteral("yyyy-MM-dd hh:mm:ss") : QStringLiteral("hh:mm:ss");
    QStringList timed = names;
    for (qsizetype i = 0; i < recordings.size(); ++i) {
        if (clash[i])
            timed[i] = QStringLiteral("%1 (%2)").arg(names[i], start(recordings[i]).toString(format));
    }
    const QList<bool> stillTimed = repeated(timed);
    QStringList out = timed;
    for (qsizetype i = 0; i < recordings.size(); ++i) {
        if (!stillTimed[i])
            continue;
        const QString file = QFileInfo(recordings[i].path).fileName();
        out[i] = file.isEmpty() ? timed[i] : QStringLiteral("%1 (%2)").arg(names[i], file);
    }
    const QList<bool> stillFiled = repeated(out);
    for (qsizetype i = 0; i < recordings.size(); ++i) {
        if (stillFiled[i])
            out[i] = QStringLiteral("%1 (#%2)").arg(names[i]).arg(i + 1);
    }
    return out;
}

} // namespace dmtune
