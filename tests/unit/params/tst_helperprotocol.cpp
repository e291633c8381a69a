// The helper's logic on a temp tree: strict request parsing, names/attributes/values refused
// without writing anything, the same transaction as in-process; and Applier's helper mode with
// stand-in programs (result JSON, pkexec's 126, a program that does not exist).
#include "paramfixture.h"

#include "core/params/applier.h"
#include "core/params/helperprotocol.h"
#include "core/util/systemprogram.h"
#include "tests/common/tuningrun.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace dmtune;
using dmtune::test::FakeSysfs;

class TestHelperProtocol : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void parse_data();
    void parse();
    void refusedWithoutWriting_data();
    void refusedWithoutWriting();
    void appliesAndReports();
    void rolledBackExitsOne();
    void applierRunsHelperProgram();
    void applierReportsHelperFailures();
    void applierRunsPkexecByAbsolutePath();
    void helperNeedsConsentForRiskyWrites();
    void applierAsRootRunsNoHelperFromPath();

private:
    std::unique_ptr<FakeSysfs> m_tree;
};

void TestHelperProtocol::init()
{
    m_tree = std::make_unique<FakeSysfs>();
    test::buildMultipathFixture(*m_tree);
}

void TestHelperProtocol::parse_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("ok");
    QTest::newRow("issue example") << QByteArray(
        R"({"changes":[{"device":"sdb","attribute":"queue/nomerges","value":"2"}], "dry_run":false})")
                                   << true;
    QTest::newRow("no dry_run") << QByteArray(R"({"changes":[]})") << true;
    QTest::newRow("not json") << QByteArray("changes=sdb") << false;
    QTest::newRow("array") << QByteArray("[]") << false;
    QTest::newRow("extra key") << QByteArray(R"({"changes":[],"root":"/tmp"})") << false;
    QTest::newRow("extra change key") << QByteArray(
        R"({"changes":[{"device":"sdb","attribute":"queue/nomerges","value":"2","path":"/etc"}]})")
                                      << false;
    QTest::newRow("number value") << QByteArray(
        R"({"changes":[{"device":"sdb","attribute":"queue/nomerges","value":2}]})")
                                  << false;
    QTest::newRow("dry_run string") << QByteArray(R"({"changes":[],"dry_run":"yes"})") << false;
    QTest::newRow("huge") << QByteArray(helperMaxRequestBytes + 1, ' ') << false;
}

void TestHelperProtocol::parse()
{
    QFETCH(QByteArray, json);
    QTEST(parseHelperRequest(json).ok(), "ok");
}

void TestHelperProtocol::refusedWithoutWriting_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<QString>("value");
    QTest::newRow("../") << QStringLiteral("../sdb") << QStringLiteral("queue/nomerges") << QStringLiteral("2");
    QTest::newRow("absolute") << QStringLiteral("/sys/block/sdb") << QStringLiteral("queue/nomerges")
                              << QStringLiteral("2");
    QTest::newRow("symlinked name") << QStringLiteral("evil") << QStringLiteral("queue/nomerges")
                                    << QStringLiteral("2");
    QTest::newRow("unknown attribute") << QStringLiteral("sdb") << QStringLiteral("queue/../../../../etc/shadow")
                                       << QStringLiteral("x");
    QTest::newRow("raw attribute") << QStringLiteral("sdb") << QStringLiteral("queue/logical_block_size")
                                   << QStringLiteral("4096");
    QTest::newRow("out of range") << QStringLiteral("sdb") << QStringLiteral("device/queue_depth")
                                  << QStringLiteral("100000");
    QTest::newRow("bad type") << QStringLiteral("sdb") << QStringLiteral("queue/rotational")
                              << QStringLiteral("yes please");
    QTest::newRow("newline in value") << QStringLiteral("sdb") << QStringLiteral("queue/scheduler")
                                      << QStringLiteral("none\nbfq");
}

