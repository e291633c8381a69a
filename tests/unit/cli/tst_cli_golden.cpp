// dmtunectl's output as users and scripts see it, recorded before the result and message types change underneath
// (text, JSON and error lines, exit statuses) and compared byte for byte after: every reading command, every
// refusal and every malformed line below, over captured trees of the test fixtures (a 2 x 2 multipath map; a
// machine of NETAPP LUNs, LVM and a loop device). The temporary directory is written <ROOT>.
// DMTUNE_GOLDEN_UPDATE=1 writes the files again (review the diff: a change here is a change users see).
#include "tests/common/dmtunectlrun.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/testpaths.h"

#include "core/discovery/devicesnapshot.h"
#include "core/discovery/sysfscapture.h"
#include "tests/common/fakedevicemapper.h"
#include "tests/common/multipathfixture.h"
#include "tests/common/standardmachine.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

using clitest::dmtunectl;
using clitest::Run;

QString S(const char *text)
{
    return QString::fromUtf8(text);
}

// One command's record: the line, its exit status, stdout and stderr, with the fixture's directory as <ROOT>.
QString recordOf(const QStringList &args, const QString &root)
{
    const Run r = dmtunectl(args);
    QString shown = args.join(u' ');
    shown.replace(root, S("<ROOT>"));
    QString record = QStringLiteral("$ dmtunectl %1\n[exit %2]\n").arg(shown).arg(r.exitCode);
    if (!r.out.isEmpty())
        record += S("--- stdout\n") + r.out + (r.out.endsWith(u'\n') ? S("") : S("\n[no newline at the end]\n"));
    if (!r.err.isEmpty())
        record += S("--- stderr\n") + r.err + (r.err.endsWith(u'\n') ? S("") : S("\n[no newline at the end]\n"));
    record.replace(root, S("<ROOT>"));
    return record + u'\n';
}

// The first line where two records differ, with its neighbours: enough to see what changed.
QString firstDifference(const QString &expected, const QString &actual)
{
    const QStringList a = expected.split(u'\n');
    const QStringList b = actual.split(u'\n');
    for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i) {
        if (a.value(i) != b.value(i))
            return QStringLiteral("line %1:\n  expected: %2\n  actual:   %3").arg(i + 1).arg(a.value(i), b.value(i));
    }
    return {};
}

} // namespace

