#include "core/experiments/sweep.h"

#include "core/diagnosis/diagnosis.h"
#include "core/dm/grammar/pathselectors.h"
#include "core/params/changeset.h"
#include "core/util/inputfile.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace dmtune {

namespace {

QString shortName(const QString &attribute)
{
    return attribute.section(QLatin1Char('/'), -1);
}

// Mean and sample standard deviation of the numbers under each key; strings (a group's name) are kept from the
// first repeat.
void meanAndSpread(const QList<QJsonObject> &runs, QJsonObject *mean, QJsonObject *spread)
{
    if (runs.isEmpty())
        return;
    for (auto it = runs.first().begin(); it != runs.first().end(); ++it) {
        if (!it.value().isDouble()) {
            mean->insert(it.key(), it.value());
            continue;
        }
        double sum = 0;
        int n = 0;
        for (const QJsonObject &run : runs) {
            if (run.value(it.key()).isDouble()) {
                sum += run.value(it.key()).toDouble();
                ++n;
            }
        }
        const double m = sum / n;
        double squares = 0;
        for (const QJsonObject &run : runs) {
            if (run.value(it.key()).isDouble())
                squares += std::pow(run.value(it.key()).toDouble() - m, 2);
        }
        mean->insert(it.key(), std::round(m * 100) / 100);
        spread->insert(it.key(), n > 1 ? std::round(std::sqrt(squares / (n - 1)) * 100) / 100 : 0.0);
    }
}

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QJsonObject paramsOf(const SweepPoint &point)
{
    QJsonObject o;
    for (const SweepSetting &s : point.settings)
        o.insert(s.attribute, s.value);
    return o;
}

} // namespace

Result<SweepParameter> parseSweepParameter(const QString &text)
{
    using R = Result<SweepParameter>;
    const qsizetype eq = text.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return R::failure(QStringLiteral("'%1' is not ATTRIBUTE=V1,V2,...").arg(text));
    const QStringList values = text.mid(eq + 1).split(QLatin1Char(','));
    const QString name = text.left(eq).trimmed();
    SweepParameter parameter;
    if (name == QLatin1String(SweepSelectorAttribute) || name == QLatin1String("path_selector")) {
        // Not a sysfs attribute: a map's path selector, set by reloading its table (every group's).
        parameter.attribute = QString::fromLatin1(SweepSelectorAttribute);
    } else {
        // The attribute as `set` takes it (unknown, ambiguous and read-only names refused there).
        const auto assignment = parseAssignment(name + QLatin1Char('=') + values.first());
        if (!assignment)
            return R::failure(assignment.errorMessage());
        parameter.attribute = assignment->attribute;
    }
    for (const QString &raw : values) {
        const QString value = raw.trimmed();
        if (value.isEmpty())
            return R::failure(QStringLiteral("%1: an empty value in '%2'").arg(parameter.attribute, text));
        if (parameter.values.contains(value))
            return R::failure(QStringLiteral("%1: the value %2 is given twice").arg(parameter.attribute, value));
        if (parameter.attribute == QLatin1String(SweepSelectorAttribute)) {
            const QStringList words = value.split(QLatin1Char(':'));
            const PathSelectorInfo *info = findPathSelector(words.first());
            if (!info) {
                QStringList known;
                for (const PathSelectorInfo &k : knownPathSelectors())
                    known << k.name;
                return R::failure(QStringLiteral("selector: unknown path selector '%1' (%2)")
                                      .arg(words.first(), known.join(QLatin1String(", "))));
            }
            // NAME:ARG[:ARG]: each path's arguments, in the selector's order (service-time:1:4 is repeat_count 1,
            // relative throughput 4).
            const qsizetype args = words.size() - 1;
            // Numbers (io-affinity: a hex CPU mask) only: the words go into a table line.
            static const QRegularExpression word(QStringLiteral("^[0-9A-Fa-fx]+$"));
            const bool wordsOk = std::all_of(
                words.cbegin() + 1, words.cend(), [](const QString &w) { return word.match(w).hasMatch(); });
            if (args > info->tableArgsPerPath || !wordsOk)
                return R::failure(
                    QStringLiteral("selector: '%1': %2 takes at most %3 per-path number(s) as %2:%4")
                        .arg(value, info->name)
                        .arg(info->tableArgsPerPath)
                        .arg(info->tableArgsPerPath > 1 ? QStringLiteral("REPEAT:THROUGHPUT") : QStringLiteral("ARG")));
        }
        parameter.values.append(value);
    }
    return parameter;
}

