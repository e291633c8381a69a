#include "core/params/tunable.h"

#include "core/params/catalog.h"

#include <QFile>

#include <sys/stat.h>

namespace dmtune {

QString Tunable::limitsText() const
{
    if (!known)
        return {};
    const TunableDef *def = catalog::find(attribute);
    return def ? dmtune::limitsText(*def, limits) : QString();
}

Result<QString> Tunable::check(const QString &input) const
{
    const TunableDef *def = catalog::find(attribute);
    if (!def)
        return Result<QString>::failure(QStringLiteral("%1 is not a known tunable (read-only)").arg(attribute));
    if (ignored)
        return Result<QString>::failure(QStringLiteral("%1 is ignored by current kernels: %2").arg(attribute, note));
    if (!writable)
        return Result<QString>::failure(QStringLiteral("%1 of %2 is read-only").arg(attribute, device));
    // The value shown as current is never refused (a kernel's own default may lie off the grid).
    return checkValueFrom(*def, limits, readable ? value : QString(), input);
}

bool Tunable::kernelTakesBack() const
{
    const TunableDef *def = catalog::find(attribute);
    return def && readable && checkValue(*def, limits, value).ok();
}

namespace {

Tunable fromDef(const SysfsRoot &sysfs, const DeviceContext &ctx, const TunableDef &def, const QString &path)
{
    Tunable t;
    t.device = ctx.name;
    t.attribute = def.attribute;
    t.path = path;
    t.type = def.type;
    t.unit = def.unit;
    t.description = def.description;
    t.known = true;
    t.ignored = def.ignored;
    t.note = def.ignored ? def.ignoredNote : def.limitNote;
    t.limits = deviceLimits(def, ctx, ctx.schedulers.current);
    t.choiceNotes = def.choiceNotes;
    const auto raw = sysfs.read(path);
    t.readable = raw.ok();
    t.rawValue = raw ? raw->simplified() : raw.errorMessage();
    t.value = raw ? normalizeValue(def, *raw) : QString();
    t.writable = !def.ignored && sysfs.isWritable(path);
    return t;
}

Tunable rawTunable(const SysfsRoot &sysfs, const QString &device, const QString &attribute, const QString &path)
{
    Tunable t;
    t.device = device;
    t.attribute = attribute;
    t.path = path;
    const auto raw = sysfs.read(path);
    t.readable = raw.ok();
    t.rawValue = raw ? raw->simplified() : raw.errorMessage();
    t.value = raw ? t.rawValue : QString();
    return t;
}

bool isReadableFile(const SysfsRoot &sysfs, const QString &relative)
{
    // Write-only files (SCSI delete/rescan) must never be opened: reading some of them acts. One stat: the mode's
    // bits are what the owner may do (QFileInfo's permissions() adds access() calls).
    struct stat st { };
    return ::stat(QFile::encodeName(sysfs.path(relative)).constData(), &st) == 0 && S_ISREG(st.st_mode)
        && (st.st_mode & S_IRUSR);
}

} // namespace

QList<Tunable> readTunables(const SysfsRoot &sysfs, const QString &device)
{
    QList<Tunable> out;
    if (!checkDeviceName(sysfs, device))
        return out;
    const DeviceContext ctx = readDeviceContext(sysfs, device);
    QStringList seen;
    for (const auto &def : catalog::all()) {
        if (!appliesTo(def, ctx, ctx.schedulers.current))
            continue;
        const auto path = attributePath(sysfs, ctx, def);
        if (!path)
            continue;
        out << fromDef(sysfs, ctx, def, *path);
        seen << def.attribute;
    }
    // Unknown attributes: shown raw, never written.
    const QString base = QStringLiteral("block/") + device;
    for (const QString &dir : { QStringLiteral("queue"), QStringLiteral("queue/iosched"), QStringLiteral("dm") }) {
        const auto entries = sysfs.list(base + QLatin1Char('/') + dir);
        for (const auto &entry : entries) {
            const QString attribute = dir + QLatin1Char('/') + entry;
            const QString path = base + QLatin1Char('/') + attribute;
            if (seen.contains(attribute) || !isReadableFile(sysfs, path))
                continue;
            out << rawTunable(sysfs, device, attribute, path);
        }
    }
    return out;
}

Result<Tunable> readTunable(const SysfsRoot &sysfs, const QString &device, const QString &attribute)
{
    const auto all = readTunables(sysfs, device);
    for (const auto &t : all) {
        if (t.attribute == attribute)
            return t;
    }
    if (const Status s = checkDeviceName(sysfs, device); !s)
        return Result<Tunable>::failure(s.errorMessage());
    return Result<Tunable>::failure(QStringLiteral("%1 has no attribute %2").arg(device, attribute));
}

ChangeSet pendingChanges(const QList<Tunable> &tunables)
{
    ChangeSet out;
    for (const auto &t : tunables) {
        if (t.hasPending() && t.pending != t.value)
            out << Change { t.device, t.attribute, t.pending };
    }
    return out;
}

} // namespace dmtune