void TestHelperProtocol::refusedWithoutWriting()
{
    QFETCH(QString, device);
    QFETCH(QString, attribute);
    QFETCH(QString, value);
    m_tree->file(QStringLiteral("elsewhere/queue/nomerges"), QStringLiteral("0"));
    m_tree->link(QStringLiteral("block/evil"), QStringLiteral("elsewhere"));
    const QByteArray before = test::treeDigest(m_tree->root());
    // A valid change first: the whole request is refused, not just the bad change.
    const HelperReply reply = runHelper(SysfsRoot::scratch(m_tree->root()),
        helperRequestJson({ Change { QStringLiteral("sdc"), QStringLiteral("queue/nomerges"), QStringLiteral("1") },
                              Change { device, attribute, value } },
            false));
    QCOMPARE(reply.exitCode, 2);
    const auto result = applyResultFromJson(QJsonDocument::fromJson(reply.json).object());
    QVERIFY(result);
    QVERIFY(!result->ok() && result->rejected() && !result->anyWritten());
    QCOMPARE(result->executor, QStringLiteral("helper"));
    QCOMPARE(result->errors.size(), 1);
    QCOMPARE(result->errors.first().device, device);
    QCOMPARE(test::treeDigest(m_tree->root()), before);
}

void TestHelperProtocol::appliesAndReports()
{
    const SysfsRoot sysfs = SysfsRoot::scratch(m_tree->root());
    const HelperReply dry
        = runHelper(sysfs, R"({"changes":[{"device":"sdb","attribute":"queue/nomerges","value":"2"}],"dry_run":true})");
    QCOMPARE(dry.exitCode, 0);
    QCOMPARE(sysfs.readOr(QStringLiteral("block/sdb/queue/nomerges")), QStringLiteral("0"));
    // With the path's queue_depth (as it is): a change the fixture's nr_requests vs queue_depth warning concerns.
    const HelperReply reply = runHelper(sysfs,
        R"({"changes":[{"device":"sdb","attribute":"queue/nomerges","value":"2"},)"
        R"({"device":"sdb","attribute":"device/queue_depth","value":"32"}]})");
    QCOMPARE(reply.exitCode, 0);
    QCOMPARE(sysfs.readOr(QStringLiteral("block/sdb/queue/nomerges")), QStringLiteral("2"));
    const QJsonObject o = QJsonDocument::fromJson(reply.json).object();
    const QJsonObject change = o.value(QLatin1String("changes")).toArray().first().toObject();
    QCOMPARE(change.value(QLatin1String("device")).toString(), QStringLiteral("sdb"));
    QCOMPARE(change.value(QLatin1String("old")).toString(), QStringLiteral("0"));
    QCOMPARE(change.value(QLatin1String("requested")).toString(), QStringLiteral("2"));
    QCOMPARE(change.value(QLatin1String("new")).toString(), QStringLiteral("2"));
    QCOMPARE(change.value(QLatin1String("clamped")).toBool(), false);
    QCOMPARE(o.value(QLatin1String("rolled_back")).toBool(), false);
    QVERIFY(o.value(QLatin1String("errors")).toArray().isEmpty());
    // The seed's warning travels with the result.
    QCOMPARE(o.value(QLatin1String("warnings")).toArray().first().toObject().value(QLatin1String("code")).toString(),
        QStringLiteral("nr-requests-vs-queue-depth"));
}

// Valid by every check, refused by the "kernel" at write time: a /dev/full node (1:7) as the
// last target. The helper rolls back and exits 1. Needs root for mknod.
void TestHelperProtocol::rolledBackExitsOne()
{
    const SysfsRoot sysfs = SysfsRoot::scratch(m_tree->root());
    const QByteArray target = QFile::encodeName(m_tree->root() + QLatin1Char('/')
        + m_tree->devicePath(QStringLiteral("sdd")) + QStringLiteral("/queue/rotational"));
    QVERIFY(QFile::remove(QFile::decodeName(target)));
    if (::mknod(target.constData(), S_IFCHR | 0644, makedev(1, 7)) != 0)
        QSKIP("mknod needs root");
    const HelperReply reply = runHelper(sysfs,
        R"({"changes":[{"device":"sdb","attribute":"queue/nomerges","value":"2"},)"
        R"({"device":"sdd","attribute":"queue/rotational","value":"1"}]})");
    QCOMPARE(reply.exitCode, 1);
    const auto result = applyResultFromJson(QJsonDocument::fromJson(reply.json).object());
    QVERIFY(result && result->rolledBack);
    QCOMPARE(result->errors.first().text(), QStringLiteral("sdd queue/rotational=1: No space left on device"));
    QCOMPARE(sysfs.readOr(QStringLiteral("block/sdb/queue/nomerges")), QStringLiteral("0"));
}

