// dmtune-report: `dmtunectl report`, in its own program because it draws (QCustomPlot charts need a
// QApplication and the GUI libraries) while every other dmtunectl command starts without them.
#include "cli.h"

#include <QApplication>

#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    // No display (a server, CI, ssh): draw off screen.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // What Qt would pick without XDG_RUNTIME_DIR (a root shell, sudo), minus its warning on stderr.
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        const QByteArray dir = "/tmp/runtime-" + QByteArray::number(::getuid());
        if (::mkdir(dir.constData(), 0700) == 0 || errno == EEXIST)
            qputenv("XDG_RUNTIME_DIR", dir);
    }
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("dmtunectl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DMTUNE_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    if (args.value(0) != QLatin1String("report"))
        args.prepend(QStringLiteral("report"));
    return dmtune::cli::runReport(args, dmtune::cli::Streams { out, err, QStringLiteral("report") });
}
