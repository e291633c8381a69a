#include "core/discovery/snapshotjson.h"

#include <QJsonArray>

#include <algorithm>

namespace dmtune {

namespace {
// Unknown stays null rather than "", so scripts can tell "empty" from "not known".
QJsonValue orNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

// Numeric sysfs values as JSON numbers; anything else as its text.
QJsonValue numberOrNull(const QString &s)
{
    bool ok = false;
    const qlonglong v = s.toLongLong(&ok);
    if (ok)
        return QJsonValue(double(v));
    return orNull(s);
}

QJsonValue orNull(qint64 v)
{
    return v < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(double(v));
}
} // namespace

QJsonObject deviceToJson(const BlockDevice &d)
{
    QJsonObject o;
    o[QStringLiteral("name")] = d.name;
    o[QStringLiteral("devnum")] = orNull(d.devnum);
    o[QStringLiteral("kind")] = deviceKindName(d.kind);
    o[QStringLiteral("size_bytes")] = orNull(d.sizeBytes);
    o[QStringLiteral("model")] = orNull(d.model);
    o[QStringLiteral("vendor")] = orNull(d.vendor);
    o[QStringLiteral("serial")] = orNull(d.serial);
    o[QStringLiteral("wwid")] = orNull(d.wwid);
    o[QStringLiteral("scheduler")] = orNull(d.scheduler);
    o[QStringLiteral("schedulers")] = QJsonArray::fromStringList(d.schedulers);
    o[QStringLiteral("slaves")] = QJsonArray::fromStringList(d.slaves);
    o[QStringLiteral("holders")] = QJsonArray::fromStringList(d.holders);
    o[QStringLiteral("read_only")] = d.readOnly;
    o[QStringLiteral("removable")] = d.removable;
    o[QStringLiteral("rotational")]
        = d.rotational.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(d.rotational == QLatin1String("1"));
    QJsonArray parts;
    for (const auto &p : d.partitions) {
        parts.append(QJsonObject { { QStringLiteral("name"), p.name }, { QStringLiteral("devnum"), orNull(p.devnum) },
            { QStringLiteral("number"), p.number }, { QStringLiteral("size_bytes"), orNull(p.sizeBytes) },
            { QStringLiteral("holders"), QJsonArray::fromStringList(p.holders) } });
    }
    o[QStringLiteral("partitions")] = parts;
    if (d.isDeviceMapper()) {
        o[QStringLiteral("dm_name")] = orNull(d.dmName);
        o[QStringLiteral("dm_uuid")] = orNull(d.dmUuid);
    }
    if (d.kind == DeviceKind::Scsi) {
        o[QStringLiteral("scsi")] = QJsonObject { { QStringLiteral("hctl"), orNull(d.scsi.hctl) },
            { QStringLiteral("rev"), orNull(d.scsi.rev) }, { QStringLiteral("state"), orNull(d.scsi.state) },
            { QStringLiteral("queue_depth"), numberOrNull(d.scsi.queueDepth) },
            { QStringLiteral("timeout"), numberOrNull(d.scsi.timeout) },
            { QStringLiteral("eh_timeout"), numberOrNull(d.scsi.ehTimeout) },
            { QStringLiteral("transport"), orNull(d.scsi.transport) } };
    }
    if (d.kind == DeviceKind::NvmeNamespace) {
        o[QStringLiteral("nvme")] = QJsonObject { { QStringLiteral("controller"), orNull(d.nvme.controller) },
            { QStringLiteral("subsystem"), orNull(d.nvme.subsystem) },
            { QStringLiteral("transport"), orNull(d.nvme.transport) },
            { QStringLiteral("address"), orNull(d.nvme.address) },
            { QStringLiteral("subsysnqn"), orNull(d.nvme.subsysNqn) },
            { QStringLiteral("iopolicy"), orNull(d.nvme.iopolicy) }, { QStringLiteral("nsid"), orNull(d.nvme.nsid) },
            { QStringLiteral("paths"), QJsonArray::fromStringList(d.nvme.pathDevices) },
            { QStringLiteral("controllers"), QJsonArray::fromStringList(d.nvme.pathControllers) } };
    }
    if (d.kind == DeviceKind::Loop)
        o[QStringLiteral("backing_file")] = orNull(d.loopBackingFile);
    if (d.kind == DeviceKind::Md)
        o[QStringLiteral("md_level")] = orNull(d.mdLevel);
    if (!d.unavailable.isEmpty())
        o[QStringLiteral("unavailable")] = QJsonArray::fromStringList(d.unavailable);
    return o;
}

QJsonObject mapToJson(const MultipathMap &m)
{
    QJsonObject o;
    o[QStringLiteral("name")] = m.name;
    o[QStringLiteral("device")] = m.device;
    o[QStringLiteral("devnum")] = orNull(m.devnum);
    o[QStringLiteral("uuid")] = orNull(m.uuid);
    o[QStringLiteral("size_bytes")] = orNull(m.sizeBytes);
    o[QStringLiteral("features")] = QJsonArray::fromStringList(m.features);
    o[QStringLiteral("hw_handler")]
        = m.hwHandler.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(m.hwHandler.join(QLatin1Char(' ')));
    o[QStringLiteral("slaves")] = QJsonArray::fromStringList(m.slaves);
    o[QStringLiteral("groups_known")] = m.groupsKnown;
    if (!m.groupsKnown)
        o[QStringLiteral("groups_unknown_reason")] = m.groupsUnknownReason;
    else {
        // As map show --json and dmsetup table: the whole line; params, the multipath target's own text.
        o[QStringLiteral("table")] = m.tableTargetLine;
        o[QStringLiteral("params")] = m.tableLine;
        o[QStringLiteral("status")] = m.statusLine;
        o[QStringLiteral("next_group")] = m.nextGroup;
    }
    QJsonArray groups;
    for (const auto &g : m.groups) {
        QJsonArray paths;
        for (const auto &p : g.paths) {
            paths.append(QJsonObject { { QStringLiteral("name"), orNull(p.name) },
                { QStringLiteral("devnum"), p.devnum }, { QStringLiteral("state"), orNull(p.state) },
                { QStringLiteral("fail_count"),
                    p.failCount < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(p.failCount) },
                { QStringLiteral("selector_args"), QJsonArray::fromStringList(p.selectorArgs) },
                { QStringLiteral("selector_info"), QJsonArray::fromStringList(p.selectorInfo) } });
        }
        groups.append(QJsonObject { { QStringLiteral("index"), g.index }, { QStringLiteral("state"), orNull(g.state) },
            { QStringLiteral("selector"), g.selector },
            { QStringLiteral("selector_args"), QJsonArray::fromStringList(g.selectorArgs) },
            { QStringLiteral("paths"), paths } });
    }
    o[QStringLiteral("groups")] = groups;
    return o;
}

void addMultipathdView(QJsonObject *map, const MultipathdMapView &view)
{
    QJsonArray groups = map->value(QStringLiteral("groups")).toArray();
    for (qsizetype g = 0; g < groups.size(); ++g) {
        QJsonObject group = groups.at(g).toObject();
        const int index = group.value(QStringLiteral("index")).toInt();
        const auto gv = std::find_if(
            view.groups.cbegin(), view.groups.cend(), [&](const MultipathdGroupView &v) { return v.number == index; });
        if (gv == view.groups.cend())
            continue;
        group.insert(QStringLiteral("priority"), gv->priority);
        QJsonArray paths = group.value(QStringLiteral("paths")).toArray();
        for (qsizetype p = 0; p < paths.size(); ++p) {
            QJsonObject path = paths.at(p).toObject();
            const QString devnum = path.value(QStringLiteral("devnum")).toString();
            const auto pv = std::find_if(
                gv->paths.cbegin(), gv->paths.cend(), [&](const MultipathdPathView &v) { return v.devT == devnum; });
            if (pv == gv->paths.cend())
                continue;
            path.insert(QStringLiteral("priority"), pv->priority);
            path.insert(QStringLiteral("checker_state"), pv->checkerState);
            path.insert(QStringLiteral("device_state"), pv->deviceState);
            paths[p] = path;
        }
        group.insert(QStringLiteral("paths"), paths);
        groups[g] = group;
    }
    map->insert(QStringLiteral("groups"), groups);
}

QJsonObject nvmeHeadToJson(const NvmeMultipathHead &head)
{
    const NvmeSubsystemInfo &sub = head.subsystem;
    QJsonArray paths;
    for (const NvmePath &p : head.paths) {
        QJsonObject path { { QStringLiteral("name"), p.name }, { QStringLiteral("controller"), p.controller },
            { QStringLiteral("transport"), orNull(p.transport) }, { QStringLiteral("address"), orNull(p.address) },
            { QStringLiteral("state"), orNull(p.state) }, { QStringLiteral("ana_state"), orNull(p.anaState) },
            { QStringLiteral("ana_group"), numberOrNull(p.anaGroup) }, { QStringLiteral("usable"), p.usable() } };
        // Only where the kernel has them (6.14 and later).
        if (!p.queueDepth.isEmpty())
            path.insert(QStringLiteral("queue_depth"), numberOrNull(p.queueDepth));
        if (!p.numaNodes.isEmpty())
            path.insert(QStringLiteral("numa_nodes"), p.numaNodes);
        paths.append(path);
    }
    return QJsonObject { { QStringLiteral("name"), head.name }, { QStringLiteral("devnum"), orNull(head.devnum) },
        { QStringLiteral("wwid"), orNull(head.wwid) }, { QStringLiteral("nsid"), numberOrNull(head.nsid) },
        { QStringLiteral("size_bytes"), orNull(head.sizeBytes) },
        { QStringLiteral("iostats"),
            head.iostats.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(head.iostats == QLatin1String("1")) },
        { QStringLiteral("subsystem"),
            QJsonObject { { QStringLiteral("name"), sub.name }, { QStringLiteral("nqn"), orNull(sub.nqn) },
                { QStringLiteral("model"), orNull(sub.model) }, { QStringLiteral("serial"), orNull(sub.serial) },
                { QStringLiteral("firmware"), orNull(sub.firmware) },
                { QStringLiteral("iopolicy"), orNull(sub.iopolicy) },
                { QStringLiteral("controllers"), QJsonArray::fromStringList(sub.controllers) } } },
        { QStringLiteral("paths"), paths } };
}

QJsonObject snapshotToJson(const DeviceSnapshot &s)
{
    QJsonArray devices;
    for (const auto &d : s.devices)
        devices.append(deviceToJson(d));
    QJsonArray maps;
    for (const auto &m : s.maps)
        maps.append(mapToJson(m));
    QJsonArray nvme;
    for (const auto &head : s.nvmeMultipath)
        nvme.append(nvmeHeadToJson(head));
    QJsonObject dm { { QStringLiteral("available"), s.deviceMapper.available } };
    if (!s.deviceMapper.available)
        dm[QStringLiteral("reason")] = s.deviceMapper.reason;
    if (!s.deviceMapper.driverVersion.isEmpty())
        dm[QStringLiteral("driver_version")] = s.deviceMapper.driverVersion;
    if (!s.deviceMapper.libraryVersion.isEmpty())
        dm[QStringLiteral("library_version")] = s.deviceMapper.libraryVersion;
    return QJsonObject { { QStringLiteral("sysfs_root"), s.sysfsRoot },
        { QStringLiteral("kernel"), orNull(s.kernelRelease) }, { QStringLiteral("device_mapper"), dm },
        { QStringLiteral("devices"), devices }, { QStringLiteral("maps"), maps },
        { QStringLiteral("nvme_multipath"), nvme } };
}

namespace {
QString humanSize(qint64 bytes)
{
    if (bytes < 0)
        return QStringLiteral("?");
    const char *units[] = { "", "K", "M", "G", "T", "P" };
    double v = double(bytes);
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        ++u;
    }
    return QString::number(v, 'g', 4) + QLatin1String(units[u]);
}
} // namespace

