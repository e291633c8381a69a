// Transactions on a temp tree: values written and read back, rollback in reverse order when a
// write fails (the target replaced by a directory, the device gone), dry runs that write nothing,
// and the Applier/ChangeHistory pair (undo) in-process.
#include "paramfixture.h"

#include "core/params/catalog.h"
#include "core/params/changehistory.h"
#include "core/params/transaction.h"
#include "core/params/valueparsers.h"
#include "tests/common/tuningrun.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>

#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {
Change ch(const char *device, const char *attribute, const char *value)
{
    return Change { QString::fromLatin1(device), QString::fromLatin1(attribute), QString::fromLatin1(value) };
}
} // namespace

class TestParamTransaction : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void appliesAndReadsBack();
    void rollbackWhenLastWriteFails();
    void rollbackOnWriteErrno();
    void rollbackWhenDeviceVanishes();
    void rollbackRestoresSchedulerCompanions();
    void clampingReported();
    void dryRunWritesNothing();
    void invalidSetWritesNothing();
    void applierAndUndo();
    void writeThroughNeedsConsent();

private:
    QString read(const QString &device, const QString &attribute) const
    {
        return m_sysfs.readOr(QStringLiteral("block/%1/%2").arg(device, attribute));
    }
    std::unique_ptr<FakeSysfs> m_tree;
    SysfsRoot m_sysfs;
};

void TestParamTransaction::init()
{
    m_tree = std::make_unique<FakeSysfs>();
    test::buildMultipathFixture(*m_tree);
    m_sysfs = SysfsRoot::scratch(m_tree->root());
}

