#pragma once
// A recording as read back from its file: the header (host, kernel, configuration), the raw counters of every
// sampler batch, markers, notes and fio's output. A plain value; replay (recordingreplay.h) turns the counters
// back into the sampler's batches and metrics.
#include "core/latency/latencyhistogram.h"
#include "core/recordings/recordingwriter.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <array>

namespace dmtune {

struct RecordedDevice {
    QString name;
    quint64 devnum = 0;
    int fieldCount = 0;
};

// The 17 diskstats fields, then in-flight reads and writes.
using RecordedValues = std::array<quint64, 19>;

struct RecordedSample {
    int device = 0; // index into Recording::devices
    bool hasBaseline = false; // first sample of a series: `baseline` holds the counters before the interval
    RecordedValues baseline {};
    RecordedValues values {};
};

// The latency probe's histograms of one device over one batch's interval.
struct RecordedLatency {
    int device = 0; // index into Recording::devices
    DeviceLatency latency;
};

struct RecordedBatch {
    qint64 wallMs = 0;
    qint64 monotonicNs = 0; // µs resolution
    double elapsedSeconds = 0;
    quint64 sequence = 0;
    QList<RecordedSample> samples;
    QList<RecordedLatency> latency; // empty when the probe did not run
};

struct RecordedEvent {
    double time = 0; // epoch seconds
    QString text; // a marker's label or a note's text
};

struct RecordedFioProgress {
    double time = 0;
    QJsonObject status;
};

struct RecordedFioResult {
    QStringList argv;
    QJsonObject result;
};

struct Recording {
    QString path; // where it was read from (empty for bytes)
    int formatVersion = 0;
    QJsonObject header;
    RecordingMeta meta;
    QList<RecordedDevice> devices; // in order of first appearance
    QList<RecordedBatch> batches;
    QList<RecordedEvent> markers;
    QList<RecordedEvent> notes;
    QList<RecordedFioProgress> fioProgress;
    QList<RecordedFioResult> fioResults;
    bool hasLatency = false; // a latency frame was read
    bool complete = false; // the end frame was read
    bool truncated = false; // the file ends inside a frame (a crash mid-run): read up to the last whole one
    QString truncation; // where and why
    qint64 fileBytes = 0;
    qint64 deviceSamples = 0;
    qint64 sampleFrameBytes = 0; // the bytes of sample and device frames, framing included
    qint64 latencyFrameBytes = 0; // the bytes of latency frames, framing included

    // A short name for tables and legends: the title, else the file's base name. Two recordings of one template
    // share it: distinctRecordingNames() tells those apart.
    QString displayName() const;
    // Epoch seconds of the first batch's interval start (the header's start time without batches).
    double startSeconds() const;
    double endSeconds() const;
    // Where comparisons align recordings: the first marker labelled RecordingWriter::fioStartLabel(), else
    // the recording's start.
    double alignSeconds() const;
    // The end of the workload: the first "fio end" marker after alignSeconds(), else the recording's end.
    double workloadEndSeconds() const;
    // The watched devices: the header's list, then devices that only appear in samples.
    QStringList deviceNames() const;
    // The whole file over its device-samples (the header's configuration snapshot included) ...
    double bytesPerDeviceSample() const { return deviceSamples ? double(fileBytes) / double(deviceSamples) : 0; }
    // ... and the counters alone: what each further device-sample costs.
    double sampleBytesPerDeviceSample() const
    {
        return deviceSamples ? double(sampleFrameBytes) / double(deviceSamples) : 0;
    }
};

// The names of `recordings` side by side (report titles, headings, table headers): each displayName(), and where
// two are the same, each of those followed by its start time (UTC, hh:mm:ss, with the date when their days
// differ), else by its file name, else by its place in the list (#2).
QStringList distinctRecordingNames(const QList<Recording> &recordings);

} // namespace dmtune
