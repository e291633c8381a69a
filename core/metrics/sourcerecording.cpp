#include "core/metrics/sourcerecording.h"

#include "core/recordings/recordingwriter.h"

#include <QJsonArray>
#include <QJsonObject>

namespace dmtune {

namespace {

QJsonObject sourceConfiguration(const MetricsSource &source, const CounterFrame &first)
{
    QJsonObject names;
    for (auto it = first.dmNames.constBegin(); it != first.dmNames.constEnd(); ++it)
        names.insert(it.key(), it.value());
    QJsonObject paths;
    for (auto it = first.pathsOf.constBegin(); it != first.pathsOf.constEnd(); ++it)
        paths.insert(it.key(), QJsonArray::fromStringList(it.value()));
    const SourceHost host = source.host();
    return { { QStringLiteral("source"),
        QJsonObject { { QStringLiteral("description"), source.description() },
            { QStringLiteral("limits"), QJsonArray::fromStringList(source.limits()) },
            { QStringLiteral("dm_names"), names }, { QStringLiteral("paths"), paths },
            { QStringLiteral("nodename"), host.nodename }, { QStringLiteral("release"), host.release },
            { QStringLiteral("machine"), host.machine }, { QStringLiteral("cpus"), host.cpus } } } };
}

} // namespace

Result<SourceRecordingSummary> recordFromSource(
    MetricsSource &source, const QStringList &devices, const QString &path, const QString &title, ExistingFile existing)
{
    using R = Result<SourceRecordingSummary>;
    // The first sample with devices (an interpolated archive has none at its very start).
    auto first = source.fetch();
    while (first && first->devices.isEmpty() && !source.atEnd())
        first = source.fetch();
    if (!first)
        return R::failure(first.errorMessage());
    if (first->devices.isEmpty())
        return R::failure(QStringLiteral("%1: no devices").arg(source.description()));
    QStringList missing;
    const QStringList names = devices.isEmpty() ? QStringList() : resolveFrameDevices(*first, devices, &missing);
    if (!missing.isEmpty())
        return R::failure(QStringLiteral("%1 has no device %2").arg(source.description(), missing.join(u", ")));

    RecordingMeta meta;
    meta.host = source.host().nodename;
    meta.kernel = source.host().release;
    meta.started = QDateTime::fromMSecsSinceEpoch(first->timeNs / 1'000'000);
    meta.title = title;
    meta.configuration = sourceConfiguration(source, *first);
    if (names.isEmpty()) {
        for (const DiskCounters &d : first->devices)
            meta.devices.append(d.name);
    } else {
        meta.devices = names;
    }

    // Written to the end first: the interval is known only then, and a live source never ends.
    QList<CounterFrame> frames { first.value() };
    while (!source.atEnd()) {
        auto frame = source.fetch();
        if (!frame) {
            if (source.atEnd())
                break;
            return R::failure(frame.errorMessage());
        }
        frames.append(frame.value());
    }
    if (frames.size() < 2)
        return R::failure(QStringLiteral("%1: fewer than two samples").arg(source.description()));
    meta.intervalSeconds = double(frames.last().timeNs - frames.first().timeNs) / 1e9 / double(frames.size() - 1);

    auto writer = RecordingWriter::create(path, meta, existing);
    if (!writer)
        return R::failure(writer.errorMessage());
    SourceRecordingSummary summary;
    summary.devices = meta.devices;
    summary.firstSeconds = double(frames.first().timeNs) / 1e9;
    summary.lastSeconds = double(frames.last().timeNs) / 1e9;
    for (qsizetype i = 1; i < frames.size(); ++i) {
        SampleBatch batch;
        if (frames.at(i).afterGap) {
            // No interval spans a restart: an empty batch there, so that every device starts a new series.
            batch.wallMs = frames.at(i).timeNs / 1'000'000;
            batch.monotonicNs = frames.at(i).timeNs;
            batch.elapsedSeconds = double(frames.at(i).timeNs - frames.at(i - 1).timeNs) / 1e9;
            ++summary.gaps;
        } else {
            batch = batchBetween(frames.at(i - 1), frames.at(i), names);
        }
        batch.sequence = quint64(i);
        if (Status s = writer.value()->addBatch(batch); !s)
            return R::failure(s.errorMessage());
        ++summary.batches;
        summary.deviceSamples += batch.devices.size();
    }
    if (Status s = writer.value()->finish(); !s)
        return R::failure(s.errorMessage());
    summary.path = writer.value()->path();
    return summary;
}

} // namespace dmtune
