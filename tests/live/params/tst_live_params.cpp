// live (root): parameter transactions against the real kernel, on loop devices this test creates
// over temp files (losetup --find --show) and detaches whatever happens. No other device is touched.
#include "core/params/planner.h"
#include "core/params/transaction.h"
#include "core/params/tunable.h"
#include "core/params/valueparsers.h"
#include "tests/common/testpaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace dmtune;

namespace {

// Loop devices over sparse files; detached in the destructor, so a failing test leaves none behind.
// A loop device's queue outlives the detach (scheduler, nr_requests, nomerges, max_sectors_kb and
// wbt_lat_usec stay for the next user of loopN): every writable tunable is put back first.
class LoopDevices {
public:
    ~LoopDevices() { release(); }
    QString create(const QTemporaryDir &dir)
    {
        const QString file = dir.filePath(QStringLiteral("loop%1.img").arg(m_files.size()));
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly) || !f.resize(64 << 20))
            return {};
        f.close();
        m_files << file;
        QProcess p;
        p.start(QStringLiteral("losetup"), { QStringLiteral("--find"), QStringLiteral("--show"), file });
        if (!p.waitForFinished(30000) || p.exitCode() != 0)
            return {};
        const QString dev = QString::fromLocal8Bit(p.readAllStandardOutput()).trimmed();
        if (!dev.startsWith(QLatin1String("/dev/loop")))
            return {};
        m_devices << dev;
        ChangeSet initial;
        for (const auto &t : readTunables(SysfsRoot(), dev.mid(5))) {
            if (t.known && t.writable && t.readable)
                initial << Change { t.device, t.attribute, t.value };
        }
        m_initial << initial;
        return dev.mid(5);
    }
    void release()
    {
        for (qsizetype i = 0; i < m_devices.size(); ++i) {
            // Only what changed: some kernel defaults cannot be written back (discard_max_bytes).
            ChangeSet changed;
            for (const auto &c : m_initial.value(i)) {
                const auto now = readTunable(SysfsRoot(), c.device, c.attribute);
                if (now && now->value != c.value)
                    changed << c;
            }
            // What the device had (write_cache included): put back as it was, risky or not.
            const ApplyResult r = applyChanges(SysfsRoot(), changed, false, RiskConsent::Given);
            if (!r.ok())
                qWarning("restoring %s: %s", qPrintable(m_devices[i]), qPrintable(r.errorMessage()));
            QProcess::execute(QStringLiteral("losetup"), { QStringLiteral("-d"), m_devices[i] });
        }
        m_devices.clear();
        m_initial.clear();
        for (const auto &f : std::as_const(m_files))
            QFile::remove(f);
        m_files.clear();
    }

private:
    QStringList m_devices, m_files;
    QList<ChangeSet> m_initial;
};

Change ch(const QString &device, const char *attribute, const char *value)
{
    return Change { device, QString::fromLatin1(attribute), QString::fromLatin1(value) };
}

} // namespace

class TestLiveParams : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void setAndReadBack();
    void clampingReported();
    void schedulerResetsNrRequests();
    void invalidBatchLeavesEverything();
    void kernelRefusalRollsBackEverything();
    void helperRejectsAndWritesNothing_data();
    void helperRejectsAndWritesNothing();
    void helperApplies();
    void cli();
    void cliNamesAndOnlyChanges();
    void cliCurrentValueIsUnchanged();

private:
    QString value(const char *attribute) const
    {
        return m_sysfs.readOr(QStringLiteral("block/%1/%2").arg(m_loop, QString::fromLatin1(attribute)));
    }
    QString scheduler() const { return parseSchedulerList(value("queue/scheduler"))->current; }
    // Every readable queue attribute (and iosched/*) of the loop device.
    QMap<QString, QString> queueState() const
    {
        QMap<QString, QString> out;
        for (const QString &dir : { QStringLiteral("queue"), QStringLiteral("queue/iosched") }) {
            const QString base = QStringLiteral("block/%1/%2").arg(m_loop, dir);
            for (const auto &f : m_sysfs.list(base)) {
                if (!m_sysfs.isDir(base + QLatin1Char('/') + f))
                    out.insert(dir + QLatin1Char('/') + f, m_sysfs.readOr(base + QLatin1Char('/') + f));
            }
        }
        return out;
    }
    QPair<int, QJsonObject> runHelper(const QByteArray &request) const;

    SysfsRoot m_sysfs;
    QTemporaryDir m_dir;
    LoopDevices m_loops;
    QString m_loop, m_loop2;
};

