// dmtunectl report: runs dmtune-report (report_main.cpp) in this process's place, so that dmtunectl
// itself links no GUI library (3x faster start, half the memory of a build that did).
#include "cli.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace dmtune::cli {

int runReport(const QStringList &args, Streams io)
{
    // Next to dmtunectl in the build tree; in libexec once installed.
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/dmtune-report");
    const QString installed = QStringLiteral(DMTUNE_LIBEXEC_DIR "/dmtune-report");
    const QString program = QFileInfo(beside).isExecutable() ? beside : installed;
    if (!QFileInfo(program).isExecutable())
        return fail(io, QStringLiteral("report: %1 is not installed (it comes with the GUI build)").arg(installed));
    // argv[0] stays dmtunectl's, so that usage and errors name the command the user typed.
    QList<QByteArray> argv { QFile::encodeName(QCoreApplication::arguments().value(0, QStringLiteral("dmtunectl"))) };
    for (const QString &a : args)
        argv.append(a.toLocal8Bit());
    std::vector<char *> pointers;
    for (QByteArray &a : argv)
        pointers.push_back(a.data());
    pointers.push_back(nullptr);
    io.out.flush();
    io.err.flush();
    const QByteArray path = QFile::encodeName(program);
    ::execv(path.constData(), pointers.data());
    return fail(
        io, QStringLiteral("report: cannot run %1: %2").arg(program, QString::fromLocal8Bit(std::strerror(errno))));
}

} // namespace dmtune::cli
