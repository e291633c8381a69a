#pragma once
// A loop device over a sparse file in a temporary directory, made for one test and undone whatever happens:
// the queue attributes the test changed are restored, the device is detached and the file deleted when the
// object goes away. Only this device is ever touched.
#include "core/sysfs/sysfsroot.h"

#include <QHash>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <QFile>

#include <unistd.h>

namespace dmtune::live {

class ScratchLoop {
public:
    // Why the live tests cannot run here, or empty.
    static QString unavailableReason(const QStringList &tools)
    {
        if (::geteuid() != 0)
            return QStringLiteral("needs root (losetup, sysfs writes)");
        for (const QString &tool : tools) {
            if (QStandardPaths::findExecutable(tool).isEmpty()
                && QStandardPaths::findExecutable(tool, { QStringLiteral("/usr/sbin"), QStringLiteral("/sbin") })
                       .isEmpty())
                return QStringLiteral("%1 not installed").arg(tool);
        }
        return {};
    }

    ScratchLoop() = default;
    ScratchLoop(const ScratchLoop &) = delete;
    ScratchLoop &operator=(const ScratchLoop &) = delete;
    ~ScratchLoop() { release(); }

    // Creates a sparse file of `bytes` and attaches it with direct I/O; false with error() on failure.
    bool create(qint64 bytes)
    {
        if (!m_dir.isValid())
            return fail(QStringLiteral("no temporary directory"));
        m_file = m_dir.filePath(QStringLiteral("backing.img"));
        QFile file(m_file);
        if (!file.open(QIODevice::WriteOnly) || !file.resize(bytes)) // resize: sparse, nothing written
            return fail(QStringLiteral("cannot create %1: %2").arg(m_file, file.errorString()));
        file.close();
        QProcess losetup;
        losetup.start(QStringLiteral("losetup"),
            { QStringLiteral("--find"), QStringLiteral("--show"), QStringLiteral("--direct-io=on"), m_file });
        if (!losetup.waitForFinished(30000) || losetup.exitCode() != 0)
            return fail(
                QStringLiteral("losetup: %1").arg(QString::fromLocal8Bit(losetup.readAllStandardError()).trimmed()));
        m_device = QString::fromLocal8Bit(losetup.readAllStandardOutput()).trimmed();
        if (!m_device.startsWith(QLatin1String("/dev/loop")))
            return fail(QStringLiteral("losetup printed '%1'").arg(m_device));
        return true;
    }

    // The usual start of a live test: a device of `bytes` with the mq-deadline scheduler (which merges).
    // Empty on success, else why not (for QSKIP).
    QString createWithMqDeadline(const SysfsRoot &root, qint64 bytes)
    {
        if (!create(bytes))
            return m_error;
        const Status scheduler = setQueue(root, QStringLiteral("scheduler"), QStringLiteral("mq-deadline"));
        if (!scheduler)
            return QStringLiteral("mq-deadline unavailable: ") + scheduler.errorMessage();
        return {};
    }

    QString devicePath() const { return m_device; } // /dev/loopN
    QString name() const { return m_device.mid(5); } // loopN
    QString error() const { return m_error; }

    // Writes block/<name>/queue/<attribute>, remembering the old value for the restore.
    Status setQueue(const SysfsRoot &root, const QString &attribute, const QString &value)
    {
        const QString rel = QStringLiteral("block/%1/queue/%2").arg(name(), attribute);
        if (!m_saved.contains(attribute)) {
            QString old = root.readOr(rel);
            // "none [mq-deadline] kyber" -> "mq-deadline"
            const qsizetype open = old.indexOf(u'[');
            if (open >= 0)
                old = old.mid(open + 1, old.indexOf(u']') - open - 1);
            m_saved.insert(attribute, old);
        }
        return root.write(rel, value);
    }

    void release()
    {
        if (m_device.isEmpty())
            return;
        const SysfsRoot root;
        for (auto it = m_saved.constBegin(); it != m_saved.constEnd(); ++it) {
            const Status restored = root.write(QStringLiteral("block/%1/queue/%2").arg(name(), it.key()), it.value());
            if (!restored)
                qWarning("%s: %s not put back: %s", qPrintable(name()), qPrintable(it.key()),
                    qPrintable(restored.errorMessage()));
        }
        m_saved.clear();
        QProcess::execute(QStringLiteral("losetup"), { QStringLiteral("-d"), m_device });
        m_device.clear();
        QFile::remove(m_file); // the directory goes with m_dir
    }

private:
    bool fail(const QString &message)
    {
        m_error = message;
        return false;
    }

    QTemporaryDir m_dir;
    QString m_file;
    QString m_device;
    QString m_error;
    QHash<QString, QString> m_saved;
};

// fio on the scratch device, 4K sequential direct writes with batched submission (the STYLE.md recipe that
// makes mq-deadline merge): started asynchronously, so the sampler keeps ticking.
inline QStringList batchedWriteJob(const QString &device, int seconds)
{
    return { QStringLiteral("--name=w"), QStringLiteral("--filename=") + device, QStringLiteral("--rw=write"),
        QStringLiteral("--bs=4k"), QStringLiteral("--direct=1"), QStringLiteral("--ioengine=libaio"),
        QStringLiteral("--iodepth=32"), QStringLiteral("--iodepth_batch_submit=16"),
        QStringLiteral("--iodepth_batch_complete_min=8"), QStringLiteral("--time_based"),
        QStringLiteral("--runtime=%1").arg(seconds), QStringLiteral("--output=/dev/null") };
}

} // namespace dmtune::live
