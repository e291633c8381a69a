#include "core/workloads/fiostream.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace dmtune {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Index of the '}' that closes the object opening at `start`, or -1 when the data ends first.
qsizetype objectEnd(const QByteArray &data, qsizetype start)
{
    int depth = 0;
    bool inString = false;
    for (qsizetype i = start; i < data.size(); ++i) {
        const char c = data.at(i);
        if (inString) {
            if (c == '\\')
                ++i; // the escaped character, whatever it is
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{') {
            ++depth;
        } else if (c == '}' && --depth == 0) {
            return i;
        }
    }
    return -1;
}

// Adds one job's direction object ("read", "write", "trim") to the group's totals.
void addDirection(FioDirectionTotals &sum, const QJsonObject &direction)
{
    sum.ios += direction.value(QLatin1String("total_ios")).toInteger();
    sum.bytes += direction.value(QLatin1String("io_bytes")).toInteger();
    const QJsonObject clat = direction.value(QLatin1String("clat_ns")).toObject();
    const QJsonObject bins = clat.value(QLatin1String("bins")).toObject();
    for (auto it = bins.constBegin(); it != bins.constEnd(); ++it)
        sum.clatBins[it.key().toLongLong()] += it.value().toInteger();
    // Percentiles of several jobs cannot be added: keep those of the job with the most completions (only
    // used without histograms, i.e. plain json without group_reporting).
    const QJsonObject percentiles = clat.value(QLatin1String("percentile")).toObject();
    if (!percentiles.isEmpty() && direction.value(QLatin1String("total_ios")).toInteger() * 2 >= sum.ios) {
        sum.clatPercentiles.clear();
        for (auto it = percentiles.constBegin(); it != percentiles.constEnd(); ++it)
            sum.clatPercentiles.insert(it.key().toDouble(), it.value().toInteger());
    }
}

// fio's cumulative percentile nearest to `percent`.
double nearestPercentile(const QMap<double, qint64> &percentiles, double percent)
{
    double best = 0;
    double distance = 1e9;
    for (auto it = percentiles.constBegin(); it != percentiles.constEnd(); ++it) {
        if (std::abs(it.key() - percent) < distance) {
            distance = std::abs(it.key() - percent);
            best = double(it.value());
        }
    }
    return best;
}

qint64 binTotal(const QMap<qint64, qint64> &bins)
{
    qint64 total = 0;
    for (const qint64 count : bins)
        total += count;
    return total;
}

// haveHistogram: fio printed bins (json+), so an empty interval histogram means no completions.
FioLatency latencyOf(
    const QMap<qint64, qint64> &intervalBins, bool haveHistogram, const QMap<double, qint64> &cumulative, qint64 ios)
{
    FioLatency l;
    if (haveHistogram || cumulative.isEmpty()) {
        l.perInterval = true;
        l.samples = binTotal(intervalBins);
        l.p50Ns = histogramPercentile(intervalBins, 50);
        l.p90Ns = histogramPercentile(intervalBins, 90);
        l.p99Ns = histogramPercentile(intervalBins, 99);
        l.p999Ns = histogramPercentile(intervalBins, 99.9);
        return l;
    }
    l.samples = ios;
    l.p50Ns = nearestPercentile(cumulative, 50);
    l.p90Ns = nearestPercentile(cumulative, 90);
    l.p99Ns = nearestPercentile(cumulative, 99);
    l.p999Ns = nearestPercentile(cumulative, 99.9);
    return l;
}

} // namespace

FioStreamChunk splitFioStream(const QByteArray &data)
{
    FioStreamChunk chunk;
    qsizetype pos = 0;
    while (true) {
        while (pos < data.size() && isBlank(data.at(pos)))
            ++pos;
        chunk.consumed = pos;
        if (pos >= data.size())
            break;
        if (data.at(pos) == '{') {
            const qsizetype end = objectEnd(data, pos);
            if (end < 0)
                break;
            QJsonParseError error {};
            const QJsonDocument doc = QJsonDocument::fromJson(data.mid(pos, end - pos + 1), &error);
            if (doc.isObject())
                chunk.objects << doc.object();
            else
                chunk.errors << QStringLiteral("offset %1: %2").arg(pos + error.offset).arg(error.errorString());
            pos = end + 1;
        } else {
            const qsizetype newline = data.indexOf('\n', pos);
            if (newline < 0)
                break;
            chunk.otherLines << QString::fromUtf8(data.mid(pos, newline - pos)).trimmed();
            pos = newline + 1;
        }
    }
    return chunk;
}

FioStreamChunk FioStreamBuffer::append(const QByteArray &bytes)
{
    m_pending += bytes;
    FioStreamChunk chunk = splitFioStream(m_pending);
    m_pending.remove(0, chunk.consumed);
    return chunk;
}

FioStreamChunk FioStreamBuffer::finish()
{
    FioStreamChunk chunk = append(QByteArray(1, '\n')); // a last line without its newline
    const QByteArray rest = m_pending.trimmed();
    if (!rest.isEmpty())
        chunk.errors << QStringLiteral("the stream ends inside an object (%1 bytes)").arg(rest.size());
    m_pending.clear();
    return chunk;
}

const FioGroupTotals *FioStatus::group(int groupId) const
{
    for (const FioGroupTotals &g : groups) {
        if (g.groupId == groupId)
            return &g;
    }
    return nullptr;
}