void TestLiveParams::initTestCase()
{
    if (::geteuid() != 0)
        QSKIP("needs root (losetup, sysfs writes)");
    if (QStandardPaths::findExecutable(QStringLiteral("losetup")).isEmpty()
        && QStandardPaths::findExecutable(
            QStringLiteral("losetup"), { QStringLiteral("/usr/sbin"), QStringLiteral("/sbin") })
               .isEmpty())
        QSKIP("losetup not installed");
    QVERIFY(m_dir.isValid());
    m_loop = m_loops.create(m_dir);
    m_loop2 = m_loops.create(m_dir);
    QVERIFY2(!m_loop.isEmpty() && !m_loop2.isEmpty(), "losetup --find --show failed");
    qInfo("loop devices: %s %s (kernel %s)", qPrintable(m_loop), qPrintable(m_loop2),
        qPrintable(QSysInfo::kernelVersion()));
    if (!parseSchedulerList(value("queue/scheduler"))->available.contains(QStringLiteral("mq-deadline")))
        QSKIP("no mq-deadline on this kernel");
}

void TestLiveParams::cleanupTestCase()
{
    m_loops.release();
}

void TestLiveParams::setAndReadBack()
{
    const ApplyResult r = applyChanges(m_sysfs,
        { ch(m_loop, "queue/nr_requests", "64"), ch(m_loop, "queue/nomerges", "2"),
            ch(m_loop, "queue/scheduler", "mq-deadline"), ch(m_loop, "queue/max_sectors_kb", "128") });
    QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    QCOMPARE(scheduler(), QStringLiteral("mq-deadline"));
    QCOMPARE(value("queue/nr_requests"), QStringLiteral("64"));
    QCOMPARE(value("queue/nomerges"), QStringLiteral("2"));
    QCOMPARE(value("queue/max_sectors_kb"), QStringLiteral("128"));
    for (const auto &c : r.changes) {
        QVERIFY2(!c.clamped, qPrintable(c.summary()));
        qInfo("%s",
            qPrintable(
                c.summary() + (c.note.isEmpty() ? QString() : QStringLiteral(" (") + c.note + QLatin1Char(')'))));
    }
    // scheduler first, nr_requests after it.
    QCOMPARE(r.changes.first().attribute, QStringLiteral("queue/scheduler"));
    QCOMPARE(r.changes[1].attribute, QStringLiteral("queue/nr_requests"));
    // And back down: max_sectors_kb to the hardware limit.
    const QString hw = value("queue/max_hw_sectors_kb");
    QVERIFY(applyChanges(m_sysfs, { Change { m_loop, QStringLiteral("queue/max_sectors_kb"), hw } }).ok());
    QCOMPARE(value("queue/max_sectors_kb"), hw);
}

void TestLiveParams::clampingReported()
{
    for (const char *v : { "0", "1", "3" }) {
        const ApplyResult r = applyChanges(m_sysfs, { ch(m_loop, "queue/nr_requests", "64") });
        QVERIFY(r.ok());
        const ApplyResult c = applyChanges(m_sysfs, { ch(m_loop, "queue/nr_requests", v) });
        QVERIFY2(c.ok(), qPrintable(c.errorMessage()));
        const ChangeOutcome &o = c.changes.first();
        qInfo("nr_requests %s: %s, clamped=%d", v, qPrintable(o.summary()), o.clamped);
        QCOMPARE(o.requested, QString::fromLatin1(v));
        QCOMPARE(o.newValue, QStringLiteral("4"));
        QVERIFY(o.clamped);
        QVERIFY(o.written);
    }
    // read_ahead_kb is kept in whole pages.
    const ApplyResult ra = applyChanges(m_sysfs, { ch(m_loop, "queue/read_ahead_kb", "1001") });
    QVERIFY(ra.ok());
    qInfo("read_ahead_kb 1001: %s, clamped=%d", qPrintable(ra.changes.first().summary()), ra.changes.first().clamped);
    QCOMPARE(ra.changes.first().clamped, ra.changes.first().newValue != QLatin1String("1001"));
}

