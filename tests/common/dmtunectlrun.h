#pragma once
// The CLI tests' one way to run the build tree's dmtunectl: exit code (-1 when it crashed or was killed after
// the timeout), stdout and stderr.
#include "testpaths.h"

#include <QProcess>
#include <QString>
#include <QStringList>

namespace clitest {

struct Run {
    int exitCode = -1;
    QString out, err;
};

inline Run dmtunectl(const QStringList &args, int timeoutMs = 60000)
{
    QProcess p;
    p.start(DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl"), args);
    Run r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace clitest
