#pragma once
// What the workloads live tests share: the dmtunectl they run, a program run with its exit code and output,
// an ext4 file system with a witness file on a scratch device, and the proof that nothing wrote over it
// (fsck.ext4 -fn clean, the witness file's content unchanged).
#include "tests/common/testpaths.h"

#include <QFile>
#include <QProcess>
#include <QStringList>

#include <sys/mount.h>

namespace dmtune::live {

// The dmtunectl of this build tree (the tests depend on its target).
inline const QString dmtunectl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");

// What a test that makes and checks an ext4 witness needs besides root.
inline const QStringList ext4WitnessTools { QStringLiteral("losetup"), QStringLiteral("fio"),
    QStringLiteral("mkfs.ext4"), QStringLiteral("fsck.ext4") };

struct ProgramRun {
    int exitCode = -1;
    QString out, err;
};

// What a started process did, once it ends (killed, "timed out", after timeoutMs).
inline ProgramRun collectRun(QProcess &p, int timeoutMs)
{
    ProgramRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

inline ProgramRun runProgram(
    const QString &program, const QStringList &args, const QString &workingDirectory = {}, int timeoutMs = 60000)
{
    QProcess p;
    if (!workingDirectory.isEmpty())
        p.setWorkingDirectory(workingDirectory);
    p.start(program, args);
    return collectRun(p, timeoutMs);
}

// mkfs.ext4 on the device and one file written on it (mounted only for that).
inline bool makeExt4WithWitness(
    const QString &device, const QString &mountPoint, const QByteArray &content, QString *error)
{
    const ProgramRun mkfs
        = runProgram(QStringLiteral("mkfs.ext4"), { QStringLiteral("-q"), QStringLiteral("-F"), device });
    if (mkfs.exitCode != 0) {
        *error = QStringLiteral("mkfs.ext4: ") + mkfs.err;
        return false;
    }
    if (::mount(QFile::encodeName(device).constData(), QFile::encodeName(mountPoint).constData(), "ext4", 0, nullptr)
        != 0) {
        *error = QStringLiteral("mount failed");
        return false;
    }
    QFile file(mountPoint + QStringLiteral("/witness.txt"));
    const bool written = file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
    file.close();
    ::umount(QFile::encodeName(mountPoint).constData());
    if (!written)
        *error = QStringLiteral("cannot write the witness file");
    return written;
}

// fsck.ext4 -fn finds nothing wrong and the witness file still has its content.
inline bool ext4WitnessIntact(const QString &device, const QString &mountPoint, const QByteArray &content, QString *why)
{
    const ProgramRun fsck
        = runProgram(QStringLiteral("fsck.ext4"), { QStringLiteral("-n"), QStringLiteral("-f"), device });
    if (fsck.exitCode != 0) {
        *why = QStringLiteral("fsck.ext4 -fn: exit %1: %2")
                   .arg(fsck.exitCode)
                   .arg((fsck.out + fsck.err).left(200).toHtmlEscaped());
        return false;
    }
    if (::mount(QFile::encodeName(device).constData(), QFile::encodeName(mountPoint).constData(), "ext4", MS_RDONLY,
            nullptr)
        != 0) {
        *why = QStringLiteral("cannot mount it read-only");
        return false;
    }
    QFile file(mountPoint + QStringLiteral("/witness.txt"));
    const QByteArray read = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    file.close();
    ::umount(QFile::encodeName(mountPoint).constData());
    if (read != content)
        *why = QStringLiteral("the witness file changed");
    return read == content;
}

} // namespace dmtune::live
