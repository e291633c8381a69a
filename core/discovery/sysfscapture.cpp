#include "core/discovery/sysfscapture.h"

#include "core/discovery/devicesnapshot.h"
#include "core/dm/backend/captureddevicemapper.h"
#include "core/dm/backend/devicemapper.h"
#include "core/dm/backend/libdevmapperbackend.h"
#include "core/dm/multipathd/multipathdclient.h"
#include "core/sysfs/beneath.h"
#include "core/util/fd.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSysInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

namespace {

constexpr qint64 maxFileBytes = 64 * 1024;
// dmtune-capture.json: about 1 KiB per map; thousands of maps fit many times over.
constexpr qint64 maxDescriptionBytes = 64 << 20;

// Subdirectories worth descending into from a block device's directory (the rest: power, trace, ...).
const QSet<QString> &blockSubdirs()
{
    static const QSet<QString> names { QStringLiteral("queue"), QStringLiteral("iosched"), QStringLiteral("dm"),
        QStringLiteral("md"), QStringLiteral("loop"), QStringLiteral("slaves"), QStringLiteral("holders"),
        QStringLiteral("integrity"), QStringLiteral("mq"), QStringLiteral("zram") };
    return names;
}

// Subdirectories of a device's ancestors (SCSI device, target, host, NVMe controller) that dmtune reads.
const QSet<QString> &ancestorSubdirs()
{
    static const QSet<QString> names { QStringLiteral("scsi_host"), QStringLiteral("scsi_disk"),
        QStringLiteral("scsi_device") };
    return names;
}

// Creates the missing directories of `relative` under outFd (0755; the top is 0700), entering none
// through a link.
bool makeDirectories(int outFd, const QByteArray &relative)
{
    int dir = outFd;
    bool ok = true;
    for (const QByteArray &part : relative.split('/')) {
        if (part.isEmpty() || part == ".")
            continue;
        if (part == ".." || (::mkdirat(dir, part.constData(), 0755) != 0 && errno != EEXIST)) {
            ok = false;
            break;
        }
        const int next = ::openat(dir, part.constData(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dir != outFd)
            ::close(dir);
        dir = next;
        if (dir < 0) {
            ok = false;
            break;
        }
    }
    if (dir >= 0 && dir != outFd)
        ::close(dir);
    return ok;
}

class Copier {
public:
    // Copies from the tree `from` into outFd's "sys/".
    Copier(QString from, int outFd)
        : m_from(std::move(from))
        , m_outFd(outFd)
    {
    }

    CaptureReport report;

    // One entry (file or link), relative to the roots. Directories are created as needed.
    void entry(const QString &relative, const QString &shownAs)
    {
        if (m_done.contains(relative))
            return;
        m_done.insert(relative);
        const QByteArray src = QFile::encodeName(m_from + QLatin1Char('/') + relative);
        const QString dst = QStringLiteral("sys/") + relative;
        struct stat st { };
        if (::lstat(src.constData(), &st) != 0)
            return;
        const QString dstDir = QFileInfo(dst).path();
        makeDirectory(dstDir);
        if (S_ISLNK(st.st_mode)) {
            char target[4096];
            const ssize_t n = ::readlink(src.constData(), target, sizeof target - 1);
            const Fd parent(beneath::open(
                m_outFd, QFile::encodeName(dstDir), O_PATH | O_DIRECTORY | O_CLOEXEC, beneath::Links::Refuse));
            if (n > 0 && parent.get() >= 0
                && ::symlinkat(QByteArray(target, n).constData(), parent.get(),
                       QFile::encodeName(QFileInfo(dst).fileName()).constData())
                    == 0)
                ++report.links;
            return;
        }
        if (!S_ISREG(st.st_mode))
            return;
        if (!(st.st_mode & (S_IRUSR | S_IRGRP | S_IROTH))) {
            report.skipped.append(shownAs + QLatin1String(": write-only"));
            return;
        }
        const int fd = ::open(src.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) {
            report.skipped.append(shownAs + QLatin1String(": ") + QString::fromLocal8Bit(std::strerror(errno)));
            return;
        }
        QByteArray data;
        char chunk[4096];
        bool failed = false;
        int error = 0;
        while (data.size() < maxFileBytes) {
            const ssize_t n = ::read(fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                failed = true;
                error = errno;
                break;
            }
            if (n == 0)
                break;
            data.append(chunk, n);
        }
        ::close(fd);
        if (failed) {
            // Attributes that have no value now (EIO, ENODEV, EOPNOTSUPP): as dmtune would see them live.
            report.skipped.append(shownAs + QLatin1String(": ") + QString::fromLocal8Bit(std::strerror(error)));
            return;
        }
        // Same permission bits as in sysfs: "rw" in dmtune means writable there. Plain syscalls: a capture
        // writes thousands of small files, in the lab onto an overlay where every lookup is a round trip.
        if (const Status s = createNewFile(m_outFd, dst, data, st.st_mode & (S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH));
            !s) {
            report.skipped.append(shownAs + QLatin1String(": ") + s.errorMessage());
            return;
        }
        ++report.files;
    }

    // Every file and link of a directory; into the subdirectories whose names `descend` accepts.
    template<typename Descend>
    void directory(const QString &relative, const QString &prefix, Descend &&descend, int depth = 0)
    {
        const QString abs = m_from + QLatin1Char('/') + relative;
        const QDir dir(abs);
        const QFileInfoList entries
            = dir.entryInfoList(QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
        makeDirectory(QStringLiteral("sys/") + relative);
        for (const QFileInfo &e : entries) {
            const QString child = relative + QLatin1Char('/') + e.fileName();
            if (e.isSymLink() || !e.isDir())
                entry(child, prefix + child);
            else if (depth < 4 && descend(e.fileName(), depth))
                directory(child, prefix, descend, depth + 1);
        }
    }

    // A path through links, relative to the root ("block/sda" -> "devices/pci.../block/sda").
    QString resolved(const QString &relative) const
    {
        const QString canonical = QFileInfo(m_from + QLatin1Char('/') + relative).canonicalFilePath();
        const QString root = QFileInfo(m_from).canonicalFilePath();
        if (canonical.isEmpty() || !canonical.startsWith(root + QLatin1Char('/')))
            return {};
        return canonical.mid(root.size() + 1);
    }

    // The directories from devices/ down to `relative`, each with its files (not its subdirectories,
    // but those that hold what dmtune reads of a host or a SCSI device).
    void ancestors(const QString &relative, const QString &prefix)
    {
        QString dir = QFileInfo(relative).path();
        while (dir.startsWith(QLatin1String("devices/")) && !m_ancestorsDone.contains(dir)) {
            m_ancestorsDone.insert(dir);
            directory(dir, prefix, [](const QString &name, int depth) {
                return ancestorSubdirs().contains(name) || (depth > 0 && name.contains(QLatin1Char(':')))
                    || (depth > 0 && name.startsWith(QLatin1String("host")));
            });
            dir = QFileInfo(dir).path();
        }
    }

private:
    void makeDirectory(const QString &path)
    {
        if (m_madeDirectories.contains(path))
            return;
        makeDirectories(m_outFd, QFile::encodeName(path));
        m_madeDirectories.insert(path);
    }

    QString m_from;
    int m_outFd;
    QSet<QString> m_madeDirectories;
    QSet<QString> m_done;
    QSet<QString> m_ancestorsDone;
};

void copyBlockDevice(Copier &copier, const SysfsRoot &source, const QString &name)
{
    copier.entry(QStringLiteral("block/") + name, QStringLiteral("sys/block/") + name);
    copier.entry(QStringLiteral("class/block/") + name, QStringLiteral("sys/class/block/") + name);
    const QString devnum = source.read(QStringLiteral("block/%1/dev").arg(name)).valueOr({});
    if (!devnum.isEmpty())
        copier.entry(QStringLiteral("dev/block/") + devnum, QStringLiteral("sys/dev/block/") + devnum);
    const QString dir = copier.resolved(QStringLiteral("block/") + name);
    if (dir.isEmpty())
        return;
    // The device's own directory, its queue/dm/... and its partitions (named after it: sda1, nvme0n1p1).
    copier.directory(dir, QStringLiteral("sys/"), [&name](const QString &sub, int depth) {
        if (depth == 0 && sub.startsWith(name) && sub != name)
            return true;
        return blockSubdirs().contains(sub) || (depth > 0 && sub.startsWith(QLatin1String("hctx")))
            || (depth > 0 && !sub.isEmpty() && sub.front().isDigit());
    });
    for (const QString &part : source.list(QStringLiteral("block/") + name)) {
        if (part.startsWith(name) && part != name && source.exists(QStringLiteral("block/%1/%2/dev").arg(name, part))) {
            const QString partDevnum = source.read(QStringLiteral("block/%1/%2/dev").arg(name, part)).valueOr({});
            copier.entry(QStringLiteral("class/block/") + part, QStringLiteral("sys/class/block/") + part);
            if (!partDevnum.isEmpty())
                copier.entry(QStringLiteral("dev/block/") + partDevnum, QStringLiteral("sys/dev/block/") + partDevnum);
        }
    }
    copier.ancestors(dir, QStringLiteral("sys/"));
    const QString device = copier.resolved(QStringLiteral("block/%1/device").arg(name));
    if (!device.isEmpty())
        copier.ancestors(device + QStringLiteral("/x"), QStringLiteral("sys/"));
}

void copyClassLinks(Copier &copier, const SysfsRoot &source, const QString &cls)
{
    for (const QString &entry : source.list(QStringLiteral("class/") + cls)) {
        const QString link = QStringLiteral("class/%1/%2").arg(cls, entry);
        copier.entry(link, QStringLiteral("sys/") + link);
        const QString dir = copier.resolved(link);
        if (!dir.isEmpty())
            copier.ancestors(dir + QStringLiteral("/x"), QStringLiteral("sys/"));
    }
}

bool writeFile(int outFd, const QString &relative, const QByteArray &data)
{
    makeDirectories(outFd, QFile::encodeName(QFileInfo(relative).path()));
    return bool(createNewFile(outFd, relative, data, 0644));
}

QJsonObject deviceMapperJson(DeviceMapper *dm, const DeviceMapperState &state, CaptureReport *report)
{
    QJsonObject out {
        { QStringLiteral("available"), state.available },
        { QStringLiteral("reason"), state.reason },
        { QStringLiteral("driver_version"), state.driverVersion },
        { QStringLiteral("library_version"), state.libraryVersion },
    };
    QJsonArray maps;
    if (dm && state.available) {
        const auto names = dm->listMaps();
        if (!names)
            report->skipped.append(QStringLiteral("device-mapper: ") + names.errorMessage());
        for (const DmMapName &n : names ? names.value() : QList<DmMapName>()) {
            const auto info = dm->info(n.name);
            const auto table = dm->table(n.name);
            const auto status = dm->status(n.name);
            if (!info || !table || !status) {
                report->skipped.append(QStringLiteral("device-mapper map %1: %2")
                                           .arg(n.name,
                                               !info        ? info.errorMessage()
                                                   : !table ? table.errorMessage()
                                                            : status.errorMessage()));
                continue;
            }
            maps.append(capturedMapToJson(n.name, info.value(), table.value(), status.value()));
            ++report->maps;
        }
    }
    out.insert(QStringLiteral("maps"), maps);
    return out;
}

} // namespace

Result<CaptureReport> captureSystem(const SysfsRoot &source, const QString &outDir, DeviceMapper *dm,
    const DeviceMapperState &dmState, const std::optional<MultipathdCapture> &multipathd)
{
    using R = Result<CaptureReport>;
    // A directory of our own, made now: nobody else can have planted links in it, or read it.
    const QString parent = QFileInfo(QDir::cleanPath(outDir)).path();
    QDir().mkpath(parent);
    const QByteArray top = QFile::encodeName(QDir::cleanPath(outDir));
    if (::mkdir(top.constData(), 0700) != 0)
        return R::failure(errno == EEXIST
                ? QStringLiteral("%1: exists; capture creates a new directory").arg(outDir)
                : QStringLiteral("%1: cannot create: %2").arg(outDir, QString::fromLocal8Bit(std::strerror(errno))));
    const Fd out(::open(top.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    struct stat made { };
    if (out.get() < 0 || ::fstat(out.get(), &made) != 0 || made.st_uid != ::geteuid() || ::fchmod(out.get(), 0700) != 0)
        return R::failure(QStringLiteral("%1: cannot open the directory just made").arg(outDir));
    makeDirectories(out.get(), "sys");
    Copier copier(source.root(), out.get());

    const QStringList blocks = source.list(QStringLiteral("block"));
    for (const QString &name : blocks)
        copyBlockDevice(copier, source, name);
    for (const QString &cls : { QStringLiteral("nvme"), QStringLiteral("nvme-subsystem"), QStringLiteral("scsi_host") })
        copyClassLinks(copier, source, cls);
    for (const QString &module : { QStringLiteral("dm_mod"), QStringLiteral("dm_multipath"), QStringLiteral("scsi_mod"),
             QStringLiteral("nvme_core"), QStringLiteral("loop"), QStringLiteral("null_blk"),
             QStringLiteral("scsi_debug") }) {
        const QString params = QStringLiteral("module/%1/parameters").arg(module);
        if (source.isDir(params))
            copier.directory(params, QStringLiteral("sys/"), [](const QString &, int) { return false; });
    }
    CaptureReport report = copier.report;

    // /proc: what the sampler and discovery read.
    if (!source.procRoot().isEmpty()) {
        const struct {
            const char *from, *to;
        } procFiles[] = { { "diskstats", "diskstats" }, { "sys/kernel/osrelease", "sys/kernel/osrelease" },
            { "misc", "misc" }, { "partitions", "partitions" }, { "self/mounts", "mounts" }, { "cmdline", "cmdline" } };
        for (const auto &f : procFiles) {
            const auto text = source.readProc(QString::fromLatin1(f.from));
            if (text
                && writeFile(out.get(), QStringLiteral("proc/") + QString::fromLatin1(f.to), text.value().toUtf8()))
                ++report.files;
        }
    }

    QJsonObject description {
        { QStringLiteral("format"), QStringLiteral("dmtune-capture") },
        { QStringLiteral("version"), 1 },
        { QStringLiteral("taken_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs) },
        { QStringLiteral("host"), QSysInfo::machineHostName() },
        { QStringLiteral("kernel"), source.readProc(QStringLiteral("sys/kernel/osrelease")).valueOr({}).trimmed() },
        { QStringLiteral("dmtune_version"), QStringLiteral(DMTUNE_VERSION) },
        { QStringLiteral("source"), source.root() },
        { QStringLiteral("block_devices"), QJsonArray::fromStringList(blocks) },
        { QStringLiteral("device_mapper"), deviceMapperJson(dm, dmState, &report) },
    };
    if (multipathd) {
        QJsonObject mpd { { QStringLiteral("running"), multipathd->running } };
        if (!multipathd->error.isEmpty())
            mpd.insert(QStringLiteral("error"), multipathd->error);
        else if (multipathd->running)
            mpd.insert(QStringLiteral("show_maps_json"), multipathd->mapsJson);
        description.insert(QStringLiteral("multipathd"), mpd);
    }
    description.insert(QStringLiteral("files"), report.files);
    description.insert(QStringLiteral("links"), report.links);
    description.insert(QStringLiteral("skipped"), QJsonArray::fromStringList(report.skipped));
    if (!writeFile(
            out.get(), QLatin1String(captureFileName), QJsonDocument(description).toJson(QJsonDocument::Indented)))
        return Result<CaptureReport>::failure(
            QStringLiteral("%1: cannot write %2").arg(outDir, QLatin1String(captureFileName)));
    return report;
}

SysfsRoot sysfsRootForDirectory(const QString &dir)
{
    const QString clean = QDir::cleanPath(dir);
    if (clean == QLatin1String("/sys"))
        return SysfsRoot();
    auto procNextTo = [](const QString &top) {
        return QFileInfo::exists(top + QStringLiteral("/proc/diskstats")) ? top + QStringLiteral("/proc") : QString();
    };
    if (QFileInfo(clean + QStringLiteral("/sys/block")).isDir())
        return SysfsRoot(clean + QStringLiteral("/sys"), procNextTo(clean));
    const QString parent = QFileInfo(clean).path();
    if (QFileInfo(clean).fileName() == QLatin1String("sys")
        && QFileInfo::exists(parent + QLatin1Char('/') + QLatin1String(captureFileName)))
        return SysfsRoot(clean, procNextTo(parent));
    return SysfsRoot(clean, QString());
}

QJsonObject captureDescription(const SysfsRoot &root)
{
    if (root.isLive())
        return {};
    // Someone else's file: not a link, not a FIFO, not huge.
    const Fd top(
        ::open(QFile::encodeName(QFileInfo(root.root()).path()).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (top.get() < 0)
        return {};
    const Fd fd(beneath::open(top.get(), captureFileName, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC));
    struct stat st { };
    if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > maxDescriptionBytes)
        return {};
    QByteArray data;
    char chunk[65536];
    ssize_t n = 0;
    while (data.size() <= maxDescriptionBytes && (n = ::read(fd.get(), chunk, sizeof chunk)) > 0)
        data.append(chunk, n);
    if (n < 0 || data.size() > maxDescriptionBytes)
        return {};
    const QJsonObject o = QJsonDocument::fromJson(data).object();
    return o.value(QStringLiteral("format")).toString() == QLatin1String("dmtune-capture") ? o : QJsonObject();
}

Result<std::shared_ptr<DeviceMapper>> deviceMapperFor(const SysfsRoot &root)
{
    using R = Result<std::shared_ptr<DeviceMapper>>;
    if (root.isLive()) {
        auto backend = std::make_shared<LibDevmapperBackend>(root);
        if (const DmAvailability available = backend->availability(); !available.available)
            return R::failure(available.reason);
        return R(std::move(backend));
    }
    const QJsonObject capture = captureDescription(root);
    if (capture.isEmpty())
        return R::failure(QStringLiteral("%1: not a capture (no %2): its device-mapper is not known")
                              .arg(root.root(), QLatin1String(captureFileName)));
    const QJsonObject dm = capture.value(QStringLiteral("device_mapper")).toObject();
    auto maps = CapturedDeviceMapper::parseMaps(dm);
    if (!maps)
        return R::failure(QStringLiteral("capture file: ") + maps.errorMessage());
    return R(std::make_shared<CapturedDeviceMapper>(maps.value()));
}

Result<QList<MultipathdMapView>> capturedMultipathdMaps(const SysfsRoot &root)
{
    using R = Result<QList<MultipathdMapView>>;
    const QJsonObject capture = captureDescription(root);
    if (capture.isEmpty())
        return R::failure(QStringLiteral("%1: not a capture (no %2)").arg(root.root(), QLatin1String(captureFileName)));
    const QJsonValue recorded = capture.value(QStringLiteral("multipathd"));
    if (!recorded.isObject())
        return R::failure(QStringLiteral("the capture did not record multipathd"));
    const QJsonObject mpd = recorded.toObject();
    if (!mpd.value(QStringLiteral("running")).toBool())
        return R::failure(QStringLiteral("multipathd was not running when the capture was taken"));
    if (const QString error = mpd.value(QStringLiteral("error")).toString(); !error.isEmpty())
        return R::failure(QStringLiteral("multipathd did not answer when the capture was taken: ") + error);
    return parseMultipathdMapsJson(mpd.value(QStringLiteral("show_maps_json")).toString());
}

MultipathdKnowledge multipathdKnowledgeOf(const SysfsRoot &root)
{
    MultipathdKnowledge known;
    if (root.isLive()) {
        known.running = MultipathdClient::isRunning();
        if (known.running)
            known.maps = MultipathdClient().showMaps();
        return known;
    }
    known.captured = true;
    const QJsonValue recorded = captureDescription(root).value(QStringLiteral("multipathd"));
    known.recorded = recorded.isObject();
    known.running = recorded.toObject().value(QStringLiteral("running")).toBool();
    if (known.running)
        known.maps = capturedMultipathdMaps(root);
    return known;
}

Status createNewFile(int dirFd, const QString &relative, const QByteArray &data, mode_t mode)
{
    const Fd fd(beneath::open(dirFd, QFile::encodeName(relative), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
        beneath::Links::Refuse, mode));
    if (fd.get() < 0)
        return Status::failure(
            QStringLiteral("cannot create %1: %2").arg(relative, QString::fromLocal8Bit(std::strerror(errno))));
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd.get(), data.constData() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return Status::failure(
                QStringLiteral("cannot write %1: %2").arg(relative, QString::fromLocal8Bit(std::strerror(errno))));
        done += n;
    }
    return Status::success();
}

} // namespace dmtune
