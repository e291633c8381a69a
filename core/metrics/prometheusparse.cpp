#include "core/metrics/prometheusparse.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <array>
#include <charconv>
#include <cmath>

using namespace Qt::StringLiterals;

namespace dmtune {

namespace {

constexpr std::array<PrometheusDiskSeries, 16> DiskSeries { {
    { "node_disk_reads_completed_total", DiskField::ReadIos, 1 },
    { "node_disk_reads_merged_total", DiskField::ReadMerges, 1 },
    { "node_disk_read_bytes_total", DiskField::ReadSectors, 1.0 / 512 },
    { "node_disk_read_time_seconds_total", DiskField::ReadTicks, 1000 },
    { "node_disk_writes_completed_total", DiskField::WriteIos, 1 },
    { "node_disk_writes_merged_total", DiskField::WriteMerges, 1 },
    { "node_disk_written_bytes_total", DiskField::WriteSectors, 1.0 / 512 },
    { "node_disk_write_time_seconds_total", DiskField::WriteTicks, 1000 },
    { "node_disk_io_time_seconds_total", DiskField::IoTicks, 1000 },
    { "node_disk_io_time_weighted_seconds_total", DiskField::TimeInQueue, 1000 },
    { "node_disk_discards_completed_total", DiskField::DiscardIos, 1 },
    { "node_disk_discards_merged_total", DiskField::DiscardMerges, 1 },
    { "node_disk_discarded_sectors_total", DiskField::DiscardSectors, 1 }, // sectors, not bytes
    { "node_disk_discard_time_seconds_total", DiskField::DiscardTicks, 1000 },
    { "node_disk_flush_requests_total", DiskField::FlushIos, 1 },
    { "node_disk_flush_requests_time_seconds_total", DiskField::FlushTicks, 1000 },
} };
const auto IoNowSeries = "node_disk_io_now"_L1; // a gauge: DiskField::InFlight

// One series of the answer: its labels and newest sample.
struct Series {
    QString name;
    QJsonObject labels;
    qint64 newestMs = 0;
    QString newestValue;
};

QString utcTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QString seriesText(const Series &s)
{
    return u"%1{device=\"%2\"}"_s.arg(s.name, s.labels.value("device"_L1).toString());
}

// The "data" member of a success answer, or why there is none.
Result<QJsonValue> answerData(const QByteArray &json)
{
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return Result<QJsonValue>::failure(
            u"Prometheus answer is not valid JSON (%1 at byte %2 of %3)"_s.arg(error.errorString())
                .arg(error.offset)
                .arg(json.size()));
    if (!doc.isObject())
        return Result<QJsonValue>::failure(u"Prometheus answer is not a JSON object"_s);
    const QString status = doc.object().value("status"_L1).toString();
    if (status == "error"_L1)
        return Result<QJsonValue>::failure(prometheusErrorMessage(json));
    if (status != "success"_L1)
        return Result<QJsonValue>::failure(u"Prometheus answer has no \"status\":\"success\""_s);
    return doc.object().value("data"_L1);
}

Result<QJsonArray> resultOfType(const QByteArray &json, QLatin1StringView wantedType)
{
    const Result<QJsonValue> data = answerData(json);
    if (!data)
        return Result<QJsonArray>::failure(data.errorMessage());
    const QString type = data->toObject().value("resultType"_L1).toString();
    if (type != wantedType)
        return Result<QJsonArray>::failure(u"Prometheus answered a %1 where a %2 was expected"_s.arg(
            type.isEmpty() ? u"answer without resultType"_s : type, wantedType));
    return data->toObject().value("result"_L1).toArray();
}

// The newest [timestamp, "value"] pair of a matrix series; false when it has none.
bool newestSample(const QJsonArray &values, qint64 notAfterMs, Series *out)
{
    QJsonValue newest; // made a string once, not every older sample (a fleet fetch: 900 series x 4 samples)
    for (const QJsonValue &v : values) {
        const QJsonArray pair = v.toArray();
        if (pair.size() != 2 || !pair.at(0).isDouble() || !pair.at(1).isString())
            continue;
        const qint64 ms = std::llround(pair.at(0).toDouble() * 1000);
        if (ms > notAfterMs)
            continue;
        if (newest.isUndefined() || ms >= out->newestMs) {
            out->newestMs = ms;
            newest = pair.at(1);
        }
    }
    if (newest.isUndefined())
        return false;
    out->newestValue = newest.toString();
    return true;
}

// A sample's value as Prometheus writes it (Go's strconv 'g' format), by std::from_chars on its ASCII:
// QString::toDouble was 14 % of a fleet fetch's parse (bench_fleet). False where it is no number ("+Inf" too,
// which counterValue refuses either way).
bool sampleValue(const QString &text, double *value)
{
    std::array<char, 64> ascii {};
    if (text.isEmpty() || text.size() > qsizetype(ascii.size()))
        return false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i].unicode() > 0x7f)
            return false;
        ascii[std::size_t(i)] = char(text[i].unicode());
    }
    const char *end = ascii.data() + text.size();
    const std::from_chars_result parsed = std::from_chars(ascii.data(), end, *value);
    return parsed.ec == std::errc() && parsed.ptr == end;
}

