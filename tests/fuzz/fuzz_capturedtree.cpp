// libFuzzer target: discovery over a captured tree someone else made (docs/fuzzing.md, docs/capture.md).
// The input is a little program that builds a tree in a temporary directory: files with contents, links
// (relative, climbing out, absolute), FIFOs and directories, named from sysfs's words. Then the tree is
// scanned as `dmtunectl --sysfs-root` would, the stacking walk runs over every block device, and the tree
// is captured again. Checks besides "no crash, no sanitizer report, no hang (a FIFO, a slaves cycle)":
// the scan gives the same snapshot through openat2 and through the component walk of kernels without it,
// and the stacking walk lists each device at most once. The tree is built with the same no-link-followed
// primitives as dmtunectl capture, so nothing is ever created outside the temporary directory.
#include "core/discovery/devicesnapshot.h"
#include "core/discovery/discovery.h"
#include "core/discovery/snapshotjson.h"
#include "core/discovery/sysfscapture.h"
#include "core/params/stacking.h"
#include "core/sysfs/beneath.h"
#include "core/util/fd.h"

#include <QDir>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace dmtune;

namespace {

const char *const words[] = { "block", "class", "dev", "devices", "virtual", "sda", "sdb", "dm-0", "dm-1", "nvme0n1",
    "slaves", "holders", "queue", "scheduler", "nr_requests", "max_sectors_kb", "size", "device", "dm", "name", "uuid",
    "wwid", "vendor", "model", "queue_depth", "module", "..", "8:0", "254:0", "partition", "stat", "inflight", "ro",
    "removable", "host0", "scsi_host", "0:0:0:0", "mq", "0", "nr_tags", "rotational", "diskstats", "sys", "proc",
    "dmtune-capture.json", "sda1", "subsystem", "scsi", "nvme", "dm_mod", "parameters", "." };
constexpr size_t wordCount = sizeof words / sizeof *words;

[[noreturn]] void fail(const char *what, const QString &detail = {})
{
    std::fprintf(stderr, "fuzz_capturedtree: %s %s\n", what, detail.toUtf8().constData());
    std::abort();
}

struct Input {
    const uint8_t *data;
    size_t size;
    size_t at = 0;
    bool done() const { return at >= size; }
    uint8_t next() { return at < size ? data[at++] : 0; }
    QByteArray path(int parts)
    {
        QByteArray p;
        for (int i = 0; i < parts; ++i) {
            if (!p.isEmpty())
                p += '/';
            p += words[next() % wordCount];
        }
        return p;
    }
};

// The directory that holds `relative` (made as needed, no link followed), or -1.
int parentOf(int topFd, const QByteArray &relative, QByteArray *leaf)
{
    const qsizetype slash = relative.lastIndexOf('/');
    *leaf = relative.mid(slash + 1);
    if (leaf->isEmpty() || *leaf == "." || *leaf == "..")
        return -1;
    int dir = ::dup(topFd);
    for (const QByteArray &part : relative.left(std::max<qsizetype>(slash, 0)).split('/')) {
        if (part.isEmpty() || part == ".")
            continue;
        if (part == ".." || (::mkdirat(dir, part.constData(), 0755) != 0 && errno != EEXIST)) {
            ::close(dir);
            return -1;
        }
        const int next = ::openat(dir, part.constData(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        ::close(dir);
        if (next < 0)
            return -1;
        dir = next;
    }
    return dir;
}

void build(int topFd, Input &in)
{
    for (int entries = 0; entries < 64 && !in.done(); ++entries) {
        const uint8_t op = in.next();
        // Most entries under sys/; some at the top (proc/, dmtune-capture.json).
        const QByteArray relative = ((op & 0x80) ? QByteArray() : QByteArray("sys/")) + in.path(1 + (op >> 2) % 6);
        QByteArray leaf;
        const Fd parent(parentOf(topFd, relative, &leaf));
        if (parent.get() < 0)
            continue;
        switch (op & 3) {
        case 0: { // a file
            const int length = in.next() % 64;
            QByteArray content;
            for (int i = 0; i < length; ++i)
                content += char(in.next());
            if (in.next() % 16 == 0)
                content = QByteArray(int(SysfsRoot::maxAttributeBytes) + 1, '1'); // over the cap
            createNewFile(parent.get(), QFile::decodeName(leaf), content, 0644);
            break;
        }
        case 1: { // a link: relative, climbing out, or absolute
            const uint8_t kind = in.next();
            QByteArray target = in.path(1 + kind % 5);
            if (kind & 0x40)
                target = "../../../../../../../../" + target;
            else if (kind & 0x80)
                target = "/" + target;
            ::symlinkat(target.constData(), parent.get(), leaf.constData());
            break;
        }
        case 2:
            ::mkfifoat(parent.get(), leaf.constData(), 0644);
            break;
        case 3:
            ::mkdirat(parent.get(), leaf.constData(), 0755);
            break;
        }
    }
}

QByteArray scanned(const SysfsRoot &root)
{
    return QJsonDocument(snapshotToJson(Discovery::scan(root))).toJson(QJsonDocument::Compact);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QTemporaryDir dir;
    if (!dir.isValid())
        return 0;
    const QString top = dir.path() + QStringLiteral("/capture");
    QDir().mkpath(top + QStringLiteral("/sys/block"));
    QDir().mkpath(top + QStringLiteral("/proc"));
    {
        const Fd topFd(::open(QFile::encodeName(top).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        Input in { data, size };
        build(topFd.get(), in);
    }
    const SysfsRoot root = sysfsRootForDirectory(top);
    if (root.isLive() || root.isWritable())
        fail("a captured tree is writable");

    const QByteArray viaOpenat2 = scanned(root);
    beneath::setForceFallback(true);
    const QByteArray viaWalk = scanned(root);
    beneath::setForceFallback(false);
    if (viaOpenat2 != viaWalk)
        fail("openat2 and the component walk disagree", QString::fromUtf8(viaOpenat2 + "\n" + viaWalk));

    StackLevels levels(root);
    const QStringList devices = root.list(QStringLiteral("block"));
    for (const QString &device : devices) {
        const int level = levels.level(device);
        if (level < 0)
            fail("negative stacking level", device);
    }
    if (levels.listed() > int(wordCount)) // every name in the tree is one of the words
        fail("the stacking walk listed a device twice");

    // Copying someone else's tree (dmtunectl capture --sysfs-root) creates only inside the new directory.
    DeviceMapperState state;
    captureSystem(root, dir.path() + QStringLiteral("/again"), nullptr, state);
    return 0;
}
