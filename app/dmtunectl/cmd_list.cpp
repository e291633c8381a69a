// dmtunectl list: every block device and multipath map, as a tree or as JSON.
#include "cli.h"

#include "core/discovery/discovery.h"
#include "core/discovery/nvmewarnings.h"
#include "core/discovery/snapshotjson.h"
#include "core/discovery/sysfscapture.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace dmtune::cli {

namespace {

// multipathd's view of the maps it manages, for their priorities and checker states (what multipath -ll shows
// beside the kernel's states). `status` is {"running": false} without multipathd, with its error when it does
// not answer.
struct MultipathdViews {
    QJsonObject status;
    QList<MultipathdMapView> maps;
    const MultipathdMapView *find(const QString &map) const
    {
        for (const MultipathdMapView &view : maps) {
            if (view.name == map)
                return &view;
        }
        return nullptr;
    }
};

// Asked now, or as a capture recorded it ("captured": true; "recorded": false when it says nothing of multipathd).
MultipathdViews multipathdViewsOf(const SysfsRoot &sysfs)
{
    const MultipathdKnowledge known = multipathdKnowledgeOf(sysfs);
    MultipathdViews views;
    views.status.insert(QStringLiteral("running"), known.running);
    if (known.captured) {
        views.status.insert(QStringLiteral("captured"), true);
        if (!known.recorded)
            views.status.insert(QStringLiteral("recorded"), false);
    }
    if (known.maps)
        views.maps = known.maps.value();
    else if (known.running)
        views.status.insert(QStringLiteral("error"), known.maps.errorMessage());
    return views;
}

void addMultipathdViews(QJsonObject *doc, const MultipathdViews &views)
{
    QJsonArray maps = doc->value(QStringLiteral("maps")).toArray();
    for (qsizetype i = 0; i < maps.size(); ++i) {
        QJsonObject map = maps.at(i).toObject();
        if (const MultipathdMapView *view = views.find(map.value(QStringLiteral("name")).toString())) {
            addMultipathdView(&map, *view);
            maps[i] = map;
        }
    }
    doc->insert(QStringLiteral("maps"), maps);
    doc->insert(QStringLiteral("multipathd"), views.status);
}

QString sizeText(qint64 bytes)
{
    if (bytes < 0)
        return QStringLiteral("?");
    const char *units[] = { "B", "K", "M", "G", "T", "P" };
    double v = double(bytes);
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        ++u;
    }
    return QString::number(v, 'f', u == 0 ? 0 : 1) + QLatin1String(units[u]);
}

QString deviceLine(const BlockDevice &d)
{
    QStringList identity;
    if (!d.vendor.isEmpty())
        identity << d.vendor;
    if (!d.model.isEmpty())
        identity << d.model;
    QString line = QStringLiteral("%1 %2 %3 %4")
                       .arg(d.name.leftJustified(10), d.devnum.leftJustified(8),
                           deviceKindName(d.kind).leftJustified(10), sizeText(d.sizeBytes).rightJustified(7));
    if (!identity.isEmpty())
        line += QLatin1Char(' ') + identity.join(QLatin1Char(','));
    if (d.kind == DeviceKind::Scsi && !d.scsi.hctl.isEmpty())
        line += QStringLiteral(" hctl=") + d.scsi.hctl;
    if (!d.wwid.isEmpty())
        line += QStringLiteral(" wwid=") + d.wwid;
    if (!d.scheduler.isEmpty())
        line += QStringLiteral(" sched=") + d.scheduler;
    if (d.kind == DeviceKind::Loop && !d.loopBackingFile.isEmpty())
        line += QStringLiteral(" file=") + d.loopBackingFile;
    if (!d.holders.isEmpty())
        line += QStringLiteral(" holders=") + d.holders.join(QLatin1Char(','));
    if (!d.slaves.isEmpty())
        line += QStringLiteral(" slaves=") + d.slaves.join(QLatin1Char(','));
    return line;
}

void printText(
    const DeviceSnapshot &s, const MultipathdViews &views, const QList<NvmeWarning> &warnings, QTextStream &out)
{
    for (const auto &m : s.maps)
        out << mapToText(m, s, views.find(m.name));
    for (const auto &head : s.nvmeMultipath)
        out << nvmeHeadToText(head);
    for (const NvmeWarning &w : warnings)
        out << "warning: " << w.message << '\n';
    if (!s.maps.isEmpty() || !s.nvmeMultipath.isEmpty() || !warnings.isEmpty())
        out << '\n';
    out << QStringLiteral("%1 %2 %3 %4 IDENTITY\n")
               .arg(QStringLiteral("NAME").leftJustified(10), QStringLiteral("MAJ:MIN").leftJustified(8),
                   QStringLiteral("KIND").leftJustified(10), QStringLiteral("SIZE").rightJustified(7));
    for (const auto &d : s.devices) {
        out << deviceLine(d) << '\n';
        for (int i = 0; i < d.partitions.size(); ++i) {
            const auto &p = d.partitions[i];
            out << (i + 1 == d.partitions.size() ? "`-" : "|-") << p.name << ' ' << p.devnum << ' '
                << sizeText(p.sizeBytes);
            if (!p.holders.isEmpty())
                out << " holders=" << p.holders.join(QLatin1Char(','));
            out << '\n';
        }
    }
    if (!s.deviceMapper.available)
        out << "\ndevice-mapper: " << s.deviceMapper.reason << '\n';
}

} // namespace

int runList(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("List block devices and dm-multipath maps."));
    parser.addOption({ QStringLiteral("json"), QStringLiteral("Print JSON (format in README.md).") });
    parser.addOption({ QStringLiteral("no-multipathd"),
        QStringLiteral("Do not ask multipathd for path priorities and checker states (of a capture: do not show\n"
                       "what it recorded of them).") });
    addCommonOptions(parser);
    int code = ExitOk;
    if (!parseOrUsage(parser, args, io, &code))
        return code;
    if (!parser.positionalArguments().isEmpty())
        return usageError(io, QStringLiteral("list takes no arguments"));
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    if (!sysfs.isDir(QStringLiteral("block")))
        return fail(io, QStringLiteral("%1: no block/ directory (not a sysfs tree)").arg(sysfs.root()));
    const DeviceSnapshot snapshot = Discovery::scan(sysfs);
    const bool askIt = !snapshot.maps.isEmpty() && !parser.isSet(QStringLiteral("no-multipathd"));
    const MultipathdViews views = askIt ? multipathdViewsOf(sysfs) : MultipathdViews {};
    // From the same root as the snapshot: a capture (also a remote host's) has nvme_core's parameters.
    const QList<NvmeWarning> warnings = nvmeWarnings(sysfs, snapshot);
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonObject doc = snapshotToJson(snapshot);
        if (askIt)
            addMultipathdViews(&doc, views);
        doc.insert(QStringLiteral("nvme_warnings"), nvmeWarningsToJson(warnings));
        io.out << QJsonDocument(doc).toJson(QJsonDocument::Indented);
    } else {
        printText(snapshot, views, warnings, io.out);
    }
    io.out.flush();
    return ExitOk;
}

} // namespace dmtune::cli