// A counter (or io_now) value: finite, non-negative, fits 64 bits after scaling.
Result<quint64> counterValue(const Series &s, double scale, const QString &instance)
{
    double raw = 0;
    if (!sampleValue(s.newestValue, &raw) || !std::isfinite(raw) || raw < 0 || raw * scale >= 1.8e19)
        return Result<quint64>::failure(u"%1 of instance %2 reads %3 at %4: not a counter value"_s.arg(
            seriesText(s), instance, s.newestValue, utcTime(s.newestMs)));
    return quint64(std::llround(raw * scale));
}

struct DeviceBuild {
    DiskCounters counters;
    std::array<bool, DiskFieldCount> present {};
    qint64 laggingMs = -1; // the newest sample of a lagging series, -1 when none lags
};

bool allPresent(const DeviceBuild &d, DiskField first, DiskField last)
{
    for (auto f = std::size_t(first); f <= std::size_t(last); ++f) {
        if (!d.present[f])
            return false;
    }
    return true;
}

// node_dmmultipath_device_info and _path_state (node_exporter 1.12's dmmultipath collector: device is the
// map's name, sysfs_name its dm-N, path a path's kernel name) into the frame's names and paths.
void addDmMultipath(const QList<Series> &info, const QList<Series> &pathStates, PrometheusDiskFrame *out)
{
    QHash<QString, QString> kernelNameOf; // map name -> dm-N
    for (const Series &s : info) {
        const QString map = s.labels.value("device"_L1).toString();
        const QString dm = s.labels.value("sysfs_name"_L1).toString();
        if (map.isEmpty() || dm.isEmpty())
            continue;
        kernelNameOf.insert(map, dm);
        if (!out->frame.dmNames.contains(dm))
            out->frame.dmNames.insert(dm, map);
    }
    QStringList unresolved;
    for (const Series &s : pathStates) {
        const QString map = s.labels.value("device"_L1).toString();
        const QString path = s.labels.value("path"_L1).toString();
        if (map.isEmpty() || path.isEmpty())
            continue;
        QString dm = kernelNameOf.value(map);
        if (dm.isEmpty())
            dm = out->frame.dmNames.key(map);
        if (dm.isEmpty()) {
            if (!unresolved.contains(map))
                unresolved.append(map);
            continue;
        }
        QStringList &paths = out->frame.pathsOf[dm];
        if (!paths.contains(path))
            paths.append(path);
    }
    for (const QString &map : unresolved)
        out->notes.append(
            u"map %1's paths are left out: no dm-N name is known for it "
            "(neither node_dmmultipath_device_info nor node_disk_device_mapper_info names it)"_s.arg(map));
}

} // namespace

std::span<const PrometheusDiskSeries> prometheusDiskSeries()
{
    return DiskSeries;
}

QString prometheusErrorMessage(const QByteArray &json)
{
    const QJsonObject answer = QJsonDocument::fromJson(json).object();
    if (answer.value("status"_L1).toString() != "error"_L1)
        return {};
    QString text = answer.value("error"_L1).toString().simplified(); // one line whatever the server sent
    if (text.isEmpty())
        text = u"no error text"_s;
    const QString type = answer.value("errorType"_L1).toString();
    return type.isEmpty() ? u"Prometheus error: %1"_s.arg(text) : u"Prometheus error (%1): %2"_s.arg(type, text);
}

