// dmtune: the desktop workbench. Options only; the window does the rest.
#include "core/discovery/sysfscapture.h"
#include "mainwindow.h"
#include "widgets/params/parametereditor.h"
#include "widgets/params/tunabletablemodel.h"
#include "widgets/translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>

#include <cstdio>

using namespace dmtune;

namespace {

struct StartOptions {
    QString select;
    QString tab; // details, tune, paths, statistics, experiment, latency
    QString sweep; // an earlier sweep's folder, shown in the Experiment tab
    QStringList edits; // ATTR=VALUE pending edits in the Tune tab (nothing is written)
    QString scope; // device, map, paths
    bool explain = false; // the Explain pane shown
};

// --select, --tab, --edit, --scope once the first snapshot is shown.
void applyStartOptions(MainWindow &window, const StartOptions &options)
{
    if (!options.select.isEmpty() && !window.selectDevice(options.select))
        std::fprintf(stderr, "dmtune: --select %s: no such device in the tree\n", qPrintable(options.select));
    if (!options.sweep.isEmpty()) {
        QString error;
        if (!window.openSweepResults(options.sweep, &error))
            std::fprintf(stderr, "dmtune: --sweep %s\n", qPrintable(error));
    }
    if (options.explain)
        window.showExplain();
    if (!options.tab.isEmpty() && !window.showTab(options.tab))
        std::fprintf(stderr, "dmtune: --tab %s: use details, tune, paths, statistics, experiment or latency\n",
            qPrintable(options.tab));
    ParameterEditor *editor = window.parameterEditor();
    // The edits need the device's tunables, which are read on a job: once they are in the table.
    auto edit = [editor, options] {
        for (const QString &edit : options.edits) {
            const auto a = parseAssignment(edit);
            if (!a || !editor->model()->setPending(a->attribute, a->value))
                std::fprintf(stderr, "dmtune: --edit %s: not accepted for %s\n", qPrintable(edit),
                    qPrintable(editor->shownDevice()));
        }
        if (options.scope == QLatin1String("map"))
            editor->setScope(ChangeScope::MapAndPaths);
        else if (options.scope == QLatin1String("paths"))
            editor->setScope(ChangeScope::PathsOfMap);
        else if (!options.scope.isEmpty() && options.scope != QLatin1String("device"))
            std::fprintf(stderr, "dmtune: --scope %s: use device, map or paths\n", qPrintable(options.scope));
        editor->updatePreview();
    };
    if (editor->isReading() && !options.edits.isEmpty())
        QObject::connect(editor, &ParameterEditor::tunablesRead, editor, edit, Qt::SingleShotConnection);
    else
        edit();
}

// --screenshot: wait for the first snapshot, let the layout settle, save a grab, quit.
// For the README and for CI, where nobody looks at the screen.
void saveScreenshotWhenShown(MainWindow &window, const QString &file, const StartOptions &options, int delayMs)
{
    QObject::connect(
        &window, &MainWindow::snapshotShown, &window,
        [&window, file, options, delayMs] {
            applyStartOptions(window, options);
            QTimer::singleShot(delayMs, &window, [&window, file] {
                const bool saved = window.grab().save(file);
                if (!saved)
                    std::fprintf(stderr, "dmtune: could not write %s\n", qPrintable(file));
                QCoreApplication::exit(saved ? 0 : 1);
            });
        },
        Qt::SingleShotConnection);
}

// Over ssh without X a storage admin gets Qt's abort (and a core dump) for any invocation. --help and
// --version need no display: they run on the offscreen platform. Anything else is told what to do.
// Returns false when the program should stop (the reason is printed).
bool choosePlatformWithoutDisplay(int argc, char **argv)
{
    if (qEnvironmentVariableIsSet("QT_QPA_PLATFORM") || qEnvironmentVariableIsSet("DISPLAY")
        || qEnvironmentVariableIsSet("WAYLAND_DISPLAY"))
        return true;
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" || arg == "--version") {
            qputenv("QT_QPA_PLATFORM", "offscreen");
            return true;
        }
    }
    std::fputs("dmtune: no display (neither DISPLAY nor WAYLAND_DISPLAY is set). Use dmtunectl on a terminal, "
               "ssh -X, or QT_QPA_PLATFORM=offscreen with --screenshot.\n",
        stderr);
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    if (!choosePlatformWithoutDisplay(argc, argv))
        return 1;
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("dmtune"));
    QCoreApplication::setApplicationName(QStringLiteral("dmtune"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DMTUNE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/dmtune.svg")));
    // Before the options: their descriptions in --help are translated where they are made.
    installTranslations(QLocale());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("CommandLine", "Block-layer and dm-multipath tuning workbench."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption sysfsRoot(QStringLiteral("sysfs-root"),
        QCoreApplication::translate("CommandLine", "Inspect a captured sysfs tree instead of /sys (read-only)."),
        QStringLiteral("DIR"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QCoreApplication::translate("CommandLine", "Save a picture of the window after the first scan and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption select(QStringLiteral("select"),
        QCoreApplication::translate("CommandLine", "Select a device at start."), QStringLiteral("NAME"));
    const QCommandLineOption size(QStringLiteral("size"),
        QCoreApplication::translate("CommandLine", "Window size for --screenshot (default 1400x900)."),
        QStringLiteral("WxH"), QStringLiteral("1400x900"));
    const QCommandLineOption tab(QStringLiteral("tab"),
        QCoreApplication::translate(
            "CommandLine", "Tab shown at start: details, tune, paths, statistics, experiment or latency."),
        QStringLiteral("NAME"));
    const QCommandLineOption sweep(QStringLiteral("sweep"),
        QCoreApplication::translate("CommandLine",
            "Show an earlier sweep's results (its folder of recordings and sweep.json) in the Experiment tab."),
        QStringLiteral("DIR"));
    const QCommandLineOption edit(QStringLiteral("edit"),
        QCoreApplication::translate("CommandLine",
            "A pending edit in the Tune tab of the selected device (repeatable; previewed, never applied)."),
        QStringLiteral("ATTR=VALUE"));
    const QCommandLineOption scope(QStringLiteral("scope"),
        QCoreApplication::translate("CommandLine", "Scope of the edits: device, map or paths."),
        QStringLiteral("SCOPE"));
    const QCommandLineOption delay(QStringLiteral("screenshot-delay"),
        QCoreApplication::translate("CommandLine",
            "Seconds to wait before --screenshot grabs (default 0.4; the Statistics tab needs a few samples)."),
        QStringLiteral("SECONDS"), QStringLiteral("0.4"));
    const QCommandLineOption connectTo(QStringLiteral("connect"),
        QCoreApplication::translate("CommandLine",
            "Open a remote host's window too (over ssh, read-only; repeatable), as File > Connect to host does."),
        QStringLiteral("[USER@]HOST[:PORT]"));
    const QCommandLineOption sshConfig(QStringLiteral("ssh-config"),
        QCoreApplication::translate(
            "CommandLine", "ssh's config file for --connect and File > Connect (ssh -F; default $DMTUNE_SSH_CONFIG)."),
        QStringLiteral("FILE"));
    const QCommandLineOption remoteProgram(QStringLiteral("remote-dmtunectl"),
        QCoreApplication::translate(
            "CommandLine", "The agent's program on remote hosts (default dmtunectl; $DMTUNE_REMOTE_DMTUNECTL)."),
        QStringLiteral("PATH"));
    const QCommandLineOption explain(QStringLiteral("explain"),
        QCoreApplication::translate(
            "CommandLine", "Show the Explain pane at start: what the diagnosis rules say about the selected map."));
    const QCommandLineOption fleet(QStringLiteral("fleet"),
        QCoreApplication::translate("CommandLine", "Open a fleet window over the hosts file FILE (docs/fleet.md)."),
        QStringLiteral("FILE"));
    parser.addOptions({ sysfsRoot, screenshot, select, size, tab, sweep, edit, scope, delay, connectTo, sshConfig,
        remoteProgram, explain, fleet });
    parser.process(app);
    StartOptions start { parser.value(select), parser.value(tab), parser.value(sweep), parser.values(edit),
        parser.value(scope) };
    start.explain = parser.isSet(explain);
    // The remote hosts' ssh settings go through the environment, where File > Connect reads them too.
    if (parser.isSet(sshConfig))
        qputenv("DMTUNE_SSH_CONFIG", QFile::encodeName(parser.value(sshConfig)));
    if (parser.isSet(remoteProgram))
        qputenv("DMTUNE_REMOTE_DMTUNECTL", QFile::encodeName(parser.value(remoteProgram)));
    QList<HostAddress> hosts;
    for (const QString &text : parser.values(connectTo)) {
        const Result<HostAddress> address = parseHostAddress(text);
        if (!address) {
            std::fprintf(stderr, "dmtune: --connect: %s\n", qPrintable(address.errorMessage()));
            return 2;
        }
        hosts.append(address.value());
    }

    SysfsRoot sysfs;
    if (parser.isSet(sysfsRoot)) {
        const QString dir = parser.value(sysfsRoot);
        if (!QFileInfo(dir).isDir()) {
            std::fprintf(stderr, "dmtune: --sysfs-root %s: not a directory\n", qPrintable(dir));
            return 2;
        }
        // A capture (dmtunectl capture) brings its own /proc; another tree has none: the live one would
        // describe another machine.
        sysfs = sysfsRootForDirectory(dir);
    }

    MainWindow window(sysfs);
    if (parser.isSet(screenshot)) {
        // Settings are left alone so the picture depends on the options only.
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        window.resize(
            wh.value(0).toInt() > 0 ? wh.value(0).toInt() : 1400, wh.value(1).toInt() > 0 ? wh.value(1).toInt() : 900);
        const int delayMs = qBound(0, int(parser.value(delay).toDouble() * 1000), 600000);
        saveScreenshotWhenShown(window, parser.value(screenshot), start, delayMs);
    } else {
        window.restoreSettings();
        if (!start.select.isEmpty() || !start.tab.isEmpty() || !start.edits.isEmpty() || start.explain) {
            QObject::connect(
                &window, &MainWindow::snapshotShown, &window, [&window, start] { applyStartOptions(window, start); },
                Qt::SingleShotConnection);
        }
    }
    window.show();
    window.start();
    for (const HostAddress &host : std::as_const(hosts))
        window.openRemoteWindow(host);
    if (parser.isSet(fleet)) {
        QString error;
        if (!window.openFleet(parser.value(fleet), &error)) {
            std::fprintf(stderr, "dmtune: --fleet: %s\n", qPrintable(error));
            return 2;
        }
    }
    return app.exec();
}