void TestLiveParams::schedulerResetsNrRequests()
{
    QVERIFY(
        applyChanges(m_sysfs, { ch(m_loop, "queue/scheduler", "none"), ch(m_loop, "queue/nr_requests", "32") }).ok());
    QCOMPARE(value("queue/nr_requests"), QStringLiteral("32"));
    const ApplyResult r = applyChanges(m_sysfs, { ch(m_loop, "queue/scheduler", "mq-deadline") });
    QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    // The kernel's reset shows up as a side effect, and undo (the inverse) puts it back.
    QCOMPARE(r.changes.size(), 2);
    const ChangeOutcome &side = r.changes[1];
    QVERIFY(side.sideEffect);
    QCOMPARE(side.attribute, QStringLiteral("queue/nr_requests"));
    QCOMPARE(side.oldValue, QStringLiteral("32"));
    qInfo("scheduler none -> mq-deadline reset nr_requests 32 -> %s", qPrintable(side.newValue));
    QVERIFY(side.newValue != QLatin1String("32"));
}

void TestLiveParams::invalidBatchLeavesEverything()
{
    QVERIFY(applyChanges(m_sysfs,
        { ch(m_loop, "queue/scheduler", "mq-deadline"), ch(m_loop, "queue/nr_requests", "100"),
            ch(m_loop, "queue/iosched/fifo_batch", "8"), ch(m_loop, "queue/nomerges", "0") })
                .ok());
    const auto before = queueState();
    const ApplyResult r = applyChanges(m_sysfs,
        { ch(m_loop, "queue/nomerges", "2"), ch(m_loop, "queue/max_sectors_kb", "64"),
            ch(m_loop, "queue/scheduler", "no-such-sched") });
    QVERIFY(!r.ok());
    QVERIFY(r.rejected());
    QCOMPARE(r.errors.size(), 1);
    QCOMPARE(r.errors.first().attribute, QStringLiteral("queue/scheduler"));
    QCOMPARE(queueState(), before);
}

// Validation is bypassed here on purpose (a hand-made last write), so the kernel itself refuses
// the unknown scheduler with EINVAL after three real writes, one of them a scheduler switch.
void TestLiveParams::kernelRefusalRollsBackEverything()
{
    QVERIFY(applyChanges(m_sysfs,
        { ch(m_loop, "queue/scheduler", "mq-deadline"), ch(m_loop, "queue/nr_requests", "100"),
            ch(m_loop, "queue/iosched/fifo_batch", "8"), ch(m_loop, "queue/nomerges", "0"),
            ch(m_loop2, "queue/nomerges", "0") })
                .ok());
    const auto before = queueState();
    const QString before2 = m_sysfs.readOr(QStringLiteral("block/%1/queue/nomerges").arg(m_loop2));
    Plan plan = planChanges(m_sysfs,
        { ch(m_loop, "queue/scheduler", "kyber"), ch(m_loop, "queue/nr_requests", "50"),
            ch(m_loop, "queue/nomerges", "2"), ch(m_loop2, "queue/nomerges", "1") });
    QVERIFY2(plan.ok(), qPrintable(plan.errors.value(0).text()));
    PlannedWrite bad;
    bad.device = m_loop;
    bad.attribute = QStringLiteral("queue/scheduler");
    bad.path = QStringLiteral("block/%1/queue/scheduler").arg(m_loop);
    bad.value = QStringLiteral("no-such-sched");
    plan.writes << bad;
    const ApplyResult r = executePlan(m_sysfs, plan);
    QVERIFY(r.rolledBack);
    QCOMPARE(r.errors.size(), 1);
    qInfo("kernel refusal: %s", qPrintable(r.errors.first().text()));
    QCOMPARE(r.errors.first().message, QStringLiteral("Invalid argument"));
    QCOMPARE(r.errors.first().device, m_loop);
    // Scheduler, nr_requests (reset by two switches), mq-deadline's fifo_batch, nomerges: all back.
    QCOMPARE(queueState(), before);
    QCOMPARE(scheduler(), QStringLiteral("mq-deadline"));
    QCOMPARE(value("queue/nr_requests"), QStringLiteral("100"));
    QCOMPARE(value("queue/iosched/fifo_batch"), QStringLiteral("8"));
    QCOMPARE(m_sysfs.readOr(QStringLiteral("block/%1/queue/nomerges").arg(m_loop2)), before2);
}