Result<PrometheusDiskFrame> parsePrometheusDiskFrame(const QByteArray &json, const QString &instance, qint64 notAfterMs)
{
    using R = Result<PrometheusDiskFrame>;
    const Result<QJsonArray> result = resultOfType(json, "matrix"_L1);
    if (!result)
        return R::failure(result.errorMessage());

    PrometheusDiskFrame out;
    QHash<QString, int> fieldOf; // series name -> index into DiskSeries
    for (std::size_t i = 0; i < DiskSeries.size(); ++i)
        fieldOf.insert(QLatin1String(DiskSeries[i].name), int(i));

    QList<Series> counters, diskInfo, mapperInfo, mpathInfo, mpathPaths;
    QSet<QString> otherInstances;
    for (const QJsonValue &entry : *result) {
        Series s;
        s.labels = entry.toObject().value("metric"_L1).toObject();
        s.name = s.labels.value("__name__"_L1).toString();
        const QString seriesInstance = s.labels.value("instance"_L1).toString();
        if (seriesInstance != instance) {
            otherInstances.insert(seriesInstance);
            continue;
        }
        if (s.name.startsWith("node_dmmultipath_"_L1))
            out.hasDmMultipath = true;
        if (!newestSample(entry.toObject().value("values"_L1).toArray(), notAfterMs, &s))
            continue;
        if (fieldOf.contains(s.name) || s.name == IoNowSeries)
            counters.append(s);
        else if (s.name == "node_disk_info"_L1)
            diskInfo.append(s);
        else if (s.name == "node_disk_device_mapper_info"_L1)
            mapperInfo.append(s);
        else if (s.name == "node_dmmultipath_device_info"_L1)
            mpathInfo.append(s);
        else if (s.name == "node_dmmultipath_path_state"_L1)
            mpathPaths.append(s);
    }
    if (counters.isEmpty()) {
        QStringList others(otherInstances.begin(), otherInstances.end());
        others.sort();
        return R::failure(others.isEmpty() ? u"no node_disk_* counters of instance %1 in the answer"_s.arg(instance)
                                           : u"no node_disk_* counters of instance %1 in the answer (it has %2)"_s.arg(
                                               instance, others.join(", "_L1)));
    }

    // The newest scrape: every series of one scrape carries its timestamp, so a series whose newest sample is
    // older than it lags (its device went away, or the exporter no longer exports it).
    qint64 scrapeMs = 0;
    for (const Series &s : std::as_const(counters))
        scrapeMs = std::max(scrapeMs, s.newestMs);
    out.frame.timeNs = scrapeMs * 1'000'000;

    QList<DeviceBuild> devices;
    QHash<QString, qsizetype> indexOf;
    for (const Series &s : std::as_const(counters)) {
        const QString device = s.labels.value("device"_L1).toString();
        if (device.isEmpty())
            continue;
        qsizetype at = indexOf.value(device, -1);
        if (at < 0) {
            at = devices.size();
            indexOf.insert(device, at);
            devices.append(DeviceBuild {});
            devices.last().counters.name = device;
        }
        DeviceBuild &d = devices[at];
        if (s.newestMs < scrapeMs) {
            d.laggingMs = std::max(d.laggingMs, s.newestMs);
            continue;
        }
        // io_now is a gauge, read as it is
        const PrometheusDiskSeries mapping = s.name == IoNowSeries
            ? PrometheusDiskSeries { "node_disk_io_now", DiskField::InFlight, 1 }
            : DiskSeries[std::size_t(fieldOf.value(s.name))];
        const DiskField field = mapping.field;
        const Result<quint64> value = counterValue(s, mapping.scale, instance);
        if (!value)
            return R::failure(value.errorMessage());
        d.counters[field] = *value;
        d.present[std::size_t(field)] = true;
    }

    QHash<QString, quint64> devnumOf;
    for (const Series &s : std::as_const(diskInfo)) {
        bool majorOk = false, minorOk = false;
        const uint major = s.labels.value("major"_L1).toString().toUInt(&majorOk);
        const uint minor = s.labels.value("minor"_L1).toString().toUInt(&minorOk);
        if (s.newestMs == scrapeMs && majorOk && minorOk)
            devnumOf.insert(s.labels.value("device"_L1).toString(), DiskCounters::makeDevnum(major, minor));
    }

    out.frame.devices.reserve(devices.size()); // no growth slack: a fleet keeps a frame per host
    for (DeviceBuild &d : devices) {
        const QString &name = d.counters.name;
        if (d.laggingMs >= 0) {
            out.notes.append(
                u"%1 is left out: some of its series end at %2, before the newest scrape at %3 "
                "(the device is gone or no longer exported)"_s.arg(name, utcTime(d.laggingMs), utcTime(scrapeMs)));
            continue;
        }
        if (!allPresent(d, DiskField::ReadIos, DiskField::TimeInQueue)) {
            out.notes.append(u"%1 is left out: it lacks some of the 11 basic node_disk_* series"_s.arg(name));
            continue;
        }
        d.counters.fieldCount = 11;
        if (allPresent(d, DiskField::DiscardIos, DiskField::DiscardTicks)) {
            d.counters.fieldCount = 15;
            if (allPresent(d, DiskField::FlushIos, DiskField::FlushTicks))
                d.counters.fieldCount = 17;
        }
        d.counters.devnum = devnumOf.value(name);
        // node_exporter has only io_now: the reads/writes split is known when nothing is in flight.
        if (d.counters[DiskField::InFlight] == 0)
            out.frame.inflight.insert(name, { 0, 0 });
        // The frame has a field when every device of it has the field's series.
        for (std::size_t f = 0; f < DiskFieldCount; ++f)
            out.frame.hasField[f] = (out.frame.devices.isEmpty() || out.frame.hasField[f]) && d.present[f];
        out.frame.devices.append(d.counters);
    }

    for (const Series &s : std::as_const(mapperInfo)) {
        const QString dm = s.labels.value("device"_L1).toString();
        const QString map = s.labels.value("name"_L1).toString();
        if (s.newestMs == scrapeMs && !dm.isEmpty() && !map.isEmpty())
            out.frame.dmNames.insert(dm, map);
    }
    // Only the newest scrape's: a path's older state series (before a state change) has ended.
    const auto current = [scrapeMs](const QList<Series> &all) {
        QList<Series> now;
        for (const Series &s : all) {
            if (s.newestMs == scrapeMs)
                now.append(s);
        }
        return now;
    };
    addDmMultipath(current(mpathInfo), current(mpathPaths), &out);
    return out;
}