SweepRequest sweepRequestFor(const ProposedSweep &proposed)
{
    SweepRequest request;
    request.device = proposed.device;
    request.withPaths = proposed.withPaths;
    QStringList values;
    for (const QString &text : proposed.values) {
        const QString v = text.section(QLatin1Char(' '), 0, 0); // "192 (now)", as sweepCommand() reads it
        if (!values.contains(v))
            values << v;
    }
    request.parameters = { SweepParameter { proposed.attribute, values } };
    if (const FioJob *job = fioTemplate(proposed.workload))
        request.workloads = { *job };
    return request;
}

Status validateSweepRequest(const SweepRequest &request)
{
    if (request.device.isEmpty())
        return Status::failure(QStringLiteral("sweep: no device"));
    if (request.parameters.isEmpty() || request.parameters.size() > MaxSweepParameters)
        return Status::failure(QStringLiteral("sweep: give one or two parameters (--param ATTR=V1,V2,...)"));
    qsizetype points = request.workloads.size();
    for (const SweepParameter &p : request.parameters) {
        if (p.attribute.isEmpty() || p.values.isEmpty())
            return Status::failure(QStringLiteral("sweep: a parameter without an attribute or values"));
        for (const SweepParameter &other : request.parameters) {
            if (&other != &p && other.attribute == p.attribute)
                return Status::failure(QStringLiteral("sweep: %1 is swept twice").arg(p.attribute));
        }
        points *= p.values.size();
    }
    if (request.workloads.isEmpty())
        return Status::failure(QStringLiteral("sweep: give a workload (a TEMPLATE or --job FILE)"));
    for (const FioJob &job : request.workloads) {
        if (!job.isCustom()) {
            if (const Status valid = validateFioJob(job); !valid)
                return Status::failure(QStringLiteral("sweep: %1: %2").arg(job.id, valid.errorMessage()));
        }
    }
    if (request.repeats < 1 || request.repeats > MaxSweepRepeats)
        return Status::failure(QStringLiteral("sweep: --repeat takes 1 to %1").arg(MaxSweepRepeats));
    if (points * request.repeats > MaxSweepRuns)
        return Status::failure(QStringLiteral("sweep: %1 points x %2 repeats is more than %3 runs")
                                   .arg(points)
                                   .arg(request.repeats)
                                   .arg(MaxSweepRuns));
    if (request.settleSeconds < 0 || request.settleSeconds > 600 || request.warmupSeconds < 0
        || request.warmupSeconds > 600)
        return Status::failure(QStringLiteral("sweep: --settle and --warmup take 0 to 600 seconds"));
    return Status::success();
}

QJsonObject sweepRequestToJson(const SweepRequest &request)
{
    QJsonArray params;
    for (const SweepParameter &p : request.parameters)
        params.append(QJsonObject { { QStringLiteral("attribute"), p.attribute },
            { QStringLiteral("values"), QJsonArray::fromStringList(p.values) } });
    QJsonArray workloads;
    for (const FioJob &job : request.workloads) {
        QJsonObject o = fioJobToJson(job);
        o.remove(QStringLiteral("checked_arguments")); // always checked again by the plan
        workloads.append(o);
    }
    return { { QStringLiteral("device"), request.device }, { QStringLiteral("with_paths"), request.withPaths },
        { QStringLiteral("params"), params }, { QStringLiteral("workloads"), workloads },
        { QStringLiteral("repeats"), request.repeats }, { QStringLiteral("warmup_s"), request.warmupSeconds },
        { QStringLiteral("settle_s"), request.settleSeconds }, { QStringLiteral("record_dir"), request.recordDir } };
}

