#pragma once
// The one place sysfs (and procfs) paths are built: tests and captured trees swap the root.
#include "util/result.h"

#include <QString>
#include <QStringList>

namespace dmtune {

class SysfsRoot
{
public:
    // root: the directory that stands for /sys. procRoot: the one for /proc (empty: none,
    // as for a captured tree without a proc capture).
    explicit SysfsRoot(QString root = QStringLiteral("/sys"), QString procRoot = QStringLiteral("/proc"));

    // A root other than the live /sys is inspected read-only.
    bool isLive() const { return m_live; }
    const QString &root() const { return m_root; }
    const QString &procRoot() const { return m_procRoot; }

    // Absolute path of a path relative to the root ("block/sda/queue/nr_requests").
    QString path(const QString &relative) const;
    QString procPath(const QString &relative) const;

    // The trimmed text of an attribute; an error says why it is unavailable.
    Result<QString> read(const QString &relative) const;
    // The raw text (not trimmed), for multi-line files.
    Result<QString> readRaw(const QString &relative) const;
    QString readOr(const QString &relative, const QString &fallback = {}) const;
    Result<QString> readProc(const QString &relative) const;

    bool exists(const QString &relative) const;
    bool isDir(const QString &relative) const;
    // Entry names of a directory (no . and ..), sorted; empty when missing.
    QStringList list(const QString &relative) const;
    // Target of a symlink, relative to the root when it stays inside it ("devices/pci0000:00/...");
    // empty when it is not a link or leaves the root.
    QString linkTarget(const QString &relative) const;
    // The last component of a link's target (e.g. "0:0:0:0" for block/sda/device).
    QString linkName(const QString &relative) const;
    // Whether the owner may write the file (mode bits; the write itself re-checks).
    bool isWritable(const QString &relative) const;

    // Write an attribute (live root only). The error carries errno's text.
    Status write(const QString &relative, const QString &value) const;

private:
    QString m_root;
    QString m_procRoot;
    bool m_live;
};

} // namespace dmtune
