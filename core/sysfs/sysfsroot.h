#pragma once
// The one place sysfs (and procfs) paths are built: tests and captured trees swap the root.
// A root other than the live /sys is untrusted (a customer's capture): every read stays inside it (no
// link leads out), takes regular files only, never blocks (a FIFO) and is size-capped. It is never
// written. Only the live root, and a scratch tree this process built (tests), can be written.
#include "core/util/result.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace dmtune {

class SysfsRoot {
public:
    // root: the directory that stands for /sys. procRoot: the one for /proc (empty: none,
    // as for a captured tree without a proc capture).
    // Any root but /sys is a captured tree: read-only.
    explicit SysfsRoot(QString root = QStringLiteral("/sys"), QString procRoot = QStringLiteral("/proc"));
    // A tree this process built and may write like /sys (tests): read and written as /sys is, but not
    // the kernel's: device-mapper, udev and fio are never pointed at it.
    static SysfsRoot scratch(QString root, QString procRoot = QString());

    // The running kernel's /sys: udev, device-mapper and devices belong to it.
    bool isLive() const { return m_kind == Kind::Live; }
    // Whether write() may change anything: the live root or a scratch tree, never a captured one.
    bool isWritable() const { return m_kind != Kind::Captured; }
    // Success for a writable root; else the one-line refusal that every write path returns.
    Status checkWritable() const;
    const QString &root() const { return m_root; }
    const QString &procRoot() const { return m_procRoot; }

    // Absolute path of a path relative to the root ("block/sda/queue/nr_requests").
    QString path(const QString &relative) const;
    QString procPath(const QString &relative) const;
    // For code that opens by path itself (the sampler's kept-open files): path()/procPath() for the live
    // and scratch roots; for a captured one the path with every link resolved inside the tree, so that
    // opening it follows none, or empty when it leaves the tree or is missing.
    QString resolvedPath(const QString &relative) const;
    QString resolvedProcPath(const QString &relative) const;

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
    // linkTarget(dir + "/" + leaf) for a dir that linkTarget() gave (no link on its way): on the live root no
    // directory is resolved again.
    QString linkTargetIn(const QString &resolvedDir, const QString &leaf) const;
    // linkTarget() of every entry of a directory that is no link (dev/block), by entry name; the links only.
    QHash<QString, QString> linkTargets(const QString &dir) const;
    // The last component of a link's target (e.g. "0:0:0:0" for block/sda/device).
    QString linkName(const QString &relative) const;
    // Whether the owner may write the file (mode bits; the write itself re-checks).
    bool isWritable(const QString &relative) const;

    // Write an attribute (live or scratch root; a captured one refuses). The error carries errno's text.
    Status write(const QString &relative, const QString &value) const;

    // Reads refuse bigger files (a sysfs text attribute is at most one page; /proc/diskstats of
    // thousands of devices is a few MiB).
    static constexpr qint64 maxAttributeBytes = 1 << 20;
    static constexpr qint64 maxProcBytes = 16 << 20;

private:
    enum class Kind { Live, Captured, Scratch };
    // Live and scratch trees are read with plain opens; a captured one through beneath::open.
    bool trusted() const { return m_kind != Kind::Captured; }
    Result<QString> readUnder(const QString &root, const QString &relative, qint64 cap) const;
    // The live root's link `leaf` in the resolved directory `dir` (relative to the root), cleaned against it.
    QString readLiveLink(const QByteArray &dir, const QByteArray &leaf) const;

    QString m_root;
    QString m_procRoot;
    Kind m_kind;
};

} // namespace dmtune
