#include "core/presets/presetjson.h"

#include "core/discovery/blockdevice.h"
#include "core/dm/grammar/pathselectors.h"
#include "core/params/catalog.h"
#include "core/params/valueparsers.h"
#include "core/util/inputfile.h"
#include "core/util/printable.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace dmtune {

namespace {

// Where a problem is: "field \"name\"" or "rule 2, field \"match.wwid\"" (rules count from 1).
struct Where {
    int rule = -1; // 0-based; -1 for the top level
    QString field;
    QString text() const
    {
        const QString f = QStringLiteral("field \"%1\"").arg(field);
        return rule < 0 ? f : QStringLiteral("rule %1, %2").arg(rule + 1).arg(f);
    }
};

// The readers below nest four deep; the first problem unwinds them all at once and parsePreset()
// turns it into the Result's message. No exception leaves this file.
struct LoadError {
    QString message;
};

[[noreturn]] void raise(const Where &where, const QString &what)
{
    throw LoadError { where.text() + QStringLiteral(": ") + what };
}

Where at(const Where &base, const QString &field)
{
    return { base.rule, base.field.isEmpty() ? field : base.field + QLatin1Char('.') + field };
}

QString jsonTypeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

void checkKeys(const QJsonObject &o, const Where &where, std::initializer_list<const char *> allowed)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        bool known = false;
        for (const char *a : allowed)
            known = known || it.key() == QLatin1String(a);
        if (!known) {
            QStringList names;
            for (const char *a : allowed)
                names << QString::fromLatin1(a);
            raise(
                at(where, it.key()), QStringLiteral("unknown field (known: %1)").arg(names.join(QStringLiteral(", "))));
        }
    }
}

QString optionalString(const QJsonObject &o, const char *key, const Where &where)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined())
        return {};
    if (!v.isString())
        raise(at(where, QString::fromLatin1(key)), QStringLiteral("expected a string, got %1").arg(jsonTypeName(v)));
    return v.toString();
}

QString glob(const QJsonObject &o, const char *key, const Where &where)
{
    const QString g = optionalString(o, key, where);
    if (!g.isNull() && g.trimmed().isEmpty())
        raise(at(where, QString::fromLatin1(key)), QStringLiteral("empty pattern"));
    if (!g.isEmpty() && !QRegularExpression(QRegularExpression::wildcardToRegularExpression(g)).isValid())
        raise(at(where, QString::fromLatin1(key)), QStringLiteral("bad glob '%1'").arg(g));
    return g;
}

QStringList knownKinds()
{
    QStringList kinds;
    for (int k = 0; k <= int(DeviceKind::Other); ++k)
        kinds << deviceKindName(DeviceKind(k));
    return kinds;
}

