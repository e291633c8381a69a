// dmtunectl against a captured tree (dmtunectl capture of a 2x2 multipath system): every command that
// changes a system refuses --sysfs-root with one line and changes nothing, before it resolves a name in
// the tree (this host may have maps and disks of the same names); --dry-run previews against the capture's
// own tables; reading commands work. tests/vm/multipath checks the same against a real kernel's maps.
#include "tests/common/dmtunectlrun.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/testpaths.h"

#include "core/discovery/devicesnapshot.h"
#include "core/discovery/sysfscapture.h"
#include "tests/common/fakedevicemapper.h"
#include "tests/common/multipathfixture.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

// tests/common's fixture map, renamed, its table with queue_if_no_path: a reload keeps the map's features.
const QString tableParams
    = QStringLiteral("1 queue_if_no_path 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1");
const QString tableText = test::fixtureLine(tableParams);
const QString mapName = QStringLiteral("dmtune-captured-mpatha"); // not a map this host has

using clitest::dmtunectl;
using clitest::Run;

// Every file of the capture with its content: nothing in it may change.
QByteArray treeDigest(const QString &dir)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QDirIterator it(
        dir, QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    QStringList entries;
    while (it.hasNext())
        entries << it.next();
    entries.sort();
    for (const QString &e : entries) {
        hash.addData(e.toUtf8());
        const QFileInfo info(e);
        if (info.isSymLink())
            hash.addData(info.symLinkTarget().toUtf8());
        else if (info.isFile()) {
            QFile f(e);
            if (f.open(QIODevice::ReadOnly))
                hash.addData(f.readAll());
        }
    }
    return hash.result();
}

} // namespace

class TestCliCapturedTree : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_capture;