QPair<int, QJsonObject> TestLiveParams::runHelper(const QByteArray &request) const
{
    QProcess p;
    p.start(DMTUNE_BINARY_PATH("/app/dmtune-helper/dmtune-helper"), {});
    p.write(request);
    p.closeWriteChannel();
    if (!p.waitForFinished(30000))
        return { -1, {} };
    return { p.exitCode(), QJsonDocument::fromJson(p.readAllStandardOutput()).object() };
}

void TestLiveParams::helperRejectsAndWritesNothing_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<QString>("value");
    QTest::newRow("../") << QStringLiteral("../%1") << QStringLiteral("queue/nomerges") << QStringLiteral("2");
    QTest::newRow("path") << QStringLiteral("/sys/block/%1") << QStringLiteral("queue/nomerges") << QStringLiteral("2");
    QTest::newRow("symlinked name") << QStringLiteral("LINK") << QStringLiteral("queue/nomerges")
                                    << QStringLiteral("2");
    QTest::newRow("unknown attribute") << QStringLiteral("%1") << QStringLiteral("queue/../../../../../tmp/x")
                                       << QStringLiteral("2");
    QTest::newRow("read-only attribute") << QStringLiteral("%1") << QStringLiteral("queue/logical_block_size")
                                         << QStringLiteral("4096");
    QTest::newRow("ignored knob") << QStringLiteral("%1") << QStringLiteral("queue/io_poll_delay")
                                  << QStringLiteral("10");
    QTest::newRow("out of range") << QStringLiteral("%1") << QStringLiteral("queue/nr_requests")
                                  << QStringLiteral("100000");
    QTest::newRow("bad type") << QStringLiteral("%1") << QStringLiteral("queue/nomerges") << QStringLiteral("lots");
}

void TestLiveParams::helperRejectsAndWritesNothing()
{
    QFETCH(QString, device);
    QFETCH(QString, attribute);
    QFETCH(QString, value);
    // A link to the device's sysfs directory, given as the "name".
    const QString link = m_dir.filePath(QStringLiteral("sneaky"));
    QFile::remove(link);
    QVERIFY(QFile::link(QStringLiteral("/sys/block/") + m_loop, link));
    device = device == QLatin1String("LINK") ? link : device.arg(m_loop);
    const auto before = queueState();
    const QString other = m_sysfs.readOr(QStringLiteral("block/%1/queue/nomerges").arg(m_loop2));
    QJsonArray changes {
        QJsonObject { { QStringLiteral("device"), m_loop2 },
            { QStringLiteral("attribute"), QStringLiteral("queue/nomerges") },
            { QStringLiteral("value"), other == QLatin1String("1") ? QStringLiteral("2") : QStringLiteral("1") } },
        QJsonObject { { QStringLiteral("device"), device }, { QStringLiteral("attribute"), attribute },
            { QStringLiteral("value"), value } }
    };
    const auto [code, reply]
        = runHelper(QJsonDocument(QJsonObject { { QStringLiteral("changes"), changes } }).toJson());
    QCOMPARE(code, 2);
    QCOMPARE(reply.value(QLatin1String("ok")).toBool(true), false);
    const QJsonArray errors = reply.value(QLatin1String("errors")).toArray();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.first().toObject().value(QLatin1String("device")).toString(), device);
    qInfo("%s", qPrintable(errors.first().toObject().value(QLatin1String("error")).toString()));
    QCOMPARE(queueState(), before);
    QCOMPARE(m_sysfs.readOr(QStringLiteral("block/%1/queue/nomerges").arg(m_loop2)), other);
}