Result<SweepRequest> sweepRequestFromJson(const QJsonObject &json)
{
    using R = Result<SweepRequest>;
    SweepRequest request;
    request.device = json.value(QLatin1String("device")).toString();
    request.withPaths = json.value(QLatin1String("with_paths")).toBool();
    for (const QJsonValue &v : json.value(QLatin1String("params")).toArray()) {
        SweepParameter p { v.toObject().value(QLatin1String("attribute")).toString(), {} };
        for (const QJsonValue &value : v.toObject().value(QLatin1String("values")).toArray()) {
            if (!value.isString())
                return R::failure(QStringLiteral("sweep: the values of %1 must be strings").arg(p.attribute));
            p.values.append(value.toString());
        }
        request.parameters.append(p);
    }
    for (const QJsonValue &v : json.value(QLatin1String("workloads")).toArray()) {
        // A job file is its path (checked by the plan, as workload.start checks it); a template, its fields.
        if (const QString file = v.toObject().value(QLatin1String("job_file")).toString(); !file.isEmpty()) {
            FioJob custom;
            custom.id = QStringLiteral("custom");
            custom.jobFile = file;
            custom.title = v.toObject().value(QLatin1String("title")).toString(file);
            request.workloads.append(custom);
            continue;
        }
        const auto job = fioJobFromJson(v.toObject());
        if (!job)
            return R::failure(QStringLiteral("sweep: workload: ") + job.errorMessage());
        request.workloads.append(job.value());
    }
    request.repeats = json.value(QLatin1String("repeats")).toInt(1);
    request.warmupSeconds = json.value(QLatin1String("warmup_s")).toInt(0);
    request.settleSeconds = json.value(QLatin1String("settle_s")).toInt(1);
    request.recordDir = json.value(QLatin1String("record_dir")).toString();
    if (const Status valid = validateSweepRequest(request); !valid)
        return R::failure(valid.errorMessage());
    return request;
}

QList<SweepPoint> sweepPoints(const SweepRequest &request)
{
    QList<QList<SweepSetting>> combinations { {} };
    for (const SweepParameter &p : request.parameters) {
        QList<QList<SweepSetting>> next;
        for (const QList<SweepSetting> &partial : std::as_const(combinations)) {
            for (const QString &value : p.values)
                next.append(partial + QList<SweepSetting> { { p.attribute, value } });
        }
        combinations = next;
    }
    QList<SweepPoint> points;
    for (const QList<SweepSetting> &settings : std::as_const(combinations)) {
        for (int w = 0; w < request.workloads.size(); ++w)
            points.append({ int(points.size()), settings, w });
    }
    return points;
}

QString sweepPointLabel(const SweepRequest &request, const SweepPoint &point)
{
    QStringList parts;
    for (const SweepSetting &s : point.settings)
        parts << shortName(s.attribute) + QLatin1Char('=') + s.value;
    const FioJob job = request.workloads.value(point.workload);
    parts << (job.isCustom() ? job.jobFile.section(QLatin1Char('/'), -1) : job.id);
    return parts.join(QLatin1Char(' '));
}

QString sweepRecordingName(const SweepPoint &point, int repeat)
{
    return QStringLiteral("point-%1-repeat-%2.dmrec").arg(point.index + 1, 2, 10, QLatin1Char('0')).arg(repeat);
}