Result<QList<PrometheusTarget>> parsePrometheusTargets(const QByteArray &json)
{
    const Result<QJsonValue> data = answerData(json);
    if (!data)
        return Result<QList<PrometheusTarget>>::failure(data.errorMessage());
    const QJsonValue active = data->toObject().value("activeTargets"_L1);
    if (!active.isArray())
        return Result<QList<PrometheusTarget>>::failure(u"Prometheus targets answer has no activeTargets"_s);
    QList<PrometheusTarget> targets;
    for (const QJsonValue &v : active.toArray()) {
        const QJsonObject t = v.toObject();
        const QJsonObject labels = t.value("labels"_L1).toObject();
        PrometheusTarget target;
        target.instance = labels.value("instance"_L1).toString();
        target.job = labels.value("job"_L1).toString();
        target.health = t.value("health"_L1).toString();
        target.scrapeUrl = t.value("scrapeUrl"_L1).toString();
        target.lastError = t.value("lastError"_L1).toString();
        target.scrapeIntervalSeconds = parsePrometheusDuration(t.value("scrapeInterval"_L1).toString());
        if (!target.instance.isEmpty())
            targets.append(target);
    }
    return targets;
}

Result<QStringList> parsePrometheusVectorInstances(const QByteArray &json)
{
    const Result<QJsonArray> result = resultOfType(json, "vector"_L1);
    if (!result)
        return Result<QStringList>::failure(result.errorMessage());
    QStringList instances;
    for (const QJsonValue &v : *result) {
        const QString instance = v.toObject().value("metric"_L1).toObject().value("instance"_L1).toString();
        if (!instance.isEmpty() && !instances.contains(instance))
            instances.append(instance);
    }
    instances.sort();
    return instances;
}

Result<QStringList> parsePrometheusLabelValues(const QByteArray &json)
{
    const Result<QJsonValue> data = answerData(json);
    if (!data)
        return Result<QStringList>::failure(data.errorMessage());
    if (!data->isArray())
        return Result<QStringList>::failure(u"Prometheus label values answer is not a list"_s);
    QStringList values;
    for (const QJsonValue &v : data->toArray()) {
        if (v.isString())
            values.append(v.toString());
    }
    return values;
}

double parsePrometheusDuration(const QString &text)
{
    // Prometheus' model.Duration: [0-9]+ followed by y, w, d, h, m, s or ms, largest unit first.
    double seconds = 0;
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype digits = i;
        while (i < text.size() && text.at(i).isDigit())
            ++i;
        if (i == digits)
            return 0;
        const double number = QStringView(text).mid(digits, i - digits).toDouble();
        double unit = 0;
        if (QStringView(text).mid(i).startsWith(u"ms")) {
            unit = 0.001;
            i += 2;
        } else if (i < text.size()) {
            switch (text.at(i).unicode()) {
            case u'y':
                unit = 365 * 86400.0;
                break;
            case u'w':
                unit = 7 * 86400.0;
                break;
            case u'd':
                unit = 86400;
                break;
            case u'h':
                unit = 3600;
                break;
            case u'm':
                unit = 60;
                break;
            case u's':
                unit = 1;
                break;
            default:
                return 0;
            }
            ++i;
        } else {
            return 0;
        }
        seconds += number * unit;
    }
    return seconds;
}

} // namespace dmtune
