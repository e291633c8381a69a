#pragma once
// Writes one recording file: a header (format version, host, kernel, devices, the configuration snapshot),
// then append-only frames as things happen: the raw counters of the watched devices at every sampler tick
// (delta + varint coded, about 15 bytes per device-sample), markers, notes, fio's progress objects and its
// final result. Every call writes its frame with one write(2), so a crash mid-run loses at most the frame being
// written: RecordingReader reads up to the last whole frame. The frames go to a temp file beside the target
// (AtomicFile: NAME.XXXXXX.part), renamed to NAME when the recording is finished or the writer destroyed; a
// process killed outright leaves the .part file, readable as it is. Format: docs/recordings.md.
#include "core/latency/latencyhistogram.h"
#include "core/stats/samplebatch.h"
#include "core/util/atomicfile.h"
#include "core/util/result.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <array>
#include <memory>

namespace dmtune {

class SysfsRoot;
class DeviceSnapshot;

struct RecordingMeta {
    QString host;
    QString kernel;
    QDateTime started;
    double intervalSeconds = 1.0;
    QStringList devices; // the watched devices (kernel names), map first, then its paths
    QJsonObject configuration; // captureConfiguration()
    QString title;
};

class RecordingWriter {
public:
    // Creates the temp file beside `path` and writes the header. Fails with the file's error, or when `path` is a
    // symbolic link or not a regular file, or (unless `existing` is Replace, which the user asked for) exists; a
    // replaced recording is replaced when this one is finished.
    static Result<std::unique_ptr<RecordingWriter>> create(
        const QString &path, const RecordingMeta &meta, ExistingFile existing = ExistingFile::Refuse);
    ~RecordingWriter();
    RecordingWriter(const RecordingWriter &) = delete;
    RecordingWriter &operator=(const RecordingWriter &) = delete;

    // Raw counters (and in-flight reads/writes) of every device in the batch; the first time a device shows
    // up its counters are written whole, then as differences from its previous sample.
    Status addBatch(const SampleBatch &batch);
    // The latency probe's histograms over the interval of the batch added last, per device of that batch.
    Status addLatency(const QList<std::pair<QString, DeviceLatency>> &intervals);
    Status addMarker(double epochSeconds, const QString &label);
    // One object of fio's --status-interval JSON stream (cumulative, as fio prints it).
    Status addFioProgress(double epochSeconds, const QJsonObject &fioStatus);
    Status addFioResult(const QJsonObject &fioFinal, const QStringList &fioArgv);
    Status addNote(double epochSeconds, const QString &text);
    // Writes the end frame (sample count, end time), fsyncs and renames the file to its name. Later calls fail.
    // After a failed write (disk full) the frames written so far are still renamed into place.
    Status finish();

    QString path() const; // the final name
    QString partialPath() const; // where the frames are until finish() renames them (NAME.XXXXXX.part)
    qint64 bytesWritten() const { return m_bytes; }
    qint64 deviceSamples() const { return m_deviceSamples; }

    // The label of the marker that aligns recordings in a comparison (RecordingComparison).
    static QString fioStartLabel() { return QStringLiteral("fio start"); }
    static QString fioEndLabel() { return QStringLiteral("fio end"); }

private:
    RecordingWriter() = default;
    Status writeFrame(char type, const QByteArray &payload);
    Status writeJsonFrame(char type, const QJsonObject &object);

    struct DeviceState {
        quint32 id = 0;
        std::array<quint64, 19> values {}; // the 17 diskstats fields, in-flight reads, in-flight writes
        qint64 lastBatch = -1; // index of the batch that last carried the device
        int fieldCount = 0;
    };
    void appendDevice(QByteArray &frame, DeviceState &state, const DeviceSample &sample, bool baseline);
    std::unique_ptr<AtomicFile> m_file;
    QString m_error; // the first write error; later frames are not attempted
    QHash<QString, DeviceState> m_devices;
    quint32 m_nextDeviceId = 0;
    qint64 m_lastMonotonicUs = 0;
    qint64 m_lastWallMs = 0;
    quint64 m_lastSequence = 0;
    bool m_finished = false;
    qint64 m_bytes = 0;
    qint64 m_deviceSamples = 0;
    qint64 m_batches = 0;
};

// The configuration of the watched devices as a JSON object: host, kernel, per device its kind, size,
// holders/slaves and every tunable of the core/params catalog with its current value, and the dm tables of
// maps. Read-only; unreadable attributes are null.
QJsonObject captureConfiguration(const SysfsRoot &root, const DeviceSnapshot &snapshot, const QStringList &devices);

} // namespace dmtune