private Q_SLOTS:
    void initTestCase()
    {
        FakeSysfs t;
        test::buildMultipathFixture(t, test::fixturePaths(), mapName);
        FakeDeviceMapper dm;
        QVERIFY(test::addFixtureMapWithTable(dm, tableParams, test::fixtureStatusParams(), mapName));
        DeviceMapperState state;
        state.available = true;
        m_capture = m_dir.path() + QStringLiteral("/capture");
        const auto report = captureSystem(SysfsRoot(t.root(), QString()), m_capture, &dm, state);
        QVERIFY2(report, qPrintable(report.errorMessage()));
    }

    void writingCommandsRefuse_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString group = QStringLiteral("sda,sdb");
        QTest::newRow("set") << QStringList { QStringLiteral("set"), QStringLiteral("sda"),
            QStringLiteral("nomerges=2") };
        QTest::newRow("set --with-paths") << QStringList { QStringLiteral("set"), mapName, QStringLiteral("nomerges=2"),
            QStringLiteral("--with-paths") };
        QTest::newRow("path fail") << QStringList { QStringLiteral("path"), QStringLiteral("fail"), mapName,
            QStringLiteral("sdb") };
        QTest::newRow("path fail --force") << QStringList { QStringLiteral("path"), QStringLiteral("fail"), mapName,
            QStringLiteral("sdb"), QStringLiteral("--force") };
        QTest::newRow("path reinstate") << QStringList { QStringLiteral("path"), QStringLiteral("reinstate"), mapName,
            QStringLiteral("8:16") };
        for (const char *action : { "switch", "enable", "disable" })
            QTest::addRow("group %s", action) << QStringList { QStringLiteral("group"), QLatin1String(action), mapName,
                QStringLiteral("2"), QStringLiteral("--force") };
        QTest::newRow("map reload --selector")
            << QStringList { QStringLiteral("map"), QStringLiteral("reload"), mapName, QStringLiteral("--selector"),
                   QStringLiteral("round-robin"), QStringLiteral("--group"), group, QStringLiteral("--force") };
        QTest::newRow("map reload --table") << QStringList { QStringLiteral("map"), QStringLiteral("reload"), mapName,
            QStringLiteral("--table"), tableText };
        QTest::newRow("map queueing on") << QStringList { QStringLiteral("map"), QStringLiteral("queueing"), mapName,
            QStringLiteral("on") };
        QTest::newRow("map queueing off") << QStringList { QStringLiteral("map"), QStringLiteral("queueing"), mapName,
            QStringLiteral("off"), QStringLiteral("--no-multipathd") };
        QTest::newRow("preset apply") << QStringList { QStringLiteral("preset"), QStringLiteral("apply"),
            QStringLiteral("low-latency-random-io"), QStringLiteral("--force") };
        QTest::newRow("run") << QStringList { QStringLiteral("run"), QStringLiteral("randread"),
            QStringLiteral("--device"), QStringLiteral("sda") };
        QTest::newRow("run --dry-run") << QStringList { QStringLiteral("run"), QStringLiteral("randread"),
            QStringLiteral("--device"), QStringLiteral("sda"), QStringLiteral("--dry-run") };
        QTest::newRow("sweep") << QStringList { QStringLiteral("sweep"), mapName, QStringLiteral("--param"),
            QStringLiteral("queue_depth=2,8"), QStringLiteral("--with-paths"), QStringLiteral("batched-write-4k"),
            QStringLiteral("--force") };
        QTest::newRow("sweep --dry-run") << QStringList { QStringLiteral("sweep"), QStringLiteral("sda"),
            QStringLiteral("--param"), QStringLiteral("nomerges=0,2"), QStringLiteral("batched-write-4k"),
            QStringLiteral("--dry-run") };
    }

    void writingCommandsRefuse()
    {
        QFETCH(QStringList, args);
        const QByteArray before = treeDigest(m_capture);
        // The capture's top directory and its sys/ are the same tree.
        for (const QString &root : { m_capture, m_capture + QStringLiteral("/sys") }) {
            const Run r = dmtunectl(args + QStringList { QStringLiteral("--sysfs-root"), root });
            QVERIFY2(r.exitCode != 0, qPrintable(r.out));
            QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
            QVERIFY2(r.err.endsWith(QLatin1Char('\n')) && r.err.count(QLatin1Char('\n')) == 1, qPrintable(r.err));
            QVERIFY2(r.err.startsWith(QLatin1String("dmtunectl: ")) && r.err.contains(QLatin1String("--sysfs-root "))
                    && r.err.contains(QLatin1String("is a captured tree: read-only")),
                qPrintable(r.err));
        }
        QCOMPARE(treeDigest(m_capture), before);
    }

    // --dry-run writes nothing: it previews against the capture's own tree and tables.
    void dryRunPreviews()
    {
        const QByteArray before = treeDigest(m_capture);
        const QStringList root { QStringLiteral("--sysfs-root"), m_capture };
        Run r = dmtunectl(QStringList { QStringLiteral("set"), QStringLiteral("sda"), QStringLiteral("nomerges=2"),
                              QStringLiteral("--dry-run") }
            + root);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("plan (dry run, nothing written):")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("sda queue/nomerges: 0 -> 2")), qPrintable(r.out));

        r = dmtunectl(
            QStringList { QStringLiteral("map"), QStringLiteral("reload"), mapName, QStringLiteral("--selector"),
                QStringLiteral("service-time"), QStringLiteral("--group"), QStringLiteral("sda,sdb"),
                QStringLiteral("--group"), QStringLiteral("sdc,sdd"), QStringLiteral("--dry-run") }
            + root);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(
            r.out.startsWith(QLatin1String("0 2097152 multipath 1 queue_if_no_path 0 2 1 service-time 0 2 2 8:0 1 1 ")),
            qPrintable(r.out));
        QVERIFY2(
            r.out.contains(QLatin1String("# group 1: selector round-robin 0 -> service-time 0")), qPrintable(r.out));

        // Path and group operations are core plans too: --dry-run shows the plan on the capture's map.
        r = dmtunectl(QStringList { QStringLiteral("path"), QStringLiteral("fail"), mapName, QStringLiteral("sdb"),
                          QStringLiteral("--dry-run") }
            + root);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(mapName + QStringLiteral(": would fail_path 8:16")), qPrintable(r.out));
        QVERIFY2(
            r.out.contains(QLatin1String("# send the device-mapper message \"fail_path 8:16\"")), qPrintable(r.out));

        r = dmtunectl(QStringList { QStringLiteral("preset"), QStringLiteral("apply"),
                          QStringLiteral("low-latency-random-io"), QStringLiteral("--dry-run") }
            + root);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains(QLatin1String("(dry run, nothing written)")), qPrintable(r.out));
        QVERIFY2(r.out.contains(mapName + QStringLiteral(" table: ")), qPrintable(r.out));

        // Reading commands: the capture's map as recorded, not this host's.
        r = dmtunectl(QStringList { QStringLiteral("map"), QStringLiteral("show"), mapName } + root);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("table:  ") + tableText), qPrintable(r.out));
        r = dmtunectl(QStringList { QStringLiteral("get"), QStringLiteral("sda"), QStringLiteral("nomerges") } + root);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // diagnose reads the capture's configuration and samples its (still) counters: the map and its groups.
        r = dmtunectl(QStringList { QStringLiteral("diagnose"), mapName, QStringLiteral("-i"), QStringLiteral("0.2"),
                          QStringLiteral("--json") }
            + root);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject diagnosis = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonObject diagnosedMap = diagnosis.value(QLatin1String("maps")).toArray().first().toObject();
        QCOMPARE(diagnosedMap.value(QLatin1String("name")).toString(), mapName);
        QCOMPARE(diagnosedMap.value(QLatin1String("paths")).toArray().size(), test::fixturePaths().size());
        QVERIFY(diagnosedMap.value(QLatin1String("group_in_use")).toInt() >= 1);
        QVERIFY(diagnosis.value(QLatin1String("findings")).isArray());
        QCOMPARE(treeDigest(m_capture), before);
    }

    // The live root is not a captured one: --sysfs-root /sys is refused by nothing here (usage checks only).
    void liveRootIsNotRefused()
    {
        const Run r = dmtunectl({ QStringLiteral("group"), QStringLiteral("switch"), mapName, QStringLiteral("x"),
            QStringLiteral("--sysfs-root"), QStringLiteral("/sys") });
        QCOMPARE(r.exitCode, 2); // "x" is not a group number: the command got that far
        QVERIFY2(!r.err.contains(QLatin1String("captured tree")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliCapturedTree)
#include "tst_cli_capturedtree.moc"