void TestParamTransaction::appliesAndReadsBack()
{
    const ApplyResult r = applyChanges(m_sysfs,
        { ch("sdb", "queue/nomerges", "2"), ch("dm-0", "queue/nr_requests", "256"),
            ch("sdc", "device/queue_depth", "16") });
    QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    QVERIFY(!r.rolledBack);
    QCOMPARE(r.executor, QStringLiteral("in-process"));
    QCOMPARE(read(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("2"));
    QCOMPARE(read(QStringLiteral("dm-0"), QStringLiteral("queue/nr_requests")), QStringLiteral("256"));
    QCOMPARE(read(QStringLiteral("sdc"), QStringLiteral("device/queue_depth")), QStringLiteral("16"));
    QCOMPARE(r.changes.size(), 3);
    // nr_requests (phase 1) is written before the others.
    const ChangeOutcome &nr = r.changes[0];
    QCOMPARE(nr.attribute, QStringLiteral("queue/nr_requests"));
    QCOMPARE(nr.oldValue, QStringLiteral("128"));
    QCOMPARE(nr.newValue, QStringLiteral("256"));
    QVERIFY(nr.written && !nr.clamped);
    QCOMPARE(r.changes[1].summary(), QStringLiteral("sdb nomerges 0 -> 2"));
    // Writing a value that is already there writes nothing.
    const ApplyResult again = applyChanges(m_sysfs, { ch("sdb", "queue/nomerges", "2") });
    QVERIFY(again.ok() && !again.anyWritten());
    QCOMPARE(again.changes.first().note, QStringLiteral("unchanged"));
}

void TestParamTransaction::rollbackWhenLastWriteFails()
{
    const Plan plan = planChanges(m_sysfs,
        { ch("sdb", "queue/nomerges", "2"), ch("sdc", "queue/read_ahead_kb", "256"),
            ch("dm-0", "queue/nr_requests", "512"), ch("sdd", "queue/rotational", "1") });
    QVERIFY(plan.ok());
    QCOMPARE(plan.writes.last().device, QStringLiteral("sdd"));
    // The kernel's EINVAL, simulated: the last target becomes a directory, so its write fails.
    const QString target = m_tree->root() + QLatin1Char('/') + m_tree->devicePath(QStringLiteral("sdd"))
        + QStringLiteral("/queue/rotational");
    QVERIFY(QFile::remove(target));
    QVERIFY(QDir().mkdir(target));

    const ApplyResult r = executePlan(m_sysfs, plan);
    QVERIFY(!r.ok());
    QVERIFY(r.rolledBack);
    QVERIFY(!r.rejected());
    QCOMPARE(r.errors.size(), 1);
    const ApplyError &e = r.errors.first();
    QCOMPARE(e.stage, ApplyError::Stage::Write);
    QCOMPARE(e.device, QStringLiteral("sdd"));
    QCOMPARE(e.attribute, QStringLiteral("queue/rotational"));
    QCOMPARE(e.value, QStringLiteral("1"));
    // SysfsRoot reads the value before writing it (for the rollback); a directory fails there.
    QVERIFY2(e.message.contains(QLatin1String("directory")), qPrintable(e.message));
    QVERIFY2(e.text().startsWith(QLatin1String("sdd queue/rotational=1: ")), qPrintable(e.text()));
    // Everything already written is back.
    QCOMPARE(read(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));
    QCOMPARE(read(QStringLiteral("sdc"), QStringLiteral("queue/read_ahead_kb")), QStringLiteral("128"));
    QCOMPARE(read(QStringLiteral("dm-0"), QStringLiteral("queue/nr_requests")), QStringLiteral("128"));
    for (const auto &c : r.changes) {
        QVERIFY(!c.written);
        QCOMPARE(c.newValue, c.oldValue);
    }
    QCOMPARE(r.changes.last().error, e.message);
}

// A write the "kernel" refuses while the read works: a /dev/full node (1:7) in the tree reads
// zeros and fails every write with ENOSPC. Needs root for mknod.
void TestParamTransaction::rollbackOnWriteErrno()
{
    const Plan plan = planChanges(m_sysfs, { ch("sdb", "queue/nomerges", "2"), ch("sdd", "queue/rotational", "1") });
    QVERIFY(plan.ok());
    const QByteArray target = QFile::encodeName(m_tree->root() + QLatin1Char('/')
        + m_tree->devicePath(QStringLiteral("sdd")) + QStringLiteral("/queue/rotational"));
    QVERIFY(QFile::remove(QFile::decodeName(target)));
    if (::mknod(target.constData(), S_IFCHR | 0644, makedev(1, 7)) != 0)
        QSKIP("mknod needs root");
    const ApplyResult r = executePlan(m_sysfs, plan);
    QVERIFY(r.rolledBack);
    QCOMPARE(r.errors.size(), 1);
    QCOMPARE(r.errors.first().stage, ApplyError::Stage::Write);
    QCOMPARE(r.errors.first().text(), QStringLiteral("sdd queue/rotational=1: No space left on device"));
    QCOMPARE(read(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));
    QCOMPARE(r.changes.first().note, QStringLiteral("rolled back"));
}

void TestParamTransaction::rollbackWhenDeviceVanishes()
{
    const Plan plan = planChanges(m_sysfs, { ch("sdb", "queue/nomerges", "1"), ch("sdc", "queue/nomerges", "1") });
    QVERIFY(plan.ok());
    QVERIFY(QFile::remove(m_tree->root() + QStringLiteral("/block/sdc")));
    const ApplyResult r = executePlan(m_sysfs, plan);
    QVERIFY(r.rolledBack);
    QCOMPARE(r.errors.size(), 1);
    QCOMPARE(r.errors.first().device, QStringLiteral("sdc"));
    QVERIFY2(
        r.errors.first().message.contains(QLatin1String("no such block device")), qPrintable(r.errors.first().message));
    QCOMPARE(read(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));
}

// A scheduler switch resets nr_requests and the iosched files: undoing it puts them back too.
void TestParamTransaction::rollbackRestoresSchedulerCompanions()
{
    const Plan plan
        = planChanges(m_sysfs, { ch("dm-0", "queue/scheduler", "kyber"), ch("dm-0", "queue/nomerges", "2") });
    QVERIFY(plan.ok());
    const QString nomerges = m_tree->root() + QLatin1Char('/') + m_tree->devicePath(QStringLiteral("dm-0"))
        + QStringLiteral("/queue/nomerges");
    QVERIFY(QFile::remove(nomerges));
    QVERIFY(QDir().mkdir(nomerges));
    const ApplyResult r = executePlan(m_sysfs, plan);
    QVERIFY(r.rolledBack);
    QCOMPARE(read(QStringLiteral("dm-0"), QStringLiteral("queue/scheduler")), QStringLiteral("mq-deadline"));
    QCOMPARE(read(QStringLiteral("dm-0"), QStringLiteral("queue/nr_requests")), QStringLiteral("128"));
    QCOMPARE(read(QStringLiteral("dm-0"), QStringLiteral("queue/iosched/fifo_batch")), QStringLiteral("16"));
    QCOMPARE(r.errors.size(), 1);
}

// A temp tree stores what is written; the kernel's clamping (nr_requests 0 -> 4) is checked in
// tests/live/params. Here: the read-back comparison that decides "clamped".
void TestParamTransaction::clampingReported()
{
    const TunableDef &nr = *catalog::find(QStringLiteral("queue/nr_requests"));
    QVERIFY(sameValue(nr, QStringLiteral("0004\n"), QStringLiteral("4")));
    QVERIFY(!sameValue(nr, QStringLiteral("0"), QStringLiteral("4")));
    const TunableDef &sched = *catalog::find(QStringLiteral("queue/scheduler"));
    QVERIFY(sameValue(sched, QStringLiteral("none [mq-deadline] kyber"), QStringLiteral("mq-deadline")));
    const TunableDef &mq = *catalog::find(QStringLiteral("module/dm_mod/use_blk_mq"));
    QVERIFY(sameValue(mq, QStringLiteral("Y"), QStringLiteral("1")));
}

void TestParamTransaction::dryRunWritesNothing()
{
    const QByteArray before = test::treeDigest(m_tree->root());
    const ApplyResult r
        = applyChanges(m_sysfs, { ch("dm-0", "queue/scheduler", "none"), ch("sdb", "queue/nomerges", "2") }, true);
    QVERIFY(r.ok() && r.dryRun && !r.anyWritten());
    QCOMPARE(r.changes.size(), 2);
    QCOMPARE(r.changes.first().attribute, QStringLiteral("queue/scheduler"));
    QCOMPARE(r.changes.first().oldValue, QStringLiteral("mq-deadline"));
    QCOMPARE(r.changes.first().requested, QStringLiteral("none"));
    QCOMPARE(test::treeDigest(m_tree->root()), before);
}

void TestParamTransaction::invalidSetWritesNothing()
{
    const QByteArray before = test::treeDigest(m_tree->root());
    const ApplyResult r
        = applyChanges(m_sysfs, { ch("sdb", "queue/nomerges", "2"), ch("dm-0", "queue/scheduler", "bogus") });
    QVERIFY(!r.ok() && r.rejected() && !r.rolledBack && !r.anyWritten());
    QCOMPARE(r.errors.size(), 1);
    QCOMPARE(test::treeDigest(m_tree->root()), before);
}

void TestParamTransaction::writeThroughNeedsConsent()
{
    // write_cache "write through" stops the kernel's flushes: a volatile cache then loses acknowledged writes
    // on power loss. Planned and previewed like any write, but executed only with explicit consent.
    m_tree->file(
        m_tree->devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/write_cache"), QStringLiteral("write back"));
    m_tree->file(m_tree->devicePath(QStringLiteral("sdc")) + QStringLiteral("/queue/write_cache"),
        QStringLiteral("write through"));
    const ChangeSet risky { ch("sdb", "queue/write_cache", "write through"), ch("sdb", "queue/nomerges", "2") };
    const Plan plan = planChanges(m_sysfs, risky);
    QVERIFY(plan.ok());
    QCOMPARE(plan.risks.size(), 1);
    QCOMPARE(plan.risks.first().device, QStringLiteral("sdb"));
    QVERIFY2(plan.risks.first().note.contains(QStringLiteral("power")), qPrintable(plan.risks.first().note));
    QVERIFY(plan.needsConsent());

    const ApplyResult refused = applyChanges(m_sysfs, risky);
    QVERIFY(!refused.ok());
    QVERIFY(refused.rejected());
    QVERIFY(!refused.anyWritten());
    QVERIFY2(refused.errorMessage().contains(QStringLiteral("puts data at risk")), qPrintable(refused.errorMessage()));
    QCOMPARE(read(QStringLiteral("sdb"), QStringLiteral("queue/write_cache")), QStringLiteral("write back"));
    QCOMPARE(read(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0")); // all or nothing

    const ApplyResult preview = applyChanges(m_sysfs, risky, true);
    QVERIFY2(preview.ok(), qPrintable(preview.errorMessage())); // a dry run shows it, writes nothing
    QVERIFY(preview.changes.first().note.contains(QStringLiteral("puts data at risk"))
        || preview.changes.last().note.contains(QStringLiteral("puts data at risk")));

    const ApplyResult given = applyChanges(m_sysfs, risky, false, RiskConsent::Given);
    QVERIFY2(given.ok(), qPrintable(given.errorMessage()));
    QCOMPARE(read(QStringLiteral("sdb"), QStringLiteral("queue/write_cache")), QStringLiteral("write through"));

    // Legitimate uses need nothing: back to write back (more flushes, no risk), or a value it already has.
    QVERIFY(applyChanges(m_sysfs, { ch("sdb", "queue/write_cache", "write back") }).ok());
    QCOMPARE(read(QStringLiteral("sdb"), QStringLiteral("queue/write_cache")), QStringLiteral("write back"));
    const Plan same = planChanges(m_sysfs, { ch("sdc", "queue/write_cache", "write through") });
    QVERIFY(same.risks.isEmpty());
}

void TestParamTransaction::applierAndUndo()
{
    Applier applier(m_sysfs);
    QVERIFY(!applier.usesHelper()); // a temp tree is always in-process
    ChangeHistory history(&applier);
    QSignalSpy finished(&applier, &Applier::finished);
    QSignalSpy applied(&history, &ChangeHistory::applied);

    QVERIFY(test::runTuning(applier, { ch("sdb", "queue/nomerges", "2"), ch("dm-0", "queue/max_sectors_kb", "512") }));
    QVERIFY(!test::runTuning(applier, { ch("sdb", "queue/nomerges", "1") })); // busy
    QCOMPARE(finished.count(), 0); // never from inside run()
    QVERIFY(finished.wait(2000));
    QCOMPARE(applied.count(), 1);
    const auto result = applied.first().first().value<ApplyResult>();
    QVERIFY(result.ok());
    QCOMPARE(history.entries().size(), 1);
    QCOMPARE(read(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("2"));

    // A failed transaction is not recorded.
    QVERIFY(test::runTuning(applier, { ch("sdb", "queue/nomerges", "7") }));
    QVERIFY(finished.wait(2000));
    QCOMPARE(history.entries().size(), 1);
    QCOMPARE(applied.count(), 1);

    QCOMPARE(ChangeHistory::inverse(result).size(), 2);
    QVERIFY(test::runUndo(applier, history));
    QVERIFY(finished.wait(2000));
    QCOMPARE(applied.count(), 2);
    QCOMPARE(history.entries().size(), 0);
    QVERIFY(!history.canUndo());
    QCOMPARE(read(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));
    QCOMPARE(read(QStringLiteral("dm-0"), QStringLiteral("queue/max_sectors_kb")), QStringLiteral("1280"));
}

QTEST_GUILESS_MAIN(TestParamTransaction)
#include "tst_paramtransaction.moc"