QString mapToText(const MultipathMap &m, const DeviceSnapshot &snapshot, const MultipathdMapView *view)
{
    QString out;
    const BlockDevice *dev = snapshot.device(m.device);
    QString vendorModel;
    if (!m.slaves.isEmpty()) {
        if (const BlockDevice *p = snapshot.device(m.slaves.first()))
            vendorModel = QStringLiteral("%1,%2").arg(p->vendor, p->model);
    }
    out += QStringLiteral("%1 (%2) %3 %4\n").arg(m.name, m.uuid.mid(6), m.device, vendorModel);
    // As multipath -ll: a count and the words ('0' when there are none, no trailing space).
    const auto counted = [](const QStringList &words) {
        return (QString::number(words.size()) + QLatin1Char(' ') + words.join(QLatin1Char(' '))).trimmed();
    };
    out += QStringLiteral("size=%1 features='%2' hwhandler='%3' wp=%4\n")
               .arg(humanSize(m.sizeBytes), counted(m.features), counted(m.hwHandler),
                   dev && dev->readOnly ? QStringLiteral("ro") : QStringLiteral("rw"));
    if (!m.groupsKnown) {
        out += QStringLiteral("`- path groups unknown: %1\n").arg(m.groupsUnknownReason);
        for (int i = 0; i < m.slaves.size(); ++i) {
            const BlockDevice *p = snapshot.device(m.slaves[i]);
            out += QStringLiteral("   %1 %2 %3 %4\n")
                       .arg(i + 1 == m.slaves.size() ? QStringLiteral("`-") : QStringLiteral("|-"),
                           p ? p->scsi.hctl : QString(), m.slaves[i], p ? p->devnum : QString());
        }
        return out;
    }
    static const QHash<QString, QString> groupState { { QStringLiteral("A"), QStringLiteral("active") },
        { QStringLiteral("E"), QStringLiteral("enabled") }, { QStringLiteral("D"), QStringLiteral("disabled") } };
    for (int gi = 0; gi < m.groups.size(); ++gi) {
        const auto &g = m.groups[gi];
        const bool lastGroup = gi + 1 == m.groups.size();
        const MultipathdGroupView *gv = nullptr;
        for (const MultipathdGroupView &candidate : view ? view->groups : QList<MultipathdGroupView>()) {
            if (candidate.number == g.index)
                gv = &candidate;
        }
        out += QStringLiteral("%1 policy='%2'%3 status=%4\n")
                   .arg(lastGroup ? QStringLiteral("`-+-") : QStringLiteral("|-+-"),
                       g.selector + QLatin1Char(' ') + counted(g.selectorArgs), // 'service-time 0', as multipath -ll
                       gv ? QStringLiteral(" prio=%1").arg(gv->priority) : QString(),
                       groupState.value(g.state, g.state));
        for (int pi = 0; pi < g.paths.size(); ++pi) {
            const auto &p = g.paths[pi];
            const BlockDevice *pd = snapshot.device(p.name);
            QString state = p.state == QLatin1String("A") ? QStringLiteral("active") : QStringLiteral("failed");
            for (const MultipathdPathView &pv : gv ? gv->paths : QList<MultipathdPathView>()) {
                if (pv.devT == p.devnum) // "active ready running", as multipath -ll
                    state += QStringLiteral(" %1 %2").arg(pv.checkerState, pv.deviceState);
            }
            out += QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
                       .arg(lastGroup ? QStringLiteral(" ")
                                      : QStringLiteral("|"), // "| `- 6:0:0:0 sdd", as multipath -ll
                           pi + 1 == g.paths.size() ? QStringLiteral("`-") : QStringLiteral("|-"),
                           pd ? pd->scsi.hctl : QStringLiteral("-"), p.name.isEmpty() ? QStringLiteral("?") : p.name,
                           p.devnum, state)
                       .arg(QStringLiteral("fail_count=%1").arg(p.failCount));
        }
    }
    return out;
}

