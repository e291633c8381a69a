// dmtunectl get: a device's tunables with value, type, range, unit and whether they can be written.
#include "cli.h"

#include "core/discovery/discovery.h"
#include "core/params/catalog.h"
#include "core/params/deviceresolver.h"
#include "core/params/tunable.h"
#include "core/util/nearmiss.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace dmtune::cli {

namespace {

// "nomerges" of queue/nomerges: the names a near miss may be of, besides the whole keys.
QStringList shortNames(const QStringList &keys)
{
    QStringList out;
    for (const QString &key : keys)
        out.append(key.section(QLatin1Char('/'), -1));
    out.removeDuplicates();
    return out;
}

QJsonObject tunableToJson(const Tunable &t)
{
    QJsonObject o { { QStringLiteral("attribute"), t.attribute }, { QStringLiteral("value"), t.value },
        { QStringLiteral("raw"), t.rawValue }, { QStringLiteral("readable"), t.readable },
        { QStringLiteral("type"), tunableTypeName(t.type) }, { QStringLiteral("unit"), t.unit },
        { QStringLiteral("writable"), t.writable }, { QStringLiteral("known"), t.known },
        { QStringLiteral("ignored"), t.ignored }, { QStringLiteral("note"), t.note },
        { QStringLiteral("description"), t.description }, { QStringLiteral("path"), t.path } };
    if (t.known && t.type == TunableType::Int) {
        o.insert(QStringLiteral("min"), double(t.limits.minimum));
        o.insert(QStringLiteral("max"), double(t.limits.maximum));
        if (t.limits.step > 1)
            o.insert(QStringLiteral("step"), double(t.limits.step));
    }
    if (t.known && (t.type == TunableType::Enum || t.type == TunableType::Bool))
        o.insert(QStringLiteral("choices"),
            QJsonArray::fromStringList(
                t.type == TunableType::Bool ? t.limitsText().split(QLatin1Char('|')) : t.limits.choices));
    return o;
}

void printTable(const QString &device, const QList<Tunable> &tunables, QTextStream &out)
{
    int width = 9;
    for (const auto &t : tunables)
        width = std::max(width, int(t.attribute.size()));
    out << device << '\n';
    out << QStringLiteral("ATTRIBUTE").leftJustified(width) << "  " << QStringLiteral("VALUE").leftJustified(14)
        << " TYPE   RW  RANGE / NOTE\n";
    for (const auto &t : tunables) {
        QString range = t.known ? t.limitsText() : QStringLiteral("(raw)");
        if (!t.unit.isEmpty())
            range += QLatin1Char(' ') + t.unit;
        QString flags = t.writable ? QStringLiteral("rw") : QStringLiteral("ro");
        if (t.ignored)
            flags = QStringLiteral("--");
        QString note = t.ignored ? QStringLiteral("IGNORED: ") + t.note : t.note;
        const QString value = t.readable ? t.value : QStringLiteral("?");
        out << t.attribute.leftJustified(width) << "  " << value.leftJustified(14) << ' '
            << tunableTypeName(t.type).leftJustified(6) << ' ' << flags << "  " << range;
        if (!note.isEmpty())
            out << "  (" << note << ')';
        out << '\n';
    }
}

} // namespace

int runGet(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Show a device's tunables: value, type, range, unit, writable.\n"
                                                    "DEV: sdX, dm-N, a map name, /dev/..., or MAJ:MIN. "
                                                    "ATTR: queue/nr_requests, or any last part of a name that "
                                                    "names one attribute alone (nr_requests, queue_depth)."));
    parser.addPositionalArgument(QStringLiteral("DEV"), QStringLiteral("The device."));
    parser.addPositionalArgument(
        QStringLiteral("ATTR"), QStringLiteral("Attributes to show (default: all)."), QStringLiteral("[ATTR...]"));
    parser.addOption({ QStringLiteral("json"), QStringLiteral("Print JSON.") });
    addCommonOptions(parser);
    int code = ExitOk;
    if (!parseOrUsage(parser, args, io, &code))
        return code;
    QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return usageError(io, QStringLiteral("get needs a device"));
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    if (!sysfs.isDir(QStringLiteral("block")))
        return fail(io, QStringLiteral("%1: no block/ directory (not a sysfs tree)").arg(sysfs.root()));
    const DeviceSnapshot snapshot = Discovery::scan(sysfs);
    const auto device = deviceOnThisHost(sysfs, snapshot, positional.takeFirst(), io, &code);
    if (!device)
        return code;

    const QList<Tunable> all = readTunables(sysfs, *device);
    QStringList keys;
    for (const Tunable &t : all)
        keys << t.attribute;
    QList<Tunable> shown;
    for (const auto &wanted : positional) {
        // The device's own attributes first (its raw read-only ones too), by the same rule as set: the whole
        // name or any last part that names one alone.
        const QStringList found = catalog::matching(keys, wanted);
        if (found.size() > 1)
            return usageError(io,
                QStringLiteral("get: '%1' names several attributes of %2 (%3): give more of the name")
                    .arg(wanted, *device, found.join(QStringLiteral(", "))));
        if (found.isEmpty()) {
            // An attribute name is the command line's (2), as set's are; the device is the host's (1, above).
            const auto known = catalog::resolve(wanted);
            if (known)
                return usageError(io, QStringLiteral("get: %1 has no %2").arg(*device, known.value()));
            return usageError(io,
                QStringLiteral("get: %1 has no attribute '%2'%3")
                    .arg(*device, wanted, didYouMean(wanted, keys + shortNames(keys))));
        }
        shown << all.at(keys.indexOf(found.first()));
    }
    if (positional.isEmpty())
        shown = all;

    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const auto &t : shown)
            array.append(tunableToJson(t));
        io.out << QJsonDocument(
            QJsonObject { { QStringLiteral("device"), *device }, { QStringLiteral("tunables"), array } })
                      .toJson(QJsonDocument::Indented);
    } else {
        printTable(*device, shown, io.out);
    }
    io.out.flush();
    return ExitOk;
}

} // namespace dmtune::cli
