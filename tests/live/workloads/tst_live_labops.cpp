// lab.create and lab.remove through planOperation/runOperation on this machine (root, loop devices): the
// device exists with direct I/O and mq-deadline, and after removal it is detached, its file gone and its
// scheduler back. lab.remove refuses a loop device the test attached itself, refuses a device re-attached
// between plan and run as stale (and never detaches it), asks about a device that is open and refuses one
// that is claimed. Every loop device is made by the test (or by LabDevices for it) and undone.
#include "tests/live/scratchloop.h"

#include "core/ops/laboperations.h"
#include "core/workloads/labdevices.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace dmtune;
using namespace Qt::StringLiterals;
using dmtune::live::ScratchLoop;

namespace {

QString sysfsText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromLocal8Bit(f.readAll()).trimmed() : QString();
}

QString scheduler(const QString &name)
{
    const QString text = sysfsText(u"/sys/block/%1/queue/scheduler"_s.arg(name));
    const qsizetype open = text.indexOf(u'[');
    return open < 0 ? text : text.mid(open + 1, text.indexOf(u']') - open - 1);
}

bool anyContains(const QStringList &lines, const QString &part)
{
    return std::any_of(lines.cbegin(), lines.cend(), [&part](const QString &l) { return l.contains(part); });
}

const QString createKind = QString::fromLatin1(LabCreateKind);
const QString removeKind = QString::fromLatin1(LabRemoveKind);

} // namespace

class TestLiveLabOperations : public QObject {
    Q_OBJECT

    // /var/tmp: disk-backed here, so direct I/O takes (tmpfs has no O_DIRECT).
    QTemporaryDir m_base { LabDevices::defaultBaseDirectory() + u"/dmtune-labops-XXXXXX"_s };