QList<SweepPointResult> summarizeSweep(const QList<SweepPoint> &points, const QList<SweepMeasurement> &measurements)
{
    QList<SweepPointResult> results;
    for (const SweepPoint &point : points) {
        QList<QJsonObject> fio;
        QHash<QString, QList<QJsonObject>> devices;
        QStringList deviceOrder;
        SweepPointResult result;
        result.point = point;
        for (const SweepMeasurement &m : measurements) {
            if (m.point != point.index)
                continue;
            ++result.repeats;
            fio.append(m.fio);
            for (auto it = m.devices.begin(); it != m.devices.end(); ++it) {
                if (!deviceOrder.contains(it.key()))
                    deviceOrder.append(it.key());
                devices[it.key()].append(it.value().toObject());
            }
            if (!m.recording.isEmpty())
                result.recordings.append(m.recording);
        }
        if (result.repeats == 0)
            continue;
        meanAndSpread(fio, &result.fio, &result.fioSpread);
        for (const QString &name : std::as_const(deviceOrder)) {
            QJsonObject mean, spread;
            meanAndSpread(devices.value(name), &mean, &spread);
            result.devices.insert(name, mean);
            result.devicesSpread.insert(name, spread);
        }
        results.append(result);
    }
    return results;
}

QJsonObject sweepResultsToJson(const SweepRequest &request, const SweepOutcome &outcome)
{
    QJsonObject out = sweepRequestToJson(request);
    QJsonArray points;
    for (const SweepPointResult &r : outcome.results) {
        const FioJob job = request.workloads.value(r.point.workload);
        points.append(QJsonObject { { QStringLiteral("index"), r.point.index + 1 },
            { QStringLiteral("params"), paramsOf(r.point) },
            { QStringLiteral("workload"), job.isCustom() ? job.jobFile : job.id },
            { QStringLiteral("repeats"), r.repeats }, { QStringLiteral("fio"), r.fio },
            { QStringLiteral("fio_spread"), r.fioSpread }, { QStringLiteral("devices"), r.devices },
            { QStringLiteral("devices_spread"), r.devicesSpread },
            { QStringLiteral("recordings"), QJsonArray::fromStringList(r.recordings) } });
    }
    out.insert(QStringLiteral("points"), points);
    out.insert(QStringLiteral("restored"), QJsonArray::fromStringList(outcome.restored));
    out.insert(QStringLiteral("restore_errors"), QJsonArray::fromStringList(outcome.restoreErrors));
    out.insert(QStringLiteral("stopped"), outcome.stopped);
    out.insert(QStringLiteral("error"), outcome.status.errorMessage()); // "" when it finished or was stopped
    return out;
}

QString sweepResultsCsv(const SweepRequest &request, const QList<SweepPointResult> &results)
{
    QStringList header { QStringLiteral("point") };
    for (const SweepParameter &p : request.parameters)
        header << csvField(p.attribute);
    header << QStringLiteral("workload,source,metric,mean,spread,repeats");
    QString csv = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const SweepPointResult &r : results) {
        QStringList lead { QString::number(r.point.index + 1) };
        for (const SweepSetting &s : r.point.settings)
            lead << csvField(s.value);
        const FioJob job = request.workloads.value(r.point.workload);
        lead << csvField(job.isCustom() ? job.jobFile : job.id);
        const auto rows = [&](const QString &source, const QJsonObject &mean, const QJsonObject &spread) {
            for (auto it = mean.begin(); it != mean.end(); ++it) {
                if (!it.value().isDouble())
                    continue;
                csv += (lead
                           + QStringList { csvField(source), csvField(it.key()), QString::number(it.value().toDouble()),
                               QString::number(spread.value(it.key()).toDouble()), QString::number(r.repeats) })
                           .join(QLatin1Char(','))
                    + QLatin1Char('\n');
            }
        };
        rows(QStringLiteral("fio"), r.fio, r.fioSpread);
        for (auto it = r.devices.begin(); it != r.devices.end(); ++it)
            rows(it.key(), it.value().toObject(), r.devicesSpread.value(it.key()).toObject());
    }
    return csv;
}