Result<FioStatus> parseFioStatus(const QJsonObject &object)
{
    FioStatus status;
    const QJsonValue jobs = object.value(QLatin1String("jobs"));
    if (!jobs.isArray())
        return Result<FioStatus>::failure(QStringLiteral("no \"jobs\" array in the fio status object"));
    status.timestampMs = object.value(QLatin1String("timestamp_ms")).toInteger();
    status.fioVersion = object.value(QLatin1String("fio version")).toString();
    for (const QJsonValue &value : jobs.toArray()) {
        const QJsonObject job = value.toObject();
        if (!job.contains(QLatin1String("read")) || !job.contains(QLatin1String("write")))
            return Result<FioStatus>::failure(QStringLiteral("a job without \"read\"/\"write\" totals"));
        const int groupId = job.value(QLatin1String("groupid")).toInt();
        qsizetype index = 0;
        while (index < status.groups.size() && status.groups.at(index).groupId != groupId)
            ++index;
        if (index == status.groups.size()) {
            FioGroupTotals g;
            g.groupId = groupId;
            g.name = job.value(QLatin1String("jobname")).toString();
            status.groups << g;
        }
        FioGroupTotals &g = status.groups[index];
        ++g.jobs;
        // How long the job has been doing I/O: each direction's "runtime" (ms, what fio divides by for its
        // own iops and bw). Not "job_runtime": with group_reporting fio sums it over the merged jobs
        // (4 jobs for 3 s: 12000), which made every rate numjobs times too low.
        qint64 ioMs = 0;
        for (const char *direction : { "read", "write", "trim" })
            ioMs = std::max(
                ioMs, job.value(QLatin1String(direction)).toObject().value(QLatin1String("runtime")).toInteger());
        if (ioMs <= 0)
            ioMs = job.value(QLatin1String("job_runtime")).toInteger();
        g.runtimeMs = std::max(g.runtimeMs, ioMs);
        g.errors += job.value(QLatin1String("error")).toInt() != 0;
        addDirection(g.read, job.value(QLatin1String("read")).toObject());
        addDirection(g.write, job.value(QLatin1String("write")).toObject());
        addDirection(g.trim, job.value(QLatin1String("trim")).toObject());
    }
    return status;
}

double histogramPercentile(const QMap<qint64, qint64> &bins, double percent)
{
    const qint64 total = binTotal(bins);
    if (total <= 0)
        return 0;
    const qint64 wanted = std::max<qint64>(1, qint64(std::ceil(double(total) * percent / 100.0)));
    qint64 seen = 0;
    for (auto it = bins.constBegin(); it != bins.constEnd(); ++it) {
        seen += it.value();
        if (seen >= wanted)
            return double(it.key());
    }
    return double(bins.lastKey());
}

QMap<qint64, qint64> histogramDifference(const QMap<qint64, qint64> &current, const QMap<qint64, qint64> &previous)
{
    QMap<qint64, qint64> difference;
    for (auto it = current.constBegin(); it != current.constEnd(); ++it) {
        const qint64 d = it.value() - previous.value(it.key());
        if (d > 0)
            difference.insert(it.key(), d);
    }
    return difference;
}

FioRates fioRatesBetween(const FioGroupTotals *previous, const FioGroupTotals &current)
{
    static const FioGroupTotals none;
    const FioGroupTotals &before = previous ? *previous : none;
    FioRates r;
    r.groupId = current.groupId;
    r.name = current.name;
    r.seconds = double(current.runtimeMs - before.runtimeMs) / 1000.0;
    const auto rate = [&](qint64 now, qint64 then) {
        return r.seconds > 0 ? double(std::max<qint64>(0, now - then)) / r.seconds : 0.0;
    };
    r.readIops = rate(current.read.ios, before.read.ios);
    r.writeIops = rate(current.write.ios, before.write.ios);
    r.trimIops = rate(current.trim.ios, before.trim.ios);
    r.readBytesPerSecond = rate(current.read.bytes, before.read.bytes);
    r.writeBytesPerSecond = rate(current.write.bytes, before.write.bytes);
    r.trimBytesPerSecond = rate(current.trim.bytes, before.trim.bytes);

    const auto readBins = histogramDifference(current.read.clatBins, before.read.clatBins);
    const auto writeBins = histogramDifference(current.write.clatBins, before.write.clatBins);
    const auto trimBins = histogramDifference(current.trim.clatBins, before.trim.clatBins);
    const bool haveHistogram
        = !current.read.clatBins.isEmpty() || !current.write.clatBins.isEmpty() || !current.trim.clatBins.isEmpty();
    r.readClat = latencyOf(readBins, haveHistogram, current.read.clatPercentiles, current.read.ios);
    r.writeClat = latencyOf(writeBins, haveHistogram, current.write.clatPercentiles, current.write.ios);
    QMap<qint64, qint64> all = readBins;
    for (const auto *bins : { &writeBins, &trimBins }) {
        for (auto it = bins->constBegin(); it != bins->constEnd(); ++it)
            all[it.key()] += it.value();
    }
    // Without histograms: the busier direction's cumulative percentiles stand for all.
    const FioDirectionTotals &busier = current.write.ios > current.read.ios ? current.write : current.read;
    r.clat = latencyOf(all, haveHistogram, busier.clatPercentiles, busier.ios);
    return r;
}

QList<FioRates> fioRatesBetween(const FioStatus *previous, const FioStatus &current)
{
    QList<FioRates> rates;
    for (const FioGroupTotals &g : current.groups)
        rates << fioRatesBetween(previous ? previous->group(g.groupId) : nullptr, g);
    return rates;
}

} // namespace dmtune
