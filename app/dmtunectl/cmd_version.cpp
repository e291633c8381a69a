// dmtunectl version: what dmtune stands on (Qt, libudev, libdevmapper and the kernel's dm driver,
// fio, the kernel), as the GUI's About dialog shows it. `dmtunectl --version` stays one line.
#include "cli.h"

#include "core/versions/componentversions.h"

#include <QCoreApplication>
#include <QJsonDocument>

namespace dmtune::cli {

int runVersion(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Versions of dmtune, Qt, libudev, libdevmapper (and the "
                                                    "kernel's dm driver), fio and the kernel."));
    parser.addOption({ QStringLiteral("json"), QStringLiteral("Print a JSON object.") });
    parser.addHelpOption();
    int exitCode = ExitOk;
    if (!parseOrUsage(parser, args, io, &exitCode))
        return exitCode;
    if (parser.positionalArguments().size() > 1)
        return usageError(io, QStringLiteral("version takes no arguments"));

    QList<ComponentVersion> versions = localComponentVersions(SysfsRoot());
    FioVersionProbe fio;
    QObject::connect(&fio, &FioVersionProbe::finished, &fio, [&versions](const ComponentVersion &v) {
        versions.append(v);
        QCoreApplication::exit(0);
    });
    fio.start();
    if (!fio.isFinished())
        QCoreApplication::exec(); // a command line may wait: until the probe answers (or its timeout)

    if (parser.isSet(QStringLiteral("json")))
        io.out << QJsonDocument(componentVersionsToJson(versions)).toJson(QJsonDocument::Indented);
    else
        io.out << componentVersionsToText(versions);
    io.out.flush();
    return ExitOk;
}

} // namespace dmtune::cli
