#pragma once
// The sampler's file reads. At 4,096 devices and 10 Hz, QFile's per-open work and a fresh buffer per read
// would cost more than the parsing, so: plain read(2) into a buffer reused tick after tick, and for the
// per-device attributes read again and again (inflight, stat) a cache of open descriptors re-read with
// pread at offset 0, which makes sysfs generate the text anew. On this machine's sysfs an open/read/close
// of /sys/block/X/inflight costs 8.2 µs, a pread of the open file 1.0 µs (docs/stats.md).
// The paths still come from SysfsRoot (root.resolvedPath(), root.resolvedProcPath(): links of a captured
// tree resolved inside it).
#include <QByteArray>
#include <QHash>

namespace dmtune {

// The whole file (procfs/sysfs sizes are not known before reading) into *buffer; false when it cannot be
// opened or read, with errno's text in *error when given.
bool readSmallFile(const QByteArray &path, QByteArray *buffer, QString *error = nullptr);

// Keeps up to maxOpen attribute files open. The caller marks its ticks with nextTick(): files not read in
// the last two ticks are closed then; beyond maxOpen a file is read without being kept (no eviction storm
// when thousands of devices are busy at once). An attribute whose device was deleted fails its pread (ENODEV)
// and is reopened by path, so a device recreated under the same name is read afresh. A tree of plain files
// must be rewritten in place (as tests do), not replaced by rename: an open descriptor would keep reading
// the replaced file. The kernel never replaces sysfs files.
class OpenAttributeFiles {
public:
    explicit OpenAttributeFiles(int maxOpen = 256);
    ~OpenAttributeFiles();
    OpenAttributeFiles(const OpenAttributeFiles &) = delete;
    OpenAttributeFiles &operator=(const OpenAttributeFiles &) = delete;

    bool read(const QByteArray &path, QByteArray *buffer);
    // One pread of at most `size` bytes into a caller's buffer (an attribute of a few bytes, read thousands
    // of times a second): the byte count, -1 when the file cannot be read.
    qsizetype read(const QByteArray &path, char *buffer, qsizetype size);
    void nextTick();
    void close(const QByteArray &path);
    void closeAll();
    int openCount() const { return int(m_open.size()); }

private:
    // The kept-open descriptor of path (opened and kept when under the cap) handed to readFd; a descriptor
    // whose read fails is closed and the path opened once more.
    template<typename ReadFd>
    bool readWith(const QByteArray &path, ReadFd &&readFd);

    struct Entry {
        int fd = -1;
        quint64 lastTick = 0;
    };
    int m_maxOpen;
    quint64 m_tick = 0;
    QHash<QByteArray, Entry> m_open;
};

} // namespace dmtune