class TestCliGolden : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_mapCapture;
    QString m_machineCapture;

    void compareWithGolden(const QString &name, const QString &actual)
    {
        const QString path = DMTUNE_SOURCE_PATH("/tests/unit/cli/golden/") + name;
        if (qEnvironmentVariableIntValue("DMTUNE_GOLDEN_UPDATE") == 1) {
            QFile out(path);
            QVERIFY2(out.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
            out.write(actual.toUtf8());
            qInfo("wrote %s", qPrintable(path));
            return;
        }
        QFile in(path);
        QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(path + S(": no golden file (DMTUNE_GOLDEN_UPDATE=1)")));
        const QString expected = QString::fromUtf8(in.readAll());
        QVERIFY2(expected == actual, qPrintable(name + S(", ") + firstDifference(expected, actual)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        // This user's presets and change log are not the fixture's: an empty home for the child processes.
        const QString home = m_dir.path() + S("/home");
        QVERIFY(QDir().mkpath(home));
        qputenv("HOME", home.toUtf8());
        qputenv("XDG_CONFIG_HOME", (home + S("/.config")).toUtf8());
        qputenv("XDG_DATA_HOME", (home + S("/.local/share")).toUtf8());
        qputenv("XDG_STATE_HOME", (home + S("/.local/state")).toUtf8());
        qputenv("XDG_CACHE_HOME", (home + S("/.cache")).toUtf8());
        qputenv("LC_ALL", "C.UTF-8");
        qunsetenv("DMTUNE_HOST");

        FakeSysfs map;
        test::buildMultipathFixture(map);
        FakeDeviceMapper dm;
        QVERIFY(test::addFixtureMap(dm));
        DeviceMapperState state;
        state.available = true;
        m_mapCapture = m_dir.path() + S("/map");
        auto report = captureSystem(SysfsRoot(map.root(), QString()), m_mapCapture, &dm, state);
        QVERIFY2(report, qPrintable(report.errorMessage()));

        FakeSysfs machine;
        test::buildStandardMachine(machine);
        FakeDeviceMapper none;
        m_machineCapture = m_dir.path() + S("/machine");
        report = captureSystem(SysfsRoot(machine.root(), QString()), m_machineCapture, &none, state);
        QVERIFY2(report, qPrintable(report.errorMessage()));
    }

    void readingCommands()
    {
        const QString root = m_dir.path();
        const QString map = test::fixtureMap;
        QString all;
        const QList<QStringList> commands {
            { S("list") },
            { S("list"), S("--json") },
            { S("get"), S("sda") },
            { S("get"), S("sda"), S("--json") },
            { S("get"), S("dm-0"), S("queue/nr_requests") },
            { S("get"), map },
            { S("map"), S("show"), map },
            { S("map"), S("show"), map, S("--json") },
            // Configuration only: a measured interval is the clock's (the numbers are the truth tests' job).
            { S("diagnose"), map, S("--interval"), S("0") },
            { S("diagnose"), map, S("--interval"), S("0"), S("--json") },
            { S("set"), S("sda"), S("nomerges=2"), S("--dry-run") },
            { S("set"), S("sda"), S("nomerges=2"), S("--dry-run"), S("--json") },
            { S("set"), map, S("nomerges=2"), S("--with-paths"), S("--dry-run") },
            { S("map"), S("reload"), map, S("--selector"), S("service-time"), S("--dry-run") },
            { S("preset"), S("list") },
        };
        for (const QStringList &command : commands)
            all += recordOf(command + QStringList { S("--sysfs-root"), m_mapCapture }, root);
        const QList<QStringList> machineCommands {
            { S("list") },
            { S("list"), S("--json") },
            { S("get"), S("sdb"), S("--json") },
            { S("diagnose"), S("mpatha"), S("--interval"), S("0") },
        };
        for (const QStringList &command : machineCommands)
            all += recordOf(command + QStringList { S("--sysfs-root"), m_machineCapture }, root);
        compareWithGolden(S("reading.txt"), all);
    }

    void refusalsAndMistakes()
    {
        const QString root = m_dir.path();
        const QString map = test::fixtureMap;
        QString all;
        const QList<QStringList> onTheCapture {
            { S("set"), S("sda"), S("nomerges=2") },
            { S("path"), S("fail"), map, S("sdb") },
            { S("group"), S("disable"), map, S("1"), S("--force") },
            { S("map"), S("queueing"), map, S("off") },
            { S("get"), S("nosuch") },
            { S("stat"), S("nosuch") },
            { S("map"), S("show"), S("nosuch") },
            { S("set"), S("nosuch"), S("nomerges=2") },
            { S("diagnose"), S("nosuch") },
            { S("get"), S("sda"), S("queue/nomerge") },
            { S("set"), S("sda"), S("nomerges=7"), S("--dry-run") },
            { S("set"), S("sda"), S("nomerges") },
            { S("map"), S("reload"), map, S("--selector"), S("fastest"), S("--dry-run") },
        };
        for (const QStringList &command : onTheCapture)
            all += recordOf(command + QStringList { S("--sysfs-root"), m_mapCapture }, root);
        const QList<QStringList> lines {
            {},
            { S("lsit") },
            { S("list"), S("--jsn") },
            { S("get") },
            { S("set"), S("sda") },
            { S("map") },
            { S("map"), S("frob"), map },
            { S("path"), S("fail") },
            { S("stat"), S("--interval"), S("0") },
            { S("report") },
            { S("--host") },
        };
        for (const QStringList &command : lines)
            all += recordOf(command, root);
        compareWithGolden(S("refusals.txt"), all);
    }
};

QTEST_GUILESS_MAIN(TestCliGolden)
#include "tst_cli_golden.moc"
