#pragma once
// A metrics engine's samples as a dmtune recording: a PCP archive (or a span of it) becomes a file the
// recording view, `record show`, the comparison and the reports read like any other, through the same
// counters -> SampleBatch -> IostatMetrics path. Two spans of one archive, or two archives, compare as two
// recordings.
#include "core/metrics/metricssource.h"
#include "core/util/atomicfile.h"

namespace dmtune {

struct SourceRecordingSummary {
    QString path;
    qint64 batches = 0;
    qint64 deviceSamples = 0;
    qint64 gaps = 0; // <mark> records: an empty batch stands for the interval across each
    QStringList devices;
    double firstSeconds = 0; // epoch seconds of the first and last sample
    double lastSeconds = 0;
};

// Reads `source` to its end (an archive; a live source is refused) and writes every interval between two of its
// samples as a batch of the named devices (kernel or map names; empty: all) to a recording at `path`, titled
// `title`. The header says where the samples came from and what the source lacks (configuration.source).
Result<SourceRecordingSummary> recordFromSource(MetricsSource &source, const QStringList &devices, const QString &path,
    const QString &title, ExistingFile existing = ExistingFile::Refuse);

} // namespace dmtune
