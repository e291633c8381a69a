#include "core/presets/presetexport.h"

#include "core/params/catalog.h"
#include "core/presets/presetresolution.h"

#include <QRegularExpression>

namespace dmtune {

namespace {

QString ruleLabel(const Preset &p, int r)
{
    return presetRuleLabel(p, r);
}

QString header(const Preset &p, const char *what)
{
    QString h = QStringLiteral("# %1 of the dmtune preset \"%2\" (schema %3)\n")
                    .arg(QString::fromLatin1(what), p.name)
                    .arg(p.schema);
    if (!p.description.isEmpty())
        h += QStringLiteral("# %1\n").arg(p.description);
    return h;
}

void appendUnexpressed(PresetExport &e)
{
    if (e.unexpressed.isEmpty())
        return;
    e.text += QStringLiteral("\n# Not expressed in this format:\n");
    for (const auto &u : std::as_const(e.unexpressed))
        e.text += QStringLiteral("#   %1\n").arg(u);
}

// Scheduler first: it resets nr_requests and creates its iosched files.
QList<Assignment> schedulerFirst(const QList<Assignment> &settings)
{
    QList<Assignment> out;
    for (const auto &a : settings) {
        if (a.attribute == QLatin1String("queue/scheduler"))
            out.prepend(a);
        else
            out << a;
    }
    return out;
}

QString quoted(const QString &v)
{
    QString e = v;
    e.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + e + QLatin1Char('"');
}

// A glob as the anchored regex multipath.conf's vendor/product take.
QString globRegex(const QString &glob)
{
    QString re = QStringLiteral("^");
    for (const QChar c : glob) {
        if (c == QLatin1Char('*'))
            re += QStringLiteral(".*");
        else if (c == QLatin1Char('?'))
            re += QLatin1Char('.');
        else if (QStringLiteral("[]").contains(c))
            re += c;
        else if (QStringLiteral(".^$+(){}|\\").contains(c))
            re += QLatin1Char('\\') + c;
        else
            re += c;
    }
    return re;
}

bool hasGlob(const QString &s)
{
    return s.contains(QRegularExpression(QStringLiteral("[*?\\[]")));
}

// The udev match of one device kind.
QStringList udevKind(const QString &kind)
{
    static const QHash<QString, QStringList> kinds {
        { QStringLiteral("scsi"), { QStringLiteral("KERNEL==\"sd*\"") } },
        { QStringLiteral("multipath"),
            { QStringLiteral("KERNEL==\"dm-*\""), QStringLiteral("ENV{DM_UUID}==\"mpath-*\"") } },
        { QStringLiteral("dm-lvm"), { QStringLiteral("KERNEL==\"dm-*\""), QStringLiteral("ENV{DM_UUID}==\"LVM-*\"") } },
        { QStringLiteral("dm-crypt"),
            { QStringLiteral("KERNEL==\"dm-*\""), QStringLiteral("ENV{DM_UUID}==\"CRYPT-*\"") } },
        { QStringLiteral("dm"), { QStringLiteral("KERNEL==\"dm-*\"") } },
        { QStringLiteral("nvme"), { QStringLiteral("KERNEL==\"nvme*n*\"") } },
        { QStringLiteral("virtio"), { QStringLiteral("KERNEL==\"vd*\"") } },
        { QStringLiteral("loop"), { QStringLiteral("KERNEL==\"loop*\"") } },
        { QStringLiteral("md"), { QStringLiteral("KERNEL==\"md*\"") } },
        { QStringLiteral("zram"), { QStringLiteral("KERNEL==\"zram*\"") } },
        { QStringLiteral("nbd"), { QStringLiteral("KERNEL==\"nbd*\"") } },
        { QStringLiteral("null_blk"), { QStringLiteral("KERNEL==\"nullb*\"") } },
        { QStringLiteral("ram"), { QStringLiteral("KERNEL==\"ram*\"") } },
        { QStringLiteral("mmc"), { QStringLiteral("KERNEL==\"mmcblk*\"") } },
    };
    return kinds.value(kind);
}

// A device WWID as sysfs prints it ("naa.600...", "eui.", "t10.") is the wwid attribute of the SCSI
// device or NVMe namespace; anything else is a multipath map's WWID, which is in its DM_UUID.
bool isDeviceWwid(const QString &wwid)
{
    static const QRegularExpression prefix(QStringLiteral("^(naa|eui|t10|uuid|nguid)\\."));
    return prefix.match(wwid).hasMatch();
}

// The alternatives (one udev rule line each) for one match; empty with *why set when it cannot be said.
QList<QStringList> udevMatches(const PresetMatch &m, QString *why)
{
    if (m.pathsOf) {
        *why = QStringLiteral("\"paths of the maps matching\" (udev sees a path before its map)");
        return {};
    }
    QStringList common;
    if (!m.wwid.isEmpty()) {
        if (isDeviceWwid(m.wwid))
            common << QStringLiteral("ATTRS{wwid}==%1").arg(quoted(m.wwid));
        else
            common << QStringLiteral("ENV{DM_UUID}==%1").arg(quoted(QStringLiteral("mpath-") + m.wwid));
    }
    if (!m.dmUuid.isEmpty())
        common << QStringLiteral("ENV{DM_UUID}==%1").arg(quoted(m.dmUuid));
    // A namespace's parent (its nvme-subsystem, or its controller without native multipath) has the NQN.
    if (!m.nqn.isEmpty())
        common << QStringLiteral("ATTRS{subsysnqn}==%1").arg(quoted(m.nqn));
    // SCSI pads vendor and model with blanks: allow them after the pattern.
    if (!m.vendor.isEmpty())
        common << QStringLiteral("ATTRS{vendor}==%1")
                      .arg(quoted(m.vendor.endsWith(QLatin1Char('*')) ? m.vendor : m.vendor + QStringLiteral("*")));
    if (!m.model.isEmpty())
        common << QStringLiteral("ATTRS{model}==%1")
                      .arg(quoted(m.model.endsWith(QLatin1Char('*')) ? m.model : m.model + QStringLiteral("*")));
    QList<QStringList> kinds;
    for (const auto &k : m.kinds)
        kinds << udevKind(k);
    if (kinds.isEmpty())
        kinds << QStringList();
    QList<QStringList> names;
    if (m.name.isEmpty())
        names << QStringList();
    else
        names << QStringList { QStringLiteral("KERNEL==%1").arg(quoted(m.name)) }
              << QStringList { QStringLiteral("ENV{DM_NAME}==%1").arg(quoted(m.name)) };
    QList<QStringList> out;
    for (const auto &k : kinds) {
        for (const auto &n : names) {
            // A map name never matches a non-dm kind's kernel pattern: skip the pointless pair.
            if (!n.isEmpty() && n.first().startsWith(QLatin1String("ENV{DM_NAME}")) && !k.isEmpty()
                && !k.first().startsWith(QLatin1String("KERNEL==\"dm-")))
                continue;
            out << (k + common + n);
        }
    }
    return out;
}

} // namespace

Result<PresetExportFormat> parsePresetExportFormat(const QString &name)
{
    if (name == QLatin1String("udev"))
        return PresetExportFormat::Udev;
    if (name == QLatin1String("tuned"))
        return PresetExportFormat::Tuned;
    if (name == QLatin1String("multipath"))
        return PresetExportFormat::Multipath;
    return Result<PresetExportFormat>::failure(
        QStringLiteral("unknown export format '%1' (udev, tuned, multipath)").arg(name));
}

QString presetExportFileName(const Preset &preset, PresetExportFormat format)
{
    QString slug = preset.name.toLower();
    slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    slug = slug.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    switch (format) {
    case PresetExportFormat::Udev:
        return QStringLiteral("99-dmtune-%1.rules").arg(slug);
    case PresetExportFormat::Tuned:
        return QStringLiteral("tuned.conf");
    case PresetExportFormat::Multipath:
        return QStringLiteral("dmtune-%1.conf").arg(slug);
    }
    return {};
}

PresetExport exportPreset(const Preset &preset, PresetExportFormat format)
{
    switch (format) {
    case PresetExportFormat::Udev:
        return exportUdevRules(preset);
    case PresetExportFormat::Tuned:
        return exportTunedProfile(preset);
    case PresetExportFormat::Multipath:
        return exportMultipathConf(preset);
    }
    return {};
}

PresetExport exportUdevRules(const Preset &p)
{
    PresetExport e;
    e.text = header(p, "udev rules");
    e.text += QStringLiteral(
        "# Install as /etc/udev/rules.d/%1, then: udevadm control --reload; udevadm trigger --action=change\n")
                  .arg(presetExportFileName(p, PresetExportFormat::Udev));
    for (int r = 0; r < p.rules.size(); ++r) {
        const PresetRule &rule = p.rules[r];
        const QString label = ruleLabel(p, r);
        if (!rule.multipath.isEmpty())
            e.unexpressed << QStringLiteral("%1: multipath settings (use the multipath.conf export)").arg(label);
        QStringList assigns;
        QStringList subsystemAssigns; // on the nvme-subsystem device itself, the way NVMe vendors' rules set iopolicy
        const bool bySubsystemOnly = !rule.match.nqn.isEmpty() && rule.match.wwid.isEmpty()
            && rule.match.dmUuid.isEmpty() && rule.match.vendor.isEmpty() && rule.match.model.isEmpty()
            && rule.match.name.isEmpty() && !rule.match.pathsOf;
        for (const auto &a : schedulerFirst(rule.settings)) {
            const TunableDef *def = catalog::find(a.attribute);
            if (def && def->location == TunableLocation::NvmeSubsystem) {
                if (bySubsystemOnly)
                    subsystemAssigns << QStringLiteral("ATTR{%1}=%2").arg(def->fileName(), quoted(a.value));
                else
                    e.unexpressed << QStringLiteral("%1: %2=%3 (a subsystem attribute: udev sets it by NQN alone)")
                                         .arg(label, a.attribute, a.value);
                continue;
            }
            const bool onDevice = def
                && (def->location == TunableLocation::Queue || def->location == TunableLocation::IoScheduler
                    || def->location == TunableLocation::ScsiDevice);
            if (!onDevice) {
                e.unexpressed << QStringLiteral("%1: %2=%3 (not an attribute of the block device)")
                                     .arg(label, a.attribute, a.value);
                continue;
            }
            assigns << QStringLiteral("ATTR{%1}=%2").arg(a.attribute, quoted(a.value));
        }
        if (!subsystemAssigns.isEmpty()) {
            e.text += QStringLiteral("\n# %1: %2\n").arg(label, rule.match.describe());
            e.expressed += int(subsystemAssigns.size());
            e.text += (QStringList { QStringLiteral("ACTION==\"add|change\""),
                           QStringLiteral("SUBSYSTEM==\"nvme-subsystem\""),
                           QStringLiteral("ATTR{subsysnqn}==%1").arg(quoted(rule.match.nqn)) }
                          + subsystemAssigns)
                          .join(QStringLiteral(", "))
                + QLatin1Char('\n');
        }
        if (assigns.isEmpty())
            continue;
        QString why;
        const QList<QStringList> alternatives = udevMatches(rule.match, &why);
        if (alternatives.isEmpty()) {
            e.unexpressed << QStringLiteral("%1: match %2").arg(label, why);
            continue;
        }
        e.text += QStringLiteral("\n# %1: %2\n").arg(label, rule.match.describe());
        e.expressed += int(assigns.size());
        for (const auto &m : alternatives) {
            e.text += (QStringList { QStringLiteral("ACTION==\"add|change\""), QStringLiteral("SUBSYSTEM==\"block\""),
                           QStringLiteral("ENV{DEVTYPE}==\"disk\"") }
                          + m + assigns)
                          .join(QStringLiteral(", "))
                + QLatin1Char('\n');
        }
    }
    appendUnexpressed(e);
    return e;
}

PresetExport exportTunedProfile(const Preset &p)
{
    PresetExport e;
    e.text = header(p, "tuned profile");
    e.text += QStringLiteral("[main]\nsummary=%1\n")
                  .arg(p.description.isEmpty() ? p.name : p.description.section(QLatin1Char('\n'), 0, 0));
    for (int r = 0; r < p.rules.size(); ++r) {
        const PresetRule &rule = p.rules[r];
        const QString label = ruleLabel(p, r);
        if (!rule.multipath.isEmpty())
            e.unexpressed << QStringLiteral("%1: multipath settings (use the multipath.conf export)").arg(label);
        const PresetMatch &m = rule.match;
        // tuned selects devices by name globs (devices=) and by a regex over the udev properties.
        QStringList regex;
        QString why;
        if (m.pathsOf)
            why = QStringLiteral("\"paths of the maps matching\"");
        if (!m.wwid.isEmpty() && isDeviceWwid(m.wwid)) {
            if (m.wwid.startsWith(QLatin1String("naa.")) && !hasGlob(m.wwid))
                regex << QStringLiteral("ID_WWN_WITH_EXTENSION=0x%1$").arg(m.wwid.mid(4));
            else
                why = QStringLiteral("WWID %1 (udev has no property with it)").arg(m.wwid);
        } else if (!m.wwid.isEmpty()) {
            regex << QStringLiteral("DM_UUID=%1$").arg(globRegex(QStringLiteral("mpath-") + m.wwid).mid(1));
        }
        if (!m.dmUuid.isEmpty())
            regex << QStringLiteral("DM_UUID=%1$").arg(globRegex(m.dmUuid).mid(1));
        if (!m.vendor.isEmpty() || !m.model.isEmpty())
            why = QStringLiteral("vendor/model globs (udev mangles their blanks)");
        if (!m.nqn.isEmpty())
            why = QStringLiteral("NVMe subsystem NQN %1 (no udev property has it: use the udev export)").arg(m.nqn);
        // One section per device kind: a section's devices= and regex must both hold.
        QList<QPair<QStringList, QStringList>> sections; // devices=, extra regex
        for (const auto &k : m.kinds) {
            const QStringList u = udevKind(k);
            if (u.size() == 1)
                sections.append({ { u.first().section(QLatin1Char('"'), 1, 1) }, {} });
            else if (k == QLatin1String("multipath"))
                sections.append({ {}, { QStringLiteral("DM_UUID=mpath-") } });
            else
                why = QStringLiteral("device kind %1").arg(k);
        }
        if (sections.isEmpty())
            sections.append(qMakePair(QStringList(), QStringList()));
        if (!why.isEmpty()) {
            e.unexpressed << QStringLiteral("%1: match %2").arg(label, why);
            continue;
        }
        QStringList lines;
        for (const auto &a : schedulerFirst(rule.settings)) {
            if (a.attribute == QLatin1String("queue/scheduler"))
                lines << QStringLiteral("elevator=%1").arg(a.value);
            else if (a.attribute == QLatin1String("queue/read_ahead_kb"))
                lines << QStringLiteral("readahead=%1").arg(a.value); // tuned takes KiB unless suffixed "s"
            else if (a.attribute == QLatin1String("queue/iosched/quantum"))
                lines << QStringLiteral("scheduler_quantum=%1").arg(a.value); // CFQ's (kernels before 5.0)
            else
                // The disk plugin has elevator, readahead and scheduler_quantum only; tuned's sysfs plugin writes
                // any file but picks it by a /sys path glob, which would drop the rule's match by identity.
                e.unexpressed << QStringLiteral("%1: %2=%3 (tuned's disk plugin has no option for it, and its sysfs "
                                                "plugin selects /sys/block/NAME paths by name, not by %4: use the "
                                                "udev export)")
                                     .arg(label, a.attribute, a.value, m.describe());
        }
        if (lines.isEmpty())
            continue;
        e.expressed += int(lines.size());
        e.text += QStringLiteral("\n# %1: %2\n").arg(label, m.describe());
        for (qsizetype i = 0; i < sections.size(); ++i) {
            // A name glob is narrower than a kind's name pattern.
            const QStringList devices = m.name.isEmpty() ? sections[i].first : QStringList { m.name };
            const QStringList all = regex + sections[i].second;
            e.text += QStringLiteral("[disk_rule%1%2]\ntype=disk\n")
                          .arg(r + 1)
                          .arg(sections.size() > 1 ? QStringLiteral("_%1").arg(i + 1) : QString());
            if (!devices.isEmpty())
                e.text += QStringLiteral("devices=%1\n").arg(devices.join(QLatin1Char(',')));
            if (all.size() == 1)
                e.text += QStringLiteral("devices_udev_regex=^%1\n").arg(all.first());
            else if (all.size() > 1) {
                QString lookaheads;
                for (const auto &x : all)
                    lookaheads += QStringLiteral("(?=[\\s\\S]*^%1)").arg(x);
                e.text += QStringLiteral("devices_udev_regex=%1\n").arg(lookaheads);
            }
            e.text += lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
        }
    }
    appendUnexpressed(e);
    return e;
}

PresetExport exportMultipathConf(const Preset &p)
{
    PresetExport e;
    e.text = header(p, "multipath.conf snippet");
    e.text += QStringLiteral(
        "# Merge into /etc/multipath.conf (or put in /etc/multipath/conf.d/), then: multipathd reconfigure\n");
    QStringList devices, multipaths, overrides;
    for (int r = 0; r < p.rules.size(); ++r) {
        const PresetRule &rule = p.rules[r];
        const QString label = ruleLabel(p, r);
        // The map the rule is about: the rule's own match, or the maps whose paths it sets.
        const PresetMatch &m = rule.match.pathsOf ? *rule.match.pathsOf : rule.match;
        QStringList body;
        if (!rule.multipath.selector.isEmpty())
            body << QStringLiteral("path_selector %1").arg(quoted(rule.multipath.selector));
        if (!rule.multipath.grouping.isEmpty())
            body << QStringLiteral("path_grouping_policy %1").arg(rule.multipath.grouping);
        if (!rule.multipath.features.isEmpty()) {
            const QString count = QString::number(rule.multipath.features.size());
            body << QStringLiteral("features %1")
                        .arg(quoted(count + QLatin1Char(' ') + rule.multipath.features.join(QLatin1Char(' '))));
        }
        for (const auto &a : schedulerFirst(rule.settings)) {
            if (a.attribute == QLatin1String("queue/max_sectors_kb"))
                body << QStringLiteral("max_sectors_kb %1").arg(a.value); // multipathd sets it on the map and its paths
            else
                e.unexpressed << QStringLiteral("%1: %2=%3 (multipath.conf has no such setting)")
                                     .arg(label, a.attribute, a.value);
        }
        if (body.isEmpty())
            continue;
        const bool mapKinds = m.kinds.isEmpty() || m.kinds == QStringList { QStringLiteral("multipath") };
        QString why;
        if (!mapKinds)
            why = QStringLiteral("kinds %1 are not multipath maps").arg(m.kinds.join(QLatin1Char(',')));
        else if (!m.name.isEmpty())
            why = QStringLiteral("map name glob %1 (multipath.conf selects by WWID or vendor/product)").arg(m.name);
        else if (!m.dmUuid.isEmpty() && !m.dmUuid.startsWith(QLatin1String("mpath-")))
            why = QStringLiteral("dm uuid %1 is not a multipath map's").arg(m.dmUuid);
        QString wwid = m.wwid;
        if (wwid.isEmpty() && !m.dmUuid.isEmpty())
            wwid = m.dmUuid.mid(6);
        if (!wwid.isEmpty() && hasGlob(wwid))
            why = QStringLiteral("WWID glob %1 (multipaths sections need one WWID)").arg(wwid);
        if (!m.nqn.isEmpty())
            why = QStringLiteral("NVMe subsystem NQN %1 (native NVMe multipath, not dm-multipath)").arg(m.nqn);
        if (!why.isEmpty()) {
            e.unexpressed << QStringLiteral("%1: match %2").arg(label, why);
            continue;
        }
        const QString comment = QStringLiteral("\t# %1\n").arg(label);
        const auto indent = [](const QStringList &lines, const char *pad) {
            QString out;
            for (const auto &l : lines)
                out += QString::fromLatin1(pad) + l + QLatin1Char('\n');
            return out;
        };
        e.expressed += int(body.size());
        if (!wwid.isEmpty()) {
            multipaths << comment + QStringLiteral("\tmultipath {\n\t\twwid %1\n").arg(wwid) + indent(body, "\t\t")
                    + QStringLiteral("\t}\n");
        } else if (!m.vendor.isEmpty() || !m.model.isEmpty()) {
            QStringList id;
            id << QStringLiteral("vendor %1")
                      .arg(quoted(globRegex(m.vendor.isEmpty() ? QStringLiteral("*") : m.vendor)));
            id << QStringLiteral("product %1")
                      .arg(quoted(globRegex(m.model.isEmpty() ? QStringLiteral("*") : m.model)));
            devices << comment + QStringLiteral("\tdevice {\n") + indent(id + body, "\t\t") + QStringLiteral("\t}\n");
        } else {
            overrides << comment + indent(body, "\t");
        }
    }
    if (!devices.isEmpty())
        e.text += QStringLiteral("\ndevices {\n") + devices.join(QString()) + QStringLiteral("}\n");
    if (!multipaths.isEmpty())
        e.text += QStringLiteral("\nmultipaths {\n") + multipaths.join(QString()) + QStringLiteral("}\n");
    if (!overrides.isEmpty())
        e.text += QStringLiteral("\noverrides {\n") + overrides.join(QString()) + QStringLiteral("}\n");
    appendUnexpressed(e);
    return e;
}

} // namespace dmtune