PresetMatch readMatch(const QJsonValue &value, const Where &where, bool allowPathsOf)
{
    if (!value.isObject())
        raise(where, QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
    const QJsonObject o = value.toObject();
    checkKeys(o, where, { "wwid", "dmUuid", "vendor", "model", "kind", "name", "nqn", "pathsOf" });
    PresetMatch m;
    m.wwid = glob(o, "wwid", where);
    m.dmUuid = glob(o, "dmUuid", where);
    m.vendor = glob(o, "vendor", where);
    m.model = glob(o, "model", where);
    m.name = glob(o, "name", where);
    m.nqn = glob(o, "nqn", where);
    const QJsonValue kind = o.value(QLatin1String("kind"));
    const Where kindWhere = at(where, QStringLiteral("kind"));
    if (kind.isString()) {
        m.kinds << kind.toString();
    } else if (kind.isArray()) {
        for (const auto &k : kind.toArray()) {
            if (!k.isString())
                raise(kindWhere, QStringLiteral("expected strings, got %1").arg(jsonTypeName(k)));
            m.kinds << k.toString();
        }
    } else if (!kind.isUndefined()) {
        raise(kindWhere, QStringLiteral("expected a string or an array of strings, got %1").arg(jsonTypeName(kind)));
    }
    const QStringList kinds = knownKinds();
    for (const auto &k : std::as_const(m.kinds)) {
        if (!kinds.contains(k))
            raise(kindWhere,
                QStringLiteral("unknown device kind '%1' (known: %2)").arg(k, kinds.join(QStringLiteral(", "))));
    }
    const QJsonValue paths = o.value(QLatin1String("pathsOf"));
    if (!paths.isUndefined()) {
        const Where pathsWhere = at(where, QStringLiteral("pathsOf"));
        if (!allowPathsOf)
            raise(pathsWhere, QStringLiteral("pathsOf cannot be nested"));
        m.pathsOf = std::make_shared<PresetMatch>(readMatch(paths, pathsWhere, false));
    }
    if (m.isEmpty())
        raise(where,
            QStringLiteral(
                "empty match (it would match every device); give wwid, dmUuid, vendor, model, kind, name, nqn or "
                "pathsOf"));
    return m;
}

// A JSON value as the text of a tunable: integers, booleans (for boolean tunables) and strings.
QString valueText(const TunableDef &def, const QJsonValue &v, const Where &where)
{
    switch (v.type()) {
    case QJsonValue::String:
        return v.toString();
    case QJsonValue::Double: {
        const double d = v.toDouble();
        const qint64 i = v.toInteger();
        if (double(i) != d)
            raise(where, QStringLiteral("expected an integer, got %1").arg(d));
        return QString::number(i);
    }
    case QJsonValue::Bool:
        if (def.type != TunableType::Bool)
            raise(where, QStringLiteral("expected %1, got a boolean").arg(tunableTypeName(def.type)));
        return v.toBool() ? QStringLiteral("1") : QStringLiteral("0");
    default:
        break;
    }
    raise(where, QStringLiteral("expected a number or a string, got %1").arg(jsonTypeName(v)));
}

QList<Assignment> readSettings(const QJsonValue &value, const Where &where)
{
    if (!value.isObject())
        raise(where, QStringLiteral("expected an object (attribute -> value), got %1").arg(jsonTypeName(value)));
    static const QRegularExpression schedulerName(QStringLiteral("^[a-z0-9_-]+$"));
    QList<Assignment> out;
    const QJsonObject o = value.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const Where w = at(where, it.key());
        // The key or any last part of it that names one attribute alone ("nr_requests", "queue_depth").
        const auto key = catalog::resolve(it.key());
        if (!key)
            raise(w, key.errorMessage() + QStringLiteral(" (see dmtunectl get DEV)"));
        const TunableDef *def = catalog::find(key.value());
        if (def->ignored)
            raise(w, QStringLiteral("ignored by current kernels: %1").arg(def->ignoredNote));
        const QString text = valueText(*def, it.value(), w);
        if (def->limit == DynamicLimit::SchedulerList) {
            if (!schedulerName.match(text.trimmed()).hasMatch())
                raise(w, QStringLiteral("'%1' is not a scheduler name").arg(text));
            out << Assignment { def->attribute, text.trimmed() };
            continue;
        }
        const auto checked = checkValue(*def, staticLimits(*def), text);
        if (!checked)
            raise(w, checked.errorMessage());
        out << Assignment { def->attribute, *checked };
    }
    return out;
}