void TestLiveParams::helperApplies()
{
    const QString req = QStringLiteral(R"({"changes":[{"device":"%1","attribute":"queue/nomerges","value":"1"},)"
                                       R"({"device":"%1","attribute":"queue/nr_requests","value":"0"}],"dry_run":%2})");
    const auto before = queueState();
    auto [code, reply] = runHelper(req.arg(m_loop, QStringLiteral("true")).toUtf8());
    QCOMPARE(code, 0);
    QCOMPARE(queueState(), before);
    std::tie(code, reply) = runHelper(req.arg(m_loop, QStringLiteral("false")).toUtf8());
    QCOMPARE(code, 0);
    QCOMPARE(value("queue/nomerges"), QStringLiteral("1"));
    const QJsonArray changes = reply.value(QLatin1String("changes")).toArray();
    const QJsonObject nr = changes.first().toObject(); // nr_requests is written first
    QCOMPARE(nr.value(QLatin1String("attribute")).toString(), QStringLiteral("queue/nr_requests"));
    QCOMPARE(nr.value(QLatin1String("new")).toString(), QStringLiteral("4"));
    QCOMPARE(nr.value(QLatin1String("clamped")).toBool(), true);
    QCOMPARE(reply.value(QLatin1String("executor")).toString(), QStringLiteral("helper"));
}

void TestLiveParams::cli()
{
    const QString ctl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
    const auto run = [&](const QStringList &args) {
        QProcess p;
        p.start(ctl, args);
        p.waitForFinished(30000);
        return std::make_tuple(
            p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()));
    };
    auto [code, out, err] = run({ QStringLiteral("set"), QStringLiteral("/dev/") + m_loop, QStringLiteral("nomerges=2"),
        QStringLiteral("nr_requests=0") });
    QVERIFY2(code == 0, qPrintable(err));
    QVERIFY2(out.contains(QLatin1String("(requested 0, clamped by the kernel)")), qPrintable(out));
    QCOMPARE(value("queue/nomerges"), QStringLiteral("2"));
    const QString devnum = value("dev");
    std::tie(code, out, err)
        = run({ QStringLiteral("get"), devnum, QStringLiteral("nr_requests"), QStringLiteral("--json") });
    QCOMPARE(code, 0);
    QCOMPARE(QJsonDocument::fromJson(out.toUtf8())
                 .object()
                 .value(QLatin1String("tunables"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QLatin1String("value"))
                 .toString(),
        QStringLiteral("4"));
    std::tie(code, out, err) = run({ QStringLiteral("set"), m_loop, QStringLiteral("wbt_lat_usec=-1") });
    QVERIFY2(code == 0, qPrintable(err));
    QVERIFY2(out.contains(QLatin1String("(the kernel's default)")) && !out.contains(QLatin1String("clamped")),
        qPrintable(out));
    std::tie(code, out, err) = run({ QStringLiteral("set"), QStringLiteral("--help") });
    QCOMPARE(code, 0);
    QVERIFY2(out.startsWith(QLatin1String("Usage: dmtunectl set [options] DEV ATTR=VALUE...\n")), qPrintable(out));
    std::tie(code, out, err) = run({ QStringLiteral("set"), m_loop, QStringLiteral("frobnicate=1") });
    QCOMPARE(code, 2);
    std::tie(code, out, err) = run({ QStringLiteral("set"), m_loop, QStringLiteral("nomerges=9") });
    QCOMPARE(code, 2);
    // Rejected: nothing was written, so no "applied:" heading on stdout; one line on stderr.
    QVERIFY2(out.isEmpty(), qPrintable(out));
    QCOMPARE(err.count(QLatin1Char('\n')), 1);
    QCOMPARE(value("queue/nomerges"), QStringLiteral("2"));
    std::tie(code, out, err)
        = run({ QStringLiteral("set"), m_loop, QStringLiteral("nomerges=0"), QStringLiteral("--dry-run") });
    QCOMPARE(code, 0);
    QCOMPARE(value("queue/nomerges"), QStringLiteral("2"));

    // write_cache=write through stops the kernel's flushes: a data risk, answered only by naming the
    // device. Refused without an answer and with --force (one line, exit 1, nothing written); --dry-run previews
    // it and exits as the run would (1, with the same line); written with --destroy-data-on DEV; write back needs
    // nothing.
    if (value("queue/write_cache") != QLatin1String("write back"))
        QSKIP("the loop device reports no volatile cache (write_cache is not \"write back\")");
    const QString answer = QStringLiteral("refused without --destroy-data-on %1").arg(m_loop);
    for (const QStringList &extra : { QStringList(), QStringList { QStringLiteral("--force") } }) {
        std::tie(code, out, err)
            = run(QStringList { QStringLiteral("set"), m_loop, QStringLiteral("write_cache=write through") } + extra);
        QCOMPARE(code, 1);
        QVERIFY2(out.isEmpty(), qPrintable(out));
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY2(err.contains(answer) && err.contains(QLatin1String("power")), qPrintable(err));
        QCOMPARE(value("queue/write_cache"), QStringLiteral("write back"));
    }
    std::tie(code, out, err) = run(
        { QStringLiteral("set"), m_loop, QStringLiteral("write_cache=write through"), QStringLiteral("--dry-run") });
    QCOMPARE(code, 1);
    QVERIFY2(out.contains(QLatin1String("risk: ")), qPrintable(out));
    QVERIFY2(err.contains(answer), qPrintable(err));
    QCOMPARE(value("queue/write_cache"), QStringLiteral("write back"));
    std::tie(code, out, err) = run({ QStringLiteral("set"), m_loop, QStringLiteral("write_cache=write through"),
        QStringLiteral("--destroy-data-on"), m_loop });
    QVERIFY2(code == 0, qPrintable(err));
    QCOMPARE(value("queue/write_cache"), QStringLiteral("write through"));
    std::tie(code, out, err) = run({ QStringLiteral("set"), m_loop, QStringLiteral("write_cache=write back") });
    QVERIFY2(code == 0, qPrintable(err));
    QCOMPARE(value("queue/write_cache"), QStringLiteral("write back"));
}