void TestHelperProtocol::applierRunsHelperProgram()
{
    const QString sh = QStandardPaths::findExecutable(QStringLiteral("sh"));
    if (sh.isEmpty())
        QSKIP("no sh");
    Applier applier(SysfsRoot::scratch(m_tree->root()));
    applier.setMode(Applier::Mode::Helper);
    QVERIFY(applier.usesHelper());
    // A stand-in helper: reads the request, answers like the real one would.
    applier.setHelperCommand(sh,
        { QStringLiteral("-c"),
            QStringLiteral("grep -q '\"dry_run\":true' && echo '{\"ok\":true,\"dry_run\":true,\"rolled_back\":false,"
                           "\"executor\":\"helper\",\"changes\":[{\"device\":\"sdb\",\"attribute\":\"queue/nomerges\","
                           "\"old\":\"0\",\"requested\":\"2\",\"new\":\"0\"}],\"errors\":[],\"warnings\":[]}'") });
    QSignalSpy finished(&applier, &Applier::finished);
    QVERIFY(test::runTuning(
        applier, { Change { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } }, true));
    QVERIFY(applier.isBusy());
    QVERIFY(finished.wait(5000));
    const auto r = finished.first().first().value<ApplyResult>();
    QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    QVERIFY(r.dryRun);
    QCOMPARE(r.executor, QStringLiteral("helper"));
    QCOMPARE(r.changes.first().requested, QStringLiteral("2"));
    QVERIFY(!applier.isBusy());
}

void TestHelperProtocol::applierReportsHelperFailures()
{
    const QString sh = QStandardPaths::findExecutable(QStringLiteral("sh"));
    if (sh.isEmpty())
        QSKIP("no sh");
    Applier applier(SysfsRoot::scratch(m_tree->root()));
    applier.setMode(Applier::Mode::Helper);
    QSignalSpy finished(&applier, &Applier::finished);
    applier.setHelperCommand(sh, { QStringLiteral("-c"), QStringLiteral("cat >/dev/null; exit 126") });
    QVERIFY(test::runTuning(
        applier, { Change { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } }));
    QVERIFY(finished.wait(5000));
    auto r = finished.takeFirst().first().value<ApplyResult>();
    QVERIFY(!r.ok());
    QCOMPARE(r.errors.first().stage, ApplyError::Stage::Helper);
    QVERIFY2(r.errorMessage().contains(QLatin1String("dismissed")), qPrintable(r.errorMessage()));

    applier.setHelperCommand(QStringLiteral("/nonexistent/dmtune-helper"), {});
    QVERIFY(test::runTuning(
        applier, { Change { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } }));
    QVERIFY(finished.wait(5000));
    r = finished.takeFirst().first().value<ApplyResult>();
    QVERIFY(!r.ok());
    QVERIFY2(r.errorMessage().contains(QLatin1String("cannot start")), qPrintable(r.errorMessage()));
    QCOMPARE(m_tree->root().isEmpty(), false);
    QCOMPARE(
        SysfsRoot(m_tree->root(), QString()).readOr(QStringLiteral("block/sdb/queue/nomerges")), QStringLiteral("0"));
}

