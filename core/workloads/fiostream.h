#pragma once
// fio's --status-interval=1 --output-format=json(+) output: a stream of whole JSON objects, each cumulative
// since the start, sometimes with other lines between them ("note: ...", "fio: terminating on signal 2").
// Splitting it and turning consecutive objects into per-second rates are pure functions over text.
#include "core/util/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QStringList>

namespace dmtune {

struct FioStreamChunk {
    QList<QJsonObject> objects; // complete objects, in stream order
    QStringList otherLines; // complete non-JSON lines, trimmed, empty ones dropped
    QStringList errors; // objects that were complete but not valid JSON (with their offset)
    qsizetype consumed = 0; // bytes of the input used; the rest is an incomplete object or line
};

// Splits as much of `data` as is complete. A top-level object starts with '{' at the start of a line (after
// blanks) and ends at its matching '}' (braces inside strings do not count).
FioStreamChunk splitFioStream(const QByteArray &data);

// Feeds a growing stream chunk by chunk (a process's stdout), keeping the incomplete tail.
class FioStreamBuffer {
public:
    FioStreamChunk append(const QByteArray &bytes);
    // The end of the stream: a trailing line without newline counts, an unfinished object is an error.
    FioStreamChunk finish();

private:
    QByteArray m_pending;
};

// One direction (read, write or trim) of a job group, cumulative.
struct FioDirectionTotals {
    qint64 ios = 0;
    qint64 bytes = 0;
    QMap<qint64, qint64> clatBins; // completion latency (ns) -> count, from json+; empty with plain json
    QMap<double, qint64> clatPercentiles; // fio's own cumulative percentiles (percent -> ns)
};

// The jobs of one group (groupid) added up, as of one status object.
struct FioGroupTotals {
    int groupId = 0;
    QString name; // the first job's name
    int jobs = 0;
    qint64 runtimeMs = 0; // the longest per-direction "runtime" of the group's jobs: how long it has been doing I/O
    int errors = 0; // jobs with a non-zero error
    FioDirectionTotals read, write, trim;
};

struct FioStatus {
    qint64 timestampMs = 0; // when fio printed it (epoch ms)
    QString fioVersion;
    QList<FioGroupTotals> groups; // by groupid
    const FioGroupTotals *group(int groupId) const;
};

// One status object of the stream; the error names what is missing.
Result<FioStatus> parseFioStatus(const QJsonObject &object);

struct FioLatency {
    double p50Ns = 0, p90Ns = 0, p99Ns = 0, p999Ns = 0;
    qint64 samples = 0; // completions the percentiles describe
    bool perInterval = false; // from histogram differences (json+); false: fio's cumulative percentiles
};

// The rates of one group over the interval between two status objects.
struct FioRates {
    int groupId = 0;
    QString name;
    double seconds = 0; // the interval: difference of the groups' runtimeMs
    double readIops = 0, writeIops = 0, trimIops = 0;
    double readBytesPerSecond = 0, writeBytesPerSecond = 0, trimBytesPerSecond = 0;
    FioLatency readClat, writeClat, clat; // clat: all directions together
    double iops() const { return readIops + writeIops + trimIops; }
    double bytesPerSecond() const { return readBytesPerSecond + writeBytesPerSecond + trimBytesPerSecond; }
};

// previous may be null: the first object, whose interval is the time since the jobs started.
FioRates fioRatesBetween(const FioGroupTotals *previous, const FioGroupTotals &current);
QList<FioRates> fioRatesBetween(const FioStatus *previous, const FioStatus &current);

// The value below which `percent` of the histogram's counts lie (fio's own rule: the first bin whose
// cumulative count reaches ceil(percent/100 * total)); 0 for an empty histogram.
double histogramPercentile(const QMap<qint64, qint64> &bins, double percent);
// current - previous, bin by bin (negative differences clamp to zero).
QMap<qint64, qint64> histogramDifference(const QMap<qint64, qint64> &current, const QMap<qint64, qint64> &previous);

} // namespace dmtune