// The names a user types on a real kernel's loop device: a read-only attribute is called read-only and
// nothing is written; an iosched file and the scheduler by their last parts; set prints only what changes (the
// values already set on one "already set:" line, not as steps "X -> X").
void TestLiveParams::cliNamesAndOnlyChanges()
{
    const QString ctl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
    const auto run = [&](const QStringList &args) {
        QProcess p;
        p.start(ctl, args);
        p.waitForFinished(30000);
        return std::make_tuple(
            p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()));
    };
    const QString blockSize = value("queue/logical_block_size");
    QVERIFY(!blockSize.isEmpty());
    auto [code, out, err] = run({ QStringLiteral("set"), m_loop, QStringLiteral("logical_block_size=4096") });
    QCOMPARE(code, 2);
    QCOMPARE(out, QString());
    QCOMPARE(err,
        QStringLiteral("dmtunectl: set: queue/logical_block_size is read-only: the kernel reports it, nothing can set "
                       "it (see dmtunectl set --help)\n"));
    QCOMPARE(value("queue/logical_block_size"), blockSize);

    std::tie(code, out, err) = run({ QStringLiteral("set"), m_loop, QStringLiteral("scheduler=mq-deadline") });
    QVERIFY2(code == 0, qPrintable(err));
    std::tie(code, out, err) = run({ QStringLiteral("get"), m_loop, QStringLiteral("read_expire"),
        QStringLiteral("logical_block_size"), QStringLiteral("--json") });
    QVERIFY2(code == 0, qPrintable(err));
    const QJsonArray rows = QJsonDocument::fromJson(out.toUtf8()).object().value(QLatin1String("tunables")).toArray();
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows.at(0)[QLatin1String("attribute")].toString(), QStringLiteral("queue/iosched/read_expire"));
    QCOMPARE(rows.at(1)[QLatin1String("attribute")].toString(), QStringLiteral("queue/logical_block_size"));
    QCOMPARE(rows.at(1)[QLatin1String("value")].toString(), blockSize);

    const QString nomerges = value("queue/nomerges");
    const QString other = nomerges == QLatin1String("1") ? QStringLiteral("0") : QStringLiteral("1");
    std::tie(code, out, err) = run({ QStringLiteral("set"), m_loop, QStringLiteral("scheduler=mq-deadline"),
        QStringLiteral("nomerges=") + other });
    QVERIFY2(code == 0, qPrintable(err));
    QCOMPARE(out,
        QStringLiteral("plan:\n  1. %1 queue/nomerges: %2 -> %3\nalready set: queue/scheduler=mq-deadline on %1\n"
                       "applied:\n  %1 queue/nomerges: %2 -> %3\n")
            .arg(m_loop, nomerges, other));
    QCOMPARE(value("queue/nomerges"), other);
    std::tie(code, out, err) = run({ QStringLiteral("set"), m_loop, QStringLiteral("nomerges=") + other });
    QVERIFY2(code == 0, qPrintable(err));
    QCOMPARE(out, QStringLiteral("nothing to write\nalready set: queue/nomerges=%1 on %2\n").arg(other, m_loop));
    std::tie(code, out, err) = run({ QStringLiteral("set"), m_loop, QStringLiteral("nomerges=") + nomerges });
    QVERIFY2(code == 0, qPrintable(err));
    QCOMPARE(value("queue/nomerges"), nomerges);
}