void TestHelperProtocol::applierRunsPkexecByAbsolutePath()
{
    // A "pkexec" first on $PATH (a directory the user controls) must not be what dmtune runs.
    QTemporaryDir bin;
    const QString fake = bin.filePath(QStringLiteral("pkexec"));
    const QString marker = bin.filePath(QStringLiteral("ran"));
    {
        QFile f(fake);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("#!/bin/sh\ncat >/dev/null; touch '%1'; exit 127\n").arg(marker).toUtf8());
    }
    QVERIFY(QFile::setPermissions(fake, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    const QByteArray oldPath = qgetenv("PATH");
    qputenv("PATH", QFile::encodeName(bin.path()) + ':' + oldPath);
    Applier applier(SysfsRoot::scratch(m_tree->root()));
    qputenv("PATH", oldPath);
    QVERIFY2(applier.helperProgram().startsWith(QLatin1Char('/')), qPrintable(applier.helperProgram()));
    QVERIFY(!applier.helperProgram().startsWith(bin.path()));
    QCOMPARE(QFileInfo(applier.helperProgram()).fileName(), QStringLiteral("pkexec"));
    QCOMPARE(findProgram(QStringLiteral("pkexec"), false, { bin.path() }).value(), fake); // a user's own PATH
    QVERIFY(!findProgram(QStringLiteral("pkexec"), true).valueOr({}).startsWith(bin.path())); // root's: never it
    QVERIFY(!findProgram(bin.path() + QStringLiteral("/pkexec"), false));
    if (QFileInfo::exists(applier.helperProgram()))
        return; // the real pkexec: not run by a unit test
    // Without pkexec installed, starting the helper fails; the fake first on $PATH never runs.
    qputenv("PATH", QFile::encodeName(bin.path()) + ':' + oldPath);
    applier.setMode(Applier::Mode::Helper);
    QSignalSpy finished(&applier, &Applier::finished);
    QVERIFY(test::runTuning(
        applier, { Change { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } }, true));
    const bool done = finished.wait(5000);
    qputenv("PATH", oldPath);
    QVERIFY(done);
    QVERIFY(!finished.first().first().value<ApplyResult>().ok());
    QVERIFY(!QFileInfo::exists(marker));
}

void TestHelperProtocol::helperNeedsConsentForRiskyWrites()
{
    const SysfsRoot sysfs = SysfsRoot::scratch(m_tree->root());
    m_tree->file(
        m_tree->devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/write_cache"), QStringLiteral("write back"));
    const ChangeSet risky { Change {
        QStringLiteral("sdb"), QStringLiteral("queue/write_cache"), QStringLiteral("write through") } };
    // The helper plans again: a request without the user's confirmation is refused there too.
    HelperReply reply = runHelper(sysfs, helperRequestJson(risky, false));
    QCOMPARE(reply.exitCode, 2);
    QVERIFY2(reply.json.contains("puts data at risk"), reply.json.constData());
    QCOMPARE(sysfs.readOr(QStringLiteral("block/sdb/queue/write_cache")), QStringLiteral("write back"));
    QVERIFY(helperRequestJson(risky, false, RiskConsent::Given).contains("\"risks_confirmed\":true"));
    QVERIFY(!parseHelperRequest(R"({"changes":[],"risks_confirmed":"yes"})"));
    reply = runHelper(sysfs, helperRequestJson(risky, false, RiskConsent::Given));
    QVERIFY2(reply.exitCode == 0, reply.json.constData());
    QCOMPARE(sysfs.readOr(QStringLiteral("block/sdb/queue/write_cache")), QStringLiteral("write through"));
}

void TestHelperProtocol::applierAsRootRunsNoHelperFromPath()
{
    if (::geteuid() != 0)
        QSKIP("as root only: a user's own PATH is the user's business");
    // A "pkexec" planted first in PATH: as root the helper program is looked up in the system directories
    // only, so the planted one never runs.
    QTemporaryDir bin;
    const QString marker = bin.filePath(QStringLiteral("ran"));
    QFile planted(bin.filePath(QStringLiteral("dmtune-test-pkexec")));
    QVERIFY(planted.open(QIODevice::WriteOnly));
    planted.write(QStringLiteral("#!/bin/sh\ntouch '%1'\ncat >/dev/null\n").arg(marker).toUtf8());
    planted.close();
    planted.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", QFile::encodeName(bin.path()) + ':' + path);
    Applier applier(SysfsRoot::scratch(m_tree->root()));
    applier.setMode(Applier::Mode::Helper);
    applier.setHelperCommand(QStringLiteral("dmtune-test-pkexec"), {});
    QSignalSpy finished(&applier, &Applier::finished);
    QVERIFY(test::runTuning(
        applier, { Change { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } }));
    const bool done = finished.wait(5000);
    qputenv("PATH", path);
    QVERIFY(done);
    const auto r = finished.first().first().value<ApplyResult>();
    QVERIFY(!r.ok());
    QVERIFY2(r.errorMessage().contains(QLatin1String("not found in /usr/local/sbin")), qPrintable(r.errorMessage()));
    QVERIFY(!QFile::exists(marker));
}

QTEST_GUILESS_MAIN(TestHelperProtocol)
#include "tst_helperprotocol.moc"