MultipathSettings readMultipath(const QJsonValue &value, const Where &where)
{
    if (!value.isObject())
        raise(where, QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
    const QJsonObject o = value.toObject();
    checkKeys(o, where, { "selector", "grouping", "features" });
    MultipathSettings s;
    s.selector = optionalString(o, "selector", where).simplified();
    if (!s.selector.isEmpty()) {
        const QStringList words = s.selector.split(QLatin1Char(' '));
        if (!findPathSelector(words.first()))
            raise(
                at(where, QStringLiteral("selector")), QStringLiteral("unknown path selector '%1'").arg(words.first()));
        for (const auto &w : words.mid(1)) {
            if (!parseInteger(w))
                raise(at(where, QStringLiteral("selector")),
                    QStringLiteral("selector argument '%1' is not a number").arg(w));
        }
        // As in multipath.conf and the table: name, argument count, arguments ("service-time 0").
        if (words.size() == 1)
            s.selector += QStringLiteral(" 0");
        else if (*parseInteger(words[1]) != words.size() - 2)
            raise(at(where, QStringLiteral("selector")),
                QStringLiteral("'%1' says %2 arguments and has %3").arg(s.selector, words[1]).arg(words.size() - 2));
    }
    s.grouping = optionalString(o, "grouping", where);
    if (!s.grouping.isNull() && !multipathGroupingPolicies().contains(s.grouping))
        raise(at(where, QStringLiteral("grouping")),
            QStringLiteral("'%1' is not one of: %2")
                .arg(s.grouping, multipathGroupingPolicies().join(QStringLiteral(", "))));
    const QJsonValue features = o.value(QLatin1String("features"));
    const Where fw = at(where, QStringLiteral("features"));
    if (features.isString()) {
        s.features = features.toString().simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    } else if (features.isArray()) {
        for (const auto &f : features.toArray()) {
            if (!f.isString())
                raise(fw, QStringLiteral("expected strings, got %1").arg(jsonTypeName(f)));
            s.features << f.toString().simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        }
    } else if (!features.isUndefined()) {
        raise(fw, QStringLiteral("expected a string or an array of strings, got %1").arg(jsonTypeName(features)));
    }
    static const QStringList knownFeatures { QStringLiteral("queue_if_no_path"), QStringLiteral("no_partitions"),
        QStringLiteral("retain_attached_hw_handler"), QStringLiteral("pg_init_retries"),
        QStringLiteral("pg_init_delay_msecs"), QStringLiteral("queue_mode") };
    for (const auto &f : std::as_const(s.features)) {
        if (!knownFeatures.contains(f) && !parseInteger(f) && f != QLatin1String("bio") && f != QLatin1String("rq")
            && f != QLatin1String("mq"))
            raise(fw, QStringLiteral("unknown feature '%1'").arg(f));
    }
    if (s.isEmpty())
        raise(where, QStringLiteral("empty (give selector, grouping or features)"));
    return s;
}

PresetRule readRule(const QJsonValue &value, int index)
{
    const Where where { index, {} };
    if (!value.isObject())
        raise(
            { index, QStringLiteral("rules") }, QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
    const QJsonObject o = value.toObject();
    checkKeys(o, where, { "comment", "match", "settings", "multipath" });
    PresetRule r;
    r.comment = optionalString(o, "comment", where);
    if (!o.contains(QLatin1String("match")))
        raise(at(where, QStringLiteral("match")), QStringLiteral("missing"));
    r.match = readMatch(o.value(QLatin1String("match")), at(where, QStringLiteral("match")), true);
    if (o.contains(QLatin1String("settings")))
        r.settings = readSettings(o.value(QLatin1String("settings")), at(where, QStringLiteral("settings")));
    if (o.contains(QLatin1String("multipath")))
        r.multipath = readMultipath(o.value(QLatin1String("multipath")), at(where, QStringLiteral("multipath")));
    if (r.settings.isEmpty() && r.multipath.isEmpty())
        raise(at(where, QStringLiteral("settings")), QStringLiteral("a rule needs settings or multipath settings"));
    return r;
}

Preset readPreset(const QJsonObject &o)
{
    const Where top;
    const QJsonValue schema = o.value(QLatin1String("schema"));
    const Where sw { -1, QStringLiteral("schema") };
    if (schema.isUndefined())
        raise(sw, QStringLiteral("missing (this dmtune writes schema %1)").arg(presetSchemaVersion));
    if (!schema.isDouble() || double(schema.toInteger()) != schema.toDouble())
        raise(sw, QStringLiteral("expected an integer, got %1").arg(jsonTypeName(schema)));
    const qint64 version = schema.toInteger();
    if (version > presetSchemaVersion)
        raise(sw,
            QStringLiteral("schema %1 is newer than this dmtune reads (%2); update dmtune")
                .arg(version)
                .arg(presetSchemaVersion));
    if (version < 1)
        raise(sw, QStringLiteral("schema %1 does not exist").arg(version));
    checkKeys(o, top, { "schema", "name", "description", "reasoning", "created", "rules" });
    Preset p;
    p.schema = int(version);
    p.name = optionalString(o, "name", top).trimmed();
    if (p.name.isEmpty())
        raise({ -1, QStringLiteral("name") }, QStringLiteral("missing or empty"));
    // The name heads output lines ("preset NAME: 8 settings checked"): a newline in it would forge a line.
    if (printable(p.name) != p.name)
        raise({ -1, QStringLiteral("name") },
            QStringLiteral("'%1' is not one line of printable text").arg(printable(p.name)));
    p.description = optionalString(o, "description", top);
    p.reasoning = optionalString(o, "reasoning", top);
    const QJsonValue created = o.value(QLatin1String("created"));
    if (!created.isUndefined()) {
        const Where cw { -1, QStringLiteral("created") };
        if (!created.isObject())
            raise(cw, QStringLiteral("expected an object, got %1").arg(jsonTypeName(created)));
        const QJsonObject c = created.toObject();
        checkKeys(c, cw, { "host", "kernel", "at" });
        p.host = optionalString(c, "host", cw);
        p.kernel = optionalString(c, "kernel", cw);
        const QString atText = optionalString(c, "at", cw);
        if (!atText.isEmpty()) {
            p.created = QDateTime::fromString(atText, Qt::ISODate);
            if (!p.created.isValid())
                raise(at(cw, QStringLiteral("at")), QStringLiteral("'%1' is not an ISO 8601 date").arg(atText));
        }
    }
    const QJsonValue rules = o.value(QLatin1String("rules"));
    const Where rw { -1, QStringLiteral("rules") };
    if (!rules.isArray())
        raise(rw,
            rules.isUndefined() ? QStringLiteral("missing")
                                : QStringLiteral("expected an array, got %1").arg(jsonTypeName(rules)));
    const QJsonArray array = rules.toArray();
    if (array.isEmpty())
        raise(rw, QStringLiteral("no rules"));
    for (int i = 0; i < array.size(); ++i)
        p.rules << readRule(array.at(i), i);
    return p;
}

QJsonObject matchToJson(const PresetMatch &m)
{
    QJsonObject o;
    const auto put = [&o](const char *key, const QString &v) {
        if (!v.isEmpty())
            o.insert(QLatin1String(key), v);
    };
    put("wwid", m.wwid);
    put("dmUuid", m.dmUuid);
    put("vendor", m.vendor);
    put("model", m.model);
    if (m.kinds.size() == 1)
        o.insert(QLatin1String("kind"), m.kinds.first());
    else if (!m.kinds.isEmpty())
        o.insert(QLatin1String("kind"), QJsonArray::fromStringList(m.kinds));
    put("name", m.name);
    put("nqn", m.nqn);
    if (m.pathsOf)
        o.insert(QLatin1String("pathsOf"), matchToJson(*m.pathsOf));
    return o;
}

// Integers as JSON numbers (what a person writes), everything else as text.
QJsonValue settingValue(const QString &attribute, const QString &value)
{
    const TunableDef *def = catalog::find(attribute);
    const auto i = parseInteger(value);
    if (def && def->type == TunableType::Int && i && qAbs(*i) < (qint64(1) << 53))
        return QJsonValue(*i);
    return value;
}

} // namespace

Result<Preset> parsePreset(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return Result<Preset>::failure(
            QStringLiteral("malformed JSON at offset %1: %2").arg(error.offset).arg(error.errorString()));
    if (!doc.isObject())
        return Result<Preset>::failure(QStringLiteral("malformed preset: the document is not a JSON object"));
    try {
        return readPreset(doc.object());
    } catch (const LoadError &e) {
        return Result<Preset>::failure(e.message);
    }
}

QJsonObject presetToJsonObject(const Preset &p)
{
    QJsonObject o;
    o.insert(QLatin1String("schema"), p.schema);
    o.insert(QLatin1String("name"), p.name);
    if (!p.description.isEmpty())
        o.insert(QLatin1String("description"), p.description);
    if (!p.reasoning.isEmpty())
        o.insert(QLatin1String("reasoning"), p.reasoning);
    QJsonObject created;
    if (!p.host.isEmpty())
        created.insert(QLatin1String("host"), p.host);
    if (!p.kernel.isEmpty())
        created.insert(QLatin1String("kernel"), p.kernel);
    if (p.created.isValid())
        created.insert(QLatin1String("at"), // milliseconds only when there are some (found by fuzz_presetjson)
            p.created.toString(p.created.time().msec() ? Qt::ISODateWithMs : Qt::ISODate));
    if (!created.isEmpty())
        o.insert(QLatin1String("created"), created);
    QJsonArray rules;
    for (const auto &r : p.rules) {
        QJsonObject ro;
        if (!r.comment.isEmpty())
            ro.insert(QLatin1String("comment"), r.comment);
        ro.insert(QLatin1String("match"), matchToJson(r.match));
        if (!r.settings.isEmpty()) {
            QJsonObject s;
            for (const auto &a : r.settings)
                s.insert(a.attribute, settingValue(a.attribute, a.value));
            ro.insert(QLatin1String("settings"), s);
        }
        if (!r.multipath.isEmpty()) {
            QJsonObject m;
            if (!r.multipath.selector.isEmpty())
                m.insert(QLatin1String("selector"), r.multipath.selector);
            if (!r.multipath.grouping.isEmpty())
                m.insert(QLatin1String("grouping"), r.multipath.grouping);
            if (!r.multipath.features.isEmpty())
                m.insert(QLatin1String("features"), r.multipath.features.join(QLatin1Char(' ')));
            ro.insert(QLatin1String("multipath"), m);
        }
        rules.append(ro);
    }
    o.insert(QLatin1String("rules"), rules);
    return o;
}

QByteArray presetToJson(const Preset &preset)
{
    return QJsonDocument(presetToJsonObject(preset)).toJson(QJsonDocument::Indented);
}

namespace {

Result<QByteArray> readResource(const QString &path, qint64 cap)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Result<QByteArray>::failure(QStringLiteral("%1: %2").arg(path, f.errorString()));
    QByteArray bytes = f.read(cap + 1);
    if (bytes.size() > cap)
        return Result<QByteArray>::failure(QStringLiteral("%1: more than %2").arg(path, byteSizeText(cap)));
    return bytes;
}

} // namespace

Result<Preset> loadPresetFile(const QString &path)
{
    // A preset is a small regular file: /dev/zero, a FIFO or a huge file is one line, not memory or a hang. The
    // built-ins are resources compiled into dmtune (":/presets/..."), read through QFile, bounded all the same.
    const auto bytes = path.startsWith(u':') ? readResource(path, TextInputCap)
                                             : readInputFile(path, TextInputCap, QStringLiteral("a preset"));
    if (!bytes)
        return Result<Preset>::failure(bytes.errorMessage());
    auto p = parsePreset(bytes.value());
    if (!p)
        return Result<Preset>::failure(QStringLiteral("%1: %2").arg(path, p.errorMessage()));
    return p;
}

Status savePresetFile(const QString &path, const Preset &preset, ExistingFile existing)
{
    // Not QSaveFile: it writes through a symbolic link at the name (to the link's target) by default.
    return writeFileAtomically(path, presetToJson(preset), existing);
}

} // namespace dmtune