QTEST_GUILESS_MAIN(TestLiveParams)
// A loop device reports discard_max_bytes 4294966784 (0xfffffe00), off its 4096 granularity; the
// kernel refuses that very value as a write. Setting a device's current value is "already set", exit 0, nothing
// written; preset save stores only what the kernel takes back, so saving and applying on the same device plans
// nothing refused.
void TestLiveParams::cliCurrentValueIsUnchanged()
{
    const QString ctl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
    const auto run = [&](const QStringList &args) {
        QProcess p;
        p.start(ctl, args);
        p.waitForFinished(30000);
        return std::make_tuple(
            p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()));
    };
    const QString current = value("queue/discard_max_bytes");
    const auto granularity = parseInteger(value("queue/discard_granularity"));
    if (current.isEmpty() || !granularity)
        QSKIP("the loop device reports no discard limits");
    const bool offGrid = *granularity > 1 && parseInteger(current).value() % *granularity != 0;
    qInfo("discard_max_bytes %s, granularity %lld: %s", qPrintable(current), *granularity,
        offGrid ? "off the grid (the kernel refuses it as a write)" : "on the grid");
    const QMap<QString, QString> before = queueState();
    auto [code, out, err]
        = run({ QStringLiteral("set"), m_loop, QStringLiteral("queue/discard_max_bytes=") + current });
    QVERIFY2(code == 0, qPrintable(out + err));
    QCOMPARE(
        out, QStringLiteral("nothing to write\nalready set: queue/discard_max_bytes=%1 on %2\n").arg(current, m_loop));
    QCOMPARE(err, QString());
    QCOMPARE(queueState(), before);

    const QString file = m_dir.filePath(QStringLiteral("loop-saved.json"));
    std::tie(code, out, err) = run({ QStringLiteral("preset"), QStringLiteral("save"), file, m_loop });
    QVERIFY2(code == 0, qPrintable(out + err));
    QFile saved(file);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const QByteArray text = saved.readAll();
    QCOMPARE(text.contains("queue/discard_max_bytes"), !offGrid);
    std::tie(code, out, err)
        = run({ QStringLiteral("preset"), QStringLiteral("apply"), file, m_loop, QStringLiteral("--dry-run") });
    QVERIFY2(code == 0, qPrintable(out + err));
    QCOMPARE(err, QString());
    QVERIFY2(!out.contains(QLatin1String("->")), qPrintable(out)); // nothing to change on the device it came from
    QCOMPARE(queueState(), before);
}

#include "tst_live_params.moc"