    OperationEnvironment env(LabDevices *labs) const
    {
        OperationEnvironment e;
        e.labs = labs;
        return e;
    }
    QJsonObject createRequest() const { return labCreateRequest(qint64(64) << 20, m_base.path()); }

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString reason = ScratchLoop::unavailableReason({ u"losetup"_s }); !reason.isEmpty())
            QSKIP(qPrintable(reason));
        if (QString why; !LabDevices::canCreate(&why))
            QSKIP(qPrintable(why));
        QVERIFY(m_base.isValid());
    }

    void createsAndRemovesThroughTheOperations()
    {
        LabDevices labs;
        const auto plan = planOperation(env(&labs), createKind, createRequest());
        QVERIFY2(plan, qPrintable(plan.errorMessage()));
        QVERIFY2(plan->runnable(), qPrintable(plan->refusals.join(u" | ")));
        QVERIFY(plan->risks.isEmpty());
        const OperationResult made = runOperation(env(&labs), plan.value(), acceptAll(plan.value()));
        QVERIFY2(made.ok, qPrintable(made.error));
        QVERIFY2(made.warnings.isEmpty(), qPrintable(made.warnings.join(u" | ")));
        const QString name = made.details.value(u"device"_s).toString();
        const QString file = made.details.value(u"backing_file"_s).toString();
        const QString before = made.details.value(u"scheduler_before"_s).toString();
        QVERIFY2(name.startsWith(u"loop"_s), qPrintable(name));
        QCOMPARE(made.target, m_base.path()); // the plan's target: where it is made
        QVERIFY(file.startsWith(m_base.path() + u"/dmtune-lab-"_s));
        // The kernel's view, read here again: our file, direct I/O, mq-deadline.
        QCOMPARE(sysfsText(u"/sys/block/%1/loop/backing_file"_s.arg(name)), file);
        QCOMPARE(sysfsText(u"/sys/block/%1/loop/dio"_s.arg(name)), u"1"_s);
        QCOMPARE(scheduler(name), u"mq-deadline"_s);
        QCOMPARE(made.details.value(u"dio"_s).toBool(), true);
        QCOMPARE(made.details.value(u"scheduler"_s).toString(), u"mq-deadline"_s);
        QVERIFY(labs.find(name));

        const auto removal = planOperation(env(&labs), removeKind, labRemoveRequest(name));
        QVERIFY2(removal && removal->runnable(), qPrintable(removal->refusals.join(u" | ")));
        QVERIFY2(removal->risks.isEmpty(), qPrintable(removal->risks.value(0).text));
        QVERIFY(removal->basis.value(u"backing"_s).toString().contains(u':'));
        QCOMPARE(removal->basis.value(u"backing_file"_s).toString(), file);
        const OperationResult removed = runOperation(env(&labs), removal.value(), acceptAll(removal.value()));
        QVERIFY2(removed.ok, qPrintable(removed.error));
        QVERIFY2(removed.warnings.isEmpty(), qPrintable(removed.warnings.join(u" | ")));
        QCOMPARE(removed.details.value(u"detached"_s).toBool(), true);
        QVERIFY(!QFile::exists(u"/sys/block/%1/loop"_s.arg(name)));
        QVERIFY(!QFile::exists(file));
        if (before != u"mq-deadline"_s)
            QCOMPARE(scheduler(name), before);
        QVERIFY(labs.list().isEmpty());
    }

    void aDryRunMakesNothing()
    {
        LabDevices labs;
        const auto plan = planOperation(env(&labs), createKind, createRequest());
        QVERIFY(plan && plan->runnable());
        OperationAnswers answers = acceptAll(plan.value());
        answers.dryRun = true;
        const OperationResult run = runOperation(env(&labs), plan.value(), answers);
        QVERIFY(run.ok);
        QVERIFY(run.changes.value(0).startsWith(u"would: "_s));
        QVERIFY(labs.list().isEmpty());
        QVERIFY(QDir(m_base.path()).entryList({ u"dmtune-lab-*"_s }, QDir::Dirs).isEmpty());
    }

    // The base directory replaced between plan and run (a link elsewhere, say): stale, nothing is made.
    void aReplacedBaseDirectoryIsStale()
    {
        LabDevices labs;
        const QString dir = m_base.path() + u"/base"_s;
        QVERIFY(QDir().mkpath(dir));
        const auto plan = planOperation(env(&labs), createKind, labCreateRequest(qint64(64) << 20, dir));
        QVERIFY(plan && plan->runnable());
        // A new inode at the same path (the old one kept meanwhile, so the number is not reused).
        QVERIFY(QDir().rename(dir, dir + u".old"_s) && QDir().mkdir(dir) && QDir().rmdir(dir + u".old"_s));
        const OperationResult run = runOperation(env(&labs), plan.value(), acceptAll(plan.value()));
        QVERIFY(!run.ok);
        QVERIFY(run.stale);
        QVERIFY2(run.error.contains(u"base_dir_id"_s), qPrintable(run.error));
        QVERIFY(labs.list().isEmpty());
        QVERIFY(QDir(dir).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
        QVERIFY(QDir().rmdir(dir));
    }

    void refusesALoopDeviceTheTestAttached()
    {
        ScratchLoop loop;
        QVERIFY2(loop.create(16LL << 20), qPrintable(loop.error()));
        LabDevices labs;
        const auto plan = planOperation(env(&labs), removeKind, labRemoveRequest(loop.name()));
        QVERIFY(plan);
        QCOMPARE(plan->refusals.size(), 1);
        QVERIFY(plan->refusals.first().startsWith(loop.name() + u" is not a lab device of this dmtune"_s));
        const OperationResult run = runOperation(env(&labs), plan.value(), acceptAll(plan.value()));
        QVERIFY(!run.ok);
        QVERIFY(QFile::exists(u"/sys/block/%1/loop/backing_file"_s.arg(loop.name()))); // still attached
    }

    // Detached behind the lab's back and attached to the test's own file: the run is stale and detaches
    // nothing; planned again, the device is someone else's: forgotten, left attached.
    void aDeviceReattachedBetweenPlanAndRunIsStale()
    {
        LabDevices labs;
        const auto made = labs.create(qint64(64) << 20, m_base.path());
        QVERIFY2(made, qPrintable(made.errorMessage()));
        const QString name = made->name, path = made->devicePath();
        const auto plan = planOperation(env(&labs), removeKind, labRemoveRequest(name));
        QVERIFY(plan && plan->runnable());

        QTemporaryDir own;
        const QString ownFile = own.filePath(u"own.img"_s);
        QFile f(ownFile);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(16LL << 20));
        f.close();
        QCOMPARE(QProcess::execute(u"losetup"_s, { u"-d"_s, path }), 0);
        const bool reattached
            = QProcess::execute(u"losetup"_s, { path, ownFile }) == 0; // another program may take it first

        const OperationResult run = runOperation(env(&labs), plan.value(), acceptAll(plan.value()));
        QVERIFY(!run.ok);
        QVERIFY(run.stale);
        QVERIFY2(run.error.contains(u"changed since the plan was made"_s), qPrintable(run.error));
        if (reattached) {
            QCOMPARE(sysfsText(u"/sys/block/%1/loop/backing_file"_s.arg(name)), ownFile);
            const auto again = planOperation(env(&labs), removeKind, labRemoveRequest(name));
            QVERIFY(again && again->runnable());
            QVERIFY(anyContains(again->notes, u"is left attached"_s));
            const OperationResult forgot = runOperation(env(&labs), again.value(), acceptAll(again.value()));
            QVERIFY2(forgot.ok, qPrintable(forgot.error));
            QCOMPARE(sysfsText(u"/sys/block/%1/loop/backing_file"_s.arg(name)), ownFile); // not ours to detach
            QVERIFY(!QFile::exists(made->directory));
            QVERIFY(labs.list().isEmpty());
            // The lab set mq-deadline and the kernel keeps it after losetup -d: put back what the device had,
            // while it is still the test's own.
            if (!made->schedulerToRestore.isEmpty()) {
                QFile sched(u"/sys/block/%1/queue/scheduler"_s.arg(name));
                QVERIFY(sched.open(QIODevice::WriteOnly));
                sched.write(made->schedulerToRestore.toLatin1());
                sched.close();
                QCOMPARE(scheduler(name), made->schedulerToRestore);
            }
            QCOMPARE(QProcess::execute(u"losetup"_s, { u"-d"_s, path }), 0);
        } else {
            qInfo("%s was taken by another program before the test could attach its own file", qPrintable(path));
            // Forgotten: another program has the device now, only our files go (its own line says so).
            static_cast<void>(labs.remove(name));
            QVERIFY(labs.list().isEmpty());
        }
    }

    // Open by a process (as fio has its target): a risk to confirm. Claimed (O_EXCL: a mount, dm, a write
    // workload's hold): refused whatever the answer.
    void aDeviceInUseIsARisk()
    {
        LabDevices labs;
        const auto made = labs.create(qint64(64) << 20, m_base.path());
        QVERIFY2(made, qPrintable(made.errorMessage()));
        const QString name = made->name;
        const QByteArray path = QFile::encodeName(made->devicePath());
        {
            const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
            QVERIFY(fd >= 0);
            const auto plan = planOperation(env(&labs), removeKind, labRemoveRequest(name));
            ::close(fd);
            QVERIFY(plan);
            QCOMPARE(plan->risks.size(), 1);
            QCOMPARE(plan->risks.first().id, u"open:"_s + name);
            QVERIFY(plan->risks.first().confirmable);
            QVERIFY2(
                plan->risks.first().text.contains(u"(pid %1)"_s.arg(::getpid())), qPrintable(plan->risks.first().text));
            // Unanswered, the run refuses; nothing is detached.
            OperationAnswers none;
            none.planId = plan->id;
            QVERIFY(!runOperation(env(&labs), plan.value(), none).ok);
            QVERIFY(QFile::exists(u"/sys/block/%1/loop"_s.arg(name)));
        }
        {
            const int fd = ::open(path.constData(), O_RDONLY | O_EXCL | O_CLOEXEC);
            QVERIFY(fd >= 0);
            const auto plan = planOperation(env(&labs), removeKind, labRemoveRequest(name));
            const OperationResult run = runOperation(env(&labs), plan.value(), acceptAll(plan.value()));
            ::close(fd);
            QVERIFY(plan);
            QVERIFY(!plan->runnable());
            QVERIFY(std::any_of(plan->risks.cbegin(), plan->risks.cend(),
                [&](const OperationRisk &r) { return r.id == u"in-use:"_s + name && !r.confirmable; }));
            QVERIFY(!run.ok);
            QVERIFY(QFile::exists(u"/sys/block/%1/loop"_s.arg(name)));
        }
        const auto plan = planOperation(env(&labs), removeKind, labRemoveRequest(name));
        QVERIFY(plan && plan->risks.isEmpty());
        QVERIFY(runOperation(env(&labs), plan.value(), acceptAll(plan.value())).ok);
        QVERIFY(!QFile::exists(u"/sys/block/%1/loop"_s.arg(name)));
    }

    void whatItMadeGoesWithIt()
    {
        QString name, file;
        {
            LabDevices labs;
            const auto made = labs.create(qint64(16) << 20, m_base.path());
            QVERIFY2(made, qPrintable(made.errorMessage()));
            name = made->name;
            file = made->backingFile;
            QCOMPARE(sysfsText(u"/sys/block/%1/loop/backing_file"_s.arg(name)), file);
        }
        QVERIFY(!QFile::exists(u"/sys/block/%1/loop"_s.arg(name)));
        QVERIFY(!QFile::exists(file));
    }
};

QTEST_GUILESS_MAIN(TestLiveLabOperations)
#include "tst_live_labops.moc"
