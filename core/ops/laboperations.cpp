#include "core/ops/laboperations.h"

#include "core/params/valueparsers.h"
#include "core/workloads/devicehold.h"
#include "core/workloads/deviceopeners.h"
#include "core/workloads/labdevices.h"
#include "core/workloads/labloop.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace dmtune {

namespace {

using PlanResult = Result<OperationPlan>;

constexpr qint64 MaximumBytes = qint64(16) << 40; // the largest file ext4 holds (4 KiB blocks)

QString sizeText(qint64 bytes)
{
    if (bytes >= (qint64(1) << 30) && bytes % (qint64(1) << 30) == 0)
        return QStringLiteral("%1 GiB").arg(bytes >> 30);
    if (bytes >= (qint64(1) << 20) && bytes % (qint64(1) << 20) == 0)
        return QStringLiteral("%1 MiB").arg(bytes >> 20);
    return QStringLiteral("%1 bytes").arg(bytes);
}

QString schedulerOf(const SysfsRoot &sysfs, const QString &name)
{
    const auto list = parseSchedulerList(sysfs.readOr(QStringLiteral("block/%1/queue/scheduler").arg(name)));
    return list ? list->current : QString();
}

// What both kinds refuse alike: no LabDevices in this shell, or not this machine's live /sys.
QStringList environmentRefusals(const OperationEnvironment &env)
{
    QStringList out;
    if (!env.labs)
        out << QStringLiteral("no lab devices here: this shell keeps none (a lab device lives as long as the dmtune "
                              "that made it)");
    if (!env.sysfs.isLive())
        out << QStringLiteral("%1 is not this machine's live /sys: lab devices are made and removed on the running "
                              "system only")
                   .arg(env.sysfs.root());
    return out;
}

struct CreateRequest {
    qint64 bytes = LabLoop::DefaultBytes;
    QString baseDir;
    QStringList refusals;
};

CreateRequest readCreateRequest(const QJsonObject &request)
{
    CreateRequest out;
    out.baseDir = request.value(QLatin1String("base_dir")).toString(LabDevices::defaultBaseDirectory());
    const QJsonValue bytes = request.value(QLatin1String("bytes"));
    if (!bytes.isUndefined()) {
        const double d = bytes.toDouble(-1);
        if (!bytes.isDouble() || d != std::floor(d) || d < 0 || d > double(MaximumBytes) * 2) {
            out.refusals << QStringLiteral("\"bytes\" must be a whole number of bytes");
            return out;
        }
        out.bytes = qint64(d);
    }
    if (out.bytes < LabLoop::MinimumBytes)
        out.refusals << QStringLiteral("a lab device needs at least 1 MiB (%1 bytes asked)").arg(out.bytes);
    else if (out.bytes > MaximumBytes)
        out.refusals << QStringLiteral("a lab device is at most 16 TiB, the largest file ext4 holds (%1 asked)")
                            .arg(sizeText(out.bytes));
    else if (out.bytes % 512 != 0)
        out.refusals << QStringLiteral("a lab device's size is whole 512-byte sectors (%1 bytes asked)").arg(out.bytes);
    return out;
}

PlanResult planCreate(const OperationEnvironment &env, const QJsonObject &request)
{
    const CreateRequest asked = readCreateRequest(request);
    OperationPlan plan;
    plan.request = request;
    plan.target = asked.baseDir;
    plan.summary = QStringLiteral("create a %1 lab device (a loop device over a sparse file in %2)")
                       .arg(sizeText(asked.bytes), asked.baseDir);
    plan.refusals = environmentRefusals(env) + asked.refusals;
    if (QString why; !LabDevices::canCreate(&why))
        plan.refusals << why;

    // The base directory: where mkdtemp makes the device's private directory. Its identity is the basis: a
    // directory replaced (by a link elsewhere, say) between plan and run is refused as stale.
    plan.basis.insert(QStringLiteral("base_dir"), asked.baseDir);
    struct stat st { };
    const QByteArray base = QFile::encodeName(asked.baseDir);
    if (!QDir::isAbsolutePath(asked.baseDir))
        plan.refusals << QStringLiteral("the base directory must be an absolute path, not \"%1\"").arg(asked.baseDir);
    else if (::stat(base.constData(), &st) != 0)
        plan.refusals
            << QStringLiteral("cannot use %1: %2").arg(asked.baseDir, QString::fromLocal8Bit(std::strerror(errno)));
    else if (!S_ISDIR(st.st_mode))
        plan.refusals << QStringLiteral("%1 is not a directory").arg(asked.baseDir);
    else if (::access(base.constData(), W_OK | X_OK) != 0)
        plan.refusals << QStringLiteral("cannot create a directory in %1: %2")
                             .arg(asked.baseDir, QString::fromLocal8Bit(std::strerror(errno)));
    if (S_ISDIR(st.st_mode)) {
        plan.basis.insert(QStringLiteral("base_dir_id"), QStringLiteral("%1:%2").arg(st.st_dev).arg(st.st_ino));
        struct statfs fs { };
        if (::statfs(base.constData(), &fs) == 0 && fs.f_type == TMPFS_MAGIC)
            plan.notes << QStringLiteral("%1 is on tmpfs, which has no O_DIRECT: the loop device will not do direct "
                                         "I/O (a disk-backed directory such as /var/tmp does)")
                              .arg(asked.baseDir);
    }

    const QString image = asked.baseDir + QStringLiteral("/dmtune-lab-XXXXXX/lab.img");
    plan.steps << QStringLiteral("remove the lab devices in %1 whose dmtune is gone (their owner lock is free)")
                      .arg(asked.baseDir)
               << QStringLiteral("create %1: a private directory (0700) and a %2 sparse file (nothing allocated up "
                                 "front), with an owner file locked while this dmtune runs")
                      .arg(image, sizeText(asked.bytes))
               << QStringLiteral("attach it to a free loop device with direct I/O (LOOP_CONFIGURE, LO_FLAGS_DIRECT_IO)")
               << QStringLiteral("set the loop device's scheduler to mq-deadline (the one it had is written back when "
                                 "the lab device is removed)")
               << QStringLiteral("read back: loop/backing_file, loop/dio, queue/scheduler");
    plan.preview = QStringLiteral("truncate -s %1 %2\nlosetup --find --show --direct-io=on %2\n"
                                  "echo mq-deadline > /sys/block/loopN/queue/scheduler")
                       .arg(asked.bytes)
                       .arg(image);
    if (env.labs) {
        QStringList names;
        for (const LabDeviceInfo &lab : env.labs->list())
            names << lab.name;
        if (!names.isEmpty())
            plan.notes << QStringLiteral("this dmtune already has lab device %1: this makes another")
                              .arg(names.join(QStringLiteral(", ")));
    }
    plan.notes << QStringLiteral("removed when this dmtune quits; a crashed dmtune's lab devices go at the next start");
    return plan;
}

OperationResult runCreate(const OperationEnvironment &env, const OperationPlan &fresh, bool dryRun)
{
    OperationResult result;
    const CreateRequest asked = readCreateRequest(fresh.request);
    if (dryRun) {
        result.ok = true;
        result.changes << QStringLiteral("would: %1").arg(fresh.summary);
        return result;
    }
    const auto made = env.labs->create(asked.bytes, asked.baseDir);
    if (!made) {
        result.error = made.errorMessage();
        return result;
    }
    const LabDeviceInfo &lab = made.value();
    // Read back what the kernel says, not what was asked.
    const QString backing = env.sysfs.readOr(QStringLiteral("block/%1/loop/backing_file").arg(lab.name));
    const bool dio = env.sysfs.readOr(QStringLiteral("block/%1/loop/dio").arg(lab.name)) == QLatin1String("1");
    const QString scheduler = schedulerOf(env.sysfs, lab.name);
    result.ok = true;
    result.target = lab.name;
    result.changes
        << QStringLiteral("created %1: a %2 sparse file %3").arg(lab.devicePath(), sizeText(lab.bytes), backing);
    if (backing != lab.backingFile)
        result.warnings
            << QStringLiteral("%1 loop/backing_file says \"%2\", not %3").arg(lab.name, backing, lab.backingFile);
    if (dio)
        result.changes << QStringLiteral("%1 loop/dio: 1 (direct I/O on the backing file)").arg(lab.name);
    else
        result.warnings << QStringLiteral("%1 does no direct I/O (loop/dio 0): the file system of %2 has no O_DIRECT, "
                                          "so I/O goes through the page cache")
                               .arg(lab.name, asked.baseDir);
    if (scheduler == QLatin1String("mq-deadline"))
        result.changes << QStringLiteral("%1 scheduler %2 -> mq-deadline").arg(lab.name, lab.schedulerBefore);
    else
        result.warnings << QStringLiteral("%1 scheduler is %2, not mq-deadline (not available in this kernel?)")
                               .arg(lab.name, scheduler.isEmpty() ? QStringLiteral("unknown") : scheduler);
    result.details = { { QStringLiteral("device"), lab.name }, { QStringLiteral("path"), lab.devicePath() },
        { QStringLiteral("backing_file"), backing }, { QStringLiteral("directory"), lab.directory },
        { QStringLiteral("bytes"), double(lab.bytes) }, { QStringLiteral("dio"), dio },
        { QStringLiteral("scheduler"), scheduler }, { QStringLiteral("scheduler_before"), lab.schedulerBefore } };
    return result;
}

// What the lab.remove plan found, for its run in the same process.
struct PreparedLabRemove {
    LabDeviceInfo lab;
    bool ours = false; // the kernel still backs the device by our file
};

QString deviceOf(const QJsonObject &request)
{
    QString name = request.value(QLatin1String("device")).toString().trimmed();
    if (name.startsWith(QLatin1String("/dev/")))
        name = name.mid(5);
    return name;
}

// A device in use: what holds or claims it makes removal refused; a plain opener (fio) is a risk to confirm.
void addInUseRisks(const OperationEnvironment &env, const QString &name, OperationPlan *plan)
{
    const QStringList holders = env.sysfs.list(QStringLiteral("block/%1/holders").arg(name));
    if (!holders.isEmpty()) {
        plan->risks.append(refusedRisk(QStringLiteral("in-use:%1").arg(name),
            QStringLiteral("%1 is held by %2: detaching it would pull the device from under them (remove them first)")
                .arg(name, holders.join(QStringLiteral(", ")))));
    } else {
        // The O_EXCL probe: mounted (any namespace), swap, claimed, or held by a write workload of this dmtune.
        const auto probe = DeviceHold::acquire(env.sysfs, name);
        if (!probe)
            plan->risks.append(refusedRisk(QStringLiteral("in-use:%1").arg(name), probe.errorMessage()));
    } // the probe's descriptor is closed here, before the openers are counted
    dev_t rdev = 0;
    if (env.sysfs.procRoot().isEmpty()
        || !parseDevnum(env.sysfs.readOr(QStringLiteral("class/block/%1/dev").arg(name)), &rdev))
        return;
    const QList<DeviceOpener> openers = deviceOpeners(env.sysfs.procRoot(), rdev);
    if (!openers.isEmpty())
        plan->risks.append(availabilityRisk(QStringLiteral("open:%1").arg(name),
            QStringLiteral("%1 is open by %2: the kernel detaches it only when the last of them closes it (a running "
                           "fio keeps it until it ends)")
                .arg(name, openersText(openers))));
}

PlanResult planRemove(const OperationEnvironment &env, const QJsonObject &request)
{
    const QString name = deviceOf(request);
    if (name.isEmpty())
        return PlanResult::failure(QStringLiteral("lab.remove needs \"device\""));
    OperationPlan plan;
    plan.request = request;
    plan.target = name;
    plan.summary = QStringLiteral("remove lab device %1").arg(name);
    plan.refusals = environmentRefusals(env);
    if (!plan.refusals.isEmpty())
        return plan;
    const std::optional<LabDeviceInfo> lab = env.labs->find(name);
    if (!lab) {
        // Nothing of the device is read: it is not ours to look at.
        plan.refusals << QStringLiteral("%1 is not a lab device of this dmtune: only the loop devices it made itself "
                                        "are removed here")
                             .arg(name);
        return plan;
    }
    // The kernel's backing (path, inode, device) is the basis: re-attached between plan and run, it is stale.
    const LoopBacking backing = loopBackingOf(name);
    plan.basis.insert(QStringLiteral("backing_file"), backing.file);
    plan.basis.insert(QStringLiteral("backing"), backing.identity());
    auto prepared = std::make_shared<PreparedLabRemove>();
    prepared->lab = lab.value();
    prepared->ours = backing.attached && backing.file == lab->backingFile && backing.device == lab->fileDevice
        && backing.inode == lab->fileInode;
    plan.prepared = prepared;
    if (!prepared->ours) {
        plan.summary = QStringLiteral("forget lab device %1 and delete its files").arg(name);
        plan.notes << (backing.attached
                ? QStringLiteral("/dev/%1 is backed by %2 now, not by the lab device's file: it "
                                 "is someone else's and is left attached")
                      .arg(name, backing.file)
                : QStringLiteral("/dev/%1 is no longer attached (someone detached it)").arg(name));
        plan.steps << QStringLiteral("forget %1: nothing is written to it").arg(name)
                   << QStringLiteral("delete %1 (lab.img, owner)").arg(lab->directory);
        return plan;
    }
    addInUseRisks(env, name, &plan);
    plan.summary
        = QStringLiteral("remove lab device %1 (%2 over %3)").arg(name, sizeText(lab->bytes), lab->backingFile);
    if (!lab->schedulerToRestore.isEmpty()) {
        plan.steps << QStringLiteral("write %1 back to /sys/block/%2/queue/scheduler (what it had before)")
                          .arg(lab->schedulerToRestore, name);
        plan.preview += QStringLiteral("echo %1 > /sys/block/%2/queue/scheduler\n").arg(lab->schedulerToRestore, name);
    }
    plan.steps << QStringLiteral("detach /dev/%1 (LOOP_CLR_FD), only while it is still backed by our file").arg(name)
               << QStringLiteral("delete %1 (lab.img, owner)").arg(lab->directory)
               << QStringLiteral("read back: /sys/block/%1/loop/backing_file no longer names our file%2")
                      .arg(name,
                          lab->schedulerToRestore.isEmpty()
                              ? QString()
                              : QStringLiteral(", queue/scheduler is %1").arg(lab->schedulerToRestore));
    plan.preview += QStringLiteral("losetup -d /dev/%1\nrm -r %2").arg(name, lab->directory);
    return plan;
}

OperationResult runRemove(const OperationEnvironment &env, const OperationPlan &fresh, bool dryRun)
{
    OperationResult result;
    const auto *prepared = fresh.prepared.get<PreparedLabRemove>();
    if (!prepared) {
        result.error = QStringLiteral("lab.remove: the plan was not made in this process (plan again)");
        return result;
    }
    const LabDeviceInfo &lab = prepared->lab;
    if (dryRun) {
        result.ok = true;
        result.changes << QStringLiteral("would: %1").arg(fresh.summary);
        return result;
    }
    const Status removed = env.labs->remove(lab.name);
    if (!prepared->ours) {
        // As planned: the device is someone else's now; only our files went.
        result.ok = true;
        result.changes << QStringLiteral("forgot %1 and deleted %2").arg(lab.name, lab.directory);
        if (!removed)
            result.warnings << removed.errorMessage();
        return result;
    }
    if (!removed) {
        result.error = removed.errorMessage();
        return result;
    }
    // Read back: is the kernel's loop device still backed by our (now deleted) file?
    const LoopBacking now = loopBackingOf(lab.name);
    const bool stillOurs = now.attached && now.device == lab.fileDevice && now.inode == lab.fileInode;
    if (stillOurs)
        result.warnings << QStringLiteral("/dev/%1 is still attached to the lab device's (deleted) file: something has "
                                          "it open; the kernel detaches it when the last one closes it")
                               .arg(lab.name);
    else
        result.changes << QStringLiteral("detached /dev/%1 (loop/backing_file: %2)")
                              .arg(lab.name, now.file.isEmpty() ? QStringLiteral("none") : now.file);
    const QString scheduler = schedulerOf(env.sysfs, lab.name);
    if (!lab.schedulerToRestore.isEmpty()) {
        if (scheduler == lab.schedulerToRestore)
            result.changes << QStringLiteral("%1 scheduler mq-deadline -> %2 (as before)").arg(lab.name, scheduler);
        else
            result.warnings << QStringLiteral("%1 scheduler is %2, not %3 as before the lab device")
                                   .arg(lab.name, scheduler, lab.schedulerToRestore);
    }
    if (QFileInfo::exists(lab.directory))
        result.warnings << QStringLiteral("%1 is still there").arg(lab.directory);
    else
        result.changes << QStringLiteral("deleted %1").arg(lab.directory);
    result.ok = true;
    result.details = { { QStringLiteral("device"), lab.name }, { QStringLiteral("detached"), !stillOurs },
        { QStringLiteral("backing_file"), now.file }, { QStringLiteral("scheduler"), scheduler },
        { QStringLiteral("scheduler_restored"), lab.schedulerToRestore },
        { QStringLiteral("directory"), lab.directory } };
    return result;
}

} // namespace

QJsonObject labCreateRequest(qint64 bytes, const QString &baseDir)
{
    QJsonObject request { { QStringLiteral("bytes"), double(bytes) } };
    if (!baseDir.isEmpty())
        request.insert(QStringLiteral("base_dir"), baseDir);
    return request;
}

QJsonObject labRemoveRequest(const QString &device)
{
    return { { QStringLiteral("device"), device } };
}

void registerLabOperations()
{
    OperationKind create;
    create.kind = QString::fromLatin1(LabCreateKind);
    create.description = QStringLiteral("create a lab device: a loop device with direct I/O over a sparse file, "
                                        "scheduler mq-deadline (root)");
    create.plan = planCreate;
    create.run = runCreate;
    registerOperation(std::move(create));

    OperationKind remove;
    remove.kind = QString::fromLatin1(LabRemoveKind);
    remove.description = QStringLiteral("remove one of this dmtune's lab devices (only while the kernel still backs "
                                        "it by our file; its scheduler put back)");
    remove.plan = planRemove;
    remove.run = runRemove;
    registerOperation(std::move(remove));
}

} // namespace dmtune