QString nvmeHeadToText(const NvmeMultipathHead &head)
{
    QString out = QStringLiteral("%1 (%2) nsid %3, %4, wwid %5: native NVMe multipath, %6 of %7 paths usable\n")
                      .arg(head.name, head.devnum.isEmpty() ? QStringLiteral("?") : head.devnum,
                          head.nsid.isEmpty() ? QStringLiteral("?") : head.nsid, humanSize(head.sizeBytes),
                          head.wwid.isEmpty() ? QStringLiteral("?") : head.wwid)
                      .arg(head.usablePaths())
                      .arg(head.paths.size());
    // The block nvme list-subsys prints for the namespace.
    const NvmeSubsystemInfo &sub = head.subsystem;
    const QString indent(sub.name.size() + 3, QLatin1Char(' '));
    out += QStringLiteral("%1 - NQN=%2\n").arg(sub.name, sub.nqn);
    if (!sub.iopolicy.isEmpty())
        out += indent + QStringLiteral("iopolicy=") + sub.iopolicy + QLatin1Char('\n');
    out += QStringLiteral("\\\n");
    for (const NvmePath &p : head.paths) {
        QStringList fields { p.controller, p.transport, p.address, p.state.isEmpty() ? QStringLiteral("?") : p.state };
        if (!p.anaState.isEmpty())
            fields << p.anaState;
        fields.removeAll(QString());
        out += QStringLiteral(" +- ") + fields.join(QLatin1Char(' '));
        QStringList extra { p.name };
        if (!p.queueDepth.isEmpty())
            extra << QStringLiteral("queue_depth=") + p.queueDepth;
        if (!p.numaNodes.isEmpty())
            extra << QStringLiteral("numa_nodes=") + p.numaNodes;
        out += QStringLiteral(" (") + extra.join(QLatin1Char(' ')) + QStringLiteral(")\n");
    }
    if (head.paths.size() == 1)
        out += QStringLiteral("  one path only: no failover for %1\n").arg(head.name);
    if (head.iostats == QLatin1String("0"))
        out += QStringLiteral("  statistics: the kernel counts no I/O on %1 (queue/iostats 0); its paths count it\n")
                   .arg(head.name);
    return out;
}

} // namespace dmtune
