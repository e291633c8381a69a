// dmtune: the desktop workbench. Options only; the window does the rest.
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>

#include <cstdio>

using namespace dmtune;

namespace {

// --screenshot: wait for the first snapshot, let the layout settle, save a grab, quit.
// For the README and for CI, where nobody looks at the screen.
void saveScreenshotWhenShown(MainWindow &window, const QString &file, const QString &select)
{
    QObject::connect(
        &window, &MainWindow::snapshotShown, &window,
        [&window, file, select] {
            if (!select.isEmpty() && !window.selectDevice(select))
                std::fprintf(stderr, "dmtune: --select %s: no such device in the tree\n", qPrintable(select));
            QTimer::singleShot(400, &window, [&window, file] {
                const bool saved = window.grab().save(file);
                if (!saved)
                    std::fprintf(stderr, "dmtune: could not write %s\n", qPrintable(file));
                QCoreApplication::exit(saved ? 0 : 1);
            });
        },
        Qt::SingleShotConnection);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("dmtune"));
    QCoreApplication::setApplicationName(QStringLiteral("dmtune"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DMTUNE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/dmtune.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Block-layer and dm-multipath tuning workbench."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption sysfsRoot(QStringLiteral("sysfs-root"),
                                       QStringLiteral("Inspect a captured sysfs tree instead of /sys (read-only)."),
                                       QStringLiteral("DIR"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save a picture of the window after the first scan and exit."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption select(QStringLiteral("select"), QStringLiteral("Select a device at start."),
                                    QStringLiteral("NAME"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size for --screenshot (default 1400x900)."),
                                  QStringLiteral("WxH"), QStringLiteral("1400x900"));
    parser.addOptions({sysfsRoot, screenshot, select, size});
    parser.process(app);

    SysfsRoot sysfs;
    if (parser.isSet(sysfsRoot)) {
        const QString dir = parser.value(sysfsRoot);
        if (!QFileInfo(dir).isDir()) {
            std::fprintf(stderr, "dmtune: --sysfs-root %s: not a directory\n", qPrintable(dir));
            return 2;
        }
        // A captured tree has no matching /proc: the live one would describe another machine.
        sysfs = SysfsRoot(dir, QString());
    }

    MainWindow window(sysfs);
    if (parser.isSet(screenshot)) {
        // Settings are left alone so the picture depends on the options only.
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        window.resize(wh.value(0).toInt() > 0 ? wh.value(0).toInt() : 1400, wh.value(1).toInt() > 0 ? wh.value(1).toInt() : 900);
        saveScreenshotWhenShown(window, parser.value(screenshot), parser.value(select));
    } else {
        window.restoreSettings();
        if (parser.isSet(select)) {
            const QString name = parser.value(select);
            QObject::connect(&window, &MainWindow::snapshotShown, &window, [&window, name] { window.selectDevice(name); },
                             Qt::SingleShotConnection);
        }
    }
    window.show();
    window.start();
    return app.exec();
}