QJsonObject sweepMeasurementToJson(const SweepMeasurement &measurement)
{
    return QJsonObject { { QStringLiteral("point"), measurement.point + 1 },
        { QStringLiteral("repeat"), measurement.repeat }, { QStringLiteral("fio"), measurement.fio },
        { QStringLiteral("devices"), measurement.devices }, { QStringLiteral("recording"), measurement.recording } };
}

SweepMeasurement sweepMeasurementFromJson(const QJsonObject &json)
{
    SweepMeasurement m;
    m.point = json.value(QLatin1String("point")).toInt() - 1;
    m.repeat = json.value(QLatin1String("repeat")).toInt();
    m.fio = json.value(QLatin1String("fio")).toObject();
    m.devices = json.value(QLatin1String("devices")).toObject();
    m.recording = json.value(QLatin1String("recording")).toString();
    return m;
}

QJsonObject sweepManifest(const SweepRequest &request, const QList<SweepMeasurement> &runs, const SweepOutcome &outcome)
{
    QJsonObject out = sweepResultsToJson(request, outcome);
    QJsonArray list;
    for (const SweepMeasurement &m : runs)
        list.append(sweepMeasurementToJson(m));
    out.insert(QStringLiteral("runs"), list);
    out.insert(QStringLiteral("format"), QStringLiteral("dmtune-sweep-1"));
    return out;
}

Result<SweepManifest> readSweepManifest(const QJsonObject &json)
{
    using R = Result<SweepManifest>;
    if (json.value(QLatin1String("format")).toString() != QLatin1String("dmtune-sweep-1"))
        return R::failure(QStringLiteral("not a dmtune sweep (no \"format\": \"dmtune-sweep-1\")"));
    auto request = sweepRequestFromJson(json);
    if (!request)
        return R::failure(request.errorMessage());
    SweepManifest manifest;
    manifest.request = request.value();
    const QList<SweepPoint> points = sweepPoints(manifest.request);
    for (const QJsonValue &v : json.value(QLatin1String("runs")).toArray()) {
        const SweepMeasurement m = sweepMeasurementFromJson(v.toObject());
        if (m.point < 0 || m.point >= points.size() || m.repeat < 1 || m.repeat > manifest.request.repeats)
            return R::failure(QStringLiteral("a run of point %1, repeat %2: the sweep has %3 point(s) x %4 repeat(s)")
                                  .arg(m.point + 1)
                                  .arg(m.repeat)
                                  .arg(points.size())
                                  .arg(manifest.request.repeats));
        manifest.runs.append(m);
    }
    manifest.outcome.results = summarizeSweep(points, manifest.runs);
    for (const QJsonValue &v : json.value(QLatin1String("restored")).toArray())
        manifest.outcome.restored.append(v.toString());
    for (const QJsonValue &v : json.value(QLatin1String("restore_errors")).toArray())
        manifest.outcome.restoreErrors.append(v.toString());
    manifest.outcome.stopped = json.value(QLatin1String("stopped")).toBool();
    if (const QString error = json.value(QLatin1String("error")).toString(); !error.isEmpty())
        manifest.outcome.status = Status::failure(error);
    return manifest;
}

// Far above a manifest of thousands of runs (a few hundred bytes each).
constexpr qint64 SweepManifestInputCap = qint64(64) << 20;

Result<SweepManifest> readSweepManifestFile(const QString &dir)
{
    const QString path = QDir(dir).filePath(QLatin1String(SweepManifestName));
    const auto bytes = readInputFile(path, SweepManifestInputCap, QStringLiteral("a sweep manifest"));
    if (!bytes)
        return Result<SweepManifest>::failure(QStringLiteral("cannot read ") + bytes.errorMessage());
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes.value(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return Result<SweepManifest>::failure(QStringLiteral("%1 is not JSON: %2").arg(path, error.errorString()));
    auto manifest = readSweepManifest(doc.object());
    if (!manifest)
        return Result<SweepManifest>::failure(QStringLiteral("%1: %2").arg(path, manifest.errorMessage()));
    return manifest;
}

} // namespace dmtune
