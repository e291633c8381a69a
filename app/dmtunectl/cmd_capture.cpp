// dmtunectl capture: a copy of what dmtune reads of this system, for a support engineer's --sysfs-root.
#include "cli.h"

#include "core/discovery/devicesnapshot.h"
#include "core/discovery/sysfscapture.h"
#include "core/dm/backend/dmavailability.h"
#include "core/dm/backend/libdevmapperbackend.h"
#include "core/dm/multipathd/multipathdclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

namespace dmtune::cli {

int runCapture(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Copy what dmtune reads of this system (block devices, their queues, SCSI/NVMe devices and hosts,\n"
        "module parameters, /proc/diskstats), device-mapper's tables and statuses and multipathd's view of its\n"
        "maps (priorities, checker states) into DIR.\n"
        "Open it anywhere with: dmtune --sysfs-root DIR, dmtunectl list --sysfs-root DIR.\n"
        "Reads only; needs root for device-mapper tables."));
    parser.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("A new directory (created, mode 0700)."));
    parser.addOption({ QStringLiteral("json"), QStringLiteral("Print the summary as JSON.") });
    addCommonOptions(parser);
    int exitCode = ExitOk;
    if (!parseOrUsage(parser, args, io, &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return usageError(io, QStringLiteral("capture: give one directory"));
    const SysfsRoot source = sysfsRootFrom(parser);

    DeviceMapperState state;
    std::unique_ptr<LibDevmapperBackend> backend;
    std::optional<MultipathdCapture> multipathd;
    if (source.isLive()) {
        // Its priorities and checker states, which a remote window shows from this capture.
        multipathd = MultipathdCapture { MultipathdClient::isRunning(), {}, {} };
        if (multipathd->running) {
            const auto maps = MultipathdClient().showMapsJson();
            if (maps)
                multipathd->mapsJson = maps.value();
            else
                multipathd->error = maps.errorMessage();
        }
        const DmAvailability availability = checkDeviceMapper(source);
        state.available = availability.available;
        state.reason = availability.reason;
        if (availability.available) {
            backend = std::make_unique<LibDevmapperBackend>(source);
            state.driverVersion = backend->driverVersion();
            state.libraryVersion = LibDevmapperBackend::libraryVersion();
        }
    } else {
        state.reason = QStringLiteral("copied from a captured tree");
    }
    const auto report = captureSystem(source, positional.first(), backend.get(), state, multipathd);
    if (!report)
        return fail(io, report.errorMessage());
    const CaptureReport &r = report.value();
    if (parser.isSet(QStringLiteral("json"))) {
        const QJsonObject o { { QStringLiteral("directory"), positional.first() }, { QStringLiteral("files"), r.files },
            { QStringLiteral("links"), r.links }, { QStringLiteral("maps"), r.maps },
            { QStringLiteral("skipped"), QJsonArray::fromStringList(r.skipped) } };
        io.out << QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else {
        io.out << QStringLiteral("%1: %2, %3, %4")
                      .arg(positional.first(), counted(r.files, QStringLiteral("file")),
                          counted(r.links, QStringLiteral("link")),
                          counted(r.maps, QStringLiteral("device-mapper map")))
               << '\n';
        if (!state.available)
            io.out << "device-mapper: " << state.reason << '\n';
        if (!r.skipped.isEmpty())
            io.out << counted(r.skipped.size(), QStringLiteral("attribute")) << " unreadable now (listed in "
                   << "dmtune-capture.json)\n";
    }
    return ExitOk;
}

} // namespace dmtune::cli
