// dmtunectl as a user meets it, run as a program against a captured 4-path multipath system (the tests' one
// fixture, dmtunectl capture of it): attribute names (any last part of a name that names one attribute alone, in
// get, set, --with-paths and preset files), help texts that name the command as it is typed, error lines that
// point to the subcommand's help, exit statuses (2 for bad usage, 1 for failures), set printing only what changes,
// and record show printing zeros.
#include "tests/common/dmtunectlrun.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/testpaths.h"

#include "core/discovery/devicesnapshot.h"

#include "core/recordings/recordingwriter.h"

#include "core/discovery/sysfscapture.h"
#include "core/params/catalog.h"
#include "core/util/printable.h"
#include "tests/common/fakedevicemapper.h"
#include "tests/common/multipathfixture.h"
#include "tests/unit/recordings/syntheticbatches.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

const QString mapName = QStringLiteral("dmtune-usage-mpatha"); // not a map this host has

using clitest::dmtunectl;
using clitest::Run;

QString describe(const QStringList &args, const Run &r)
{
    return QStringLiteral("dmtunectl %1: exit %2\n--- out\n%3--- err\n%4")
        .arg(args.join(u' '))
        .arg(r.exitCode)
        .arg(r.out, r.err);
}

} // namespace

class TestCliUsage : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_capture;

    QStringList root() const { return { QStringLiteral("--sysfs-root"), m_capture }; }

    // get DEV --json: attribute -> value, as the capture has them.
    QHash<QString, QString> tunables(const QString &device)
    {
        const Run r = dmtunectl(QStringList { QStringLiteral("get"), device, QStringLiteral("--json") } + root());
        QHash<QString, QString> out;
        for (const QJsonValue &t :
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("tunables")).toArray())
            out.insert(t[QLatin1String("attribute")].toString(), t[QLatin1String("value")].toString());
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        FakeSysfs t;
        test::buildMultipathFixture(t, test::fixturePaths(), mapName);
        FakeDeviceMapper dm;
        QVERIFY(test::addFixtureMap(dm, test::fixturePaths(), mapName));
        DeviceMapperState state;
        state.available = true;
        m_capture = m_dir.path() + QStringLiteral("/capture");
        const auto report = captureSystem(SysfsRoot(t.root(), QString()), m_capture, &dm, state);
        QVERIFY2(report, qPrintable(report.errorMessage()));
    }

    // Every catalog attribute a device of the capture has, by its key and by each last part of it: get shows
    // that row, set --dry-run plans it (the value it has: "already set").
    void everyNameWorks_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QStringList keys;
        for (const QString &device : { QStringLiteral("sda"), QStringLiteral("dm-0") }) {
            const QHash<QString, QString> values = tunables(device);
            QVERIFY2(!values.isEmpty(), qPrintable(device));
            for (const TunableDef &def : catalog::all()) {
                if (!values.contains(def.attribute) || def.ignored || def.location == TunableLocation::Module)
                    continue;
                const QStringList parts = def.attribute.split(u'/');
                for (qsizetype i = 0; i < parts.size(); ++i) {
                    const QString name = parts.mid(i).join(u'/');
                    QTest::addRow("%s %s", qPrintable(device), qPrintable(name))
                        << device << name << def.attribute << values.value(def.attribute);
                    keys << def.attribute;
                }
            }
        }
        // The issue's names among them: device/queue_depth of a path, an iosched file of the map's scheduler.
        QVERIFY(keys.contains(QStringLiteral("device/queue_depth")));
        QVERIFY(keys.contains(QStringLiteral("queue/iosched/read_expire")));
    }

    void everyNameWorks()
    {
        QFETCH(QString, device);
        QFETCH(QString, name);
        QFETCH(QString, key);
        QFETCH(QString, value);
        QStringList args = QStringList { QStringLiteral("get"), device, name, QStringLiteral("--json") } + root();
        Run r = dmtunectl(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        const QJsonArray rows
            = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("tunables")).toArray();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first()[QLatin1String("attribute")].toString(), key);

        args = QStringList { QStringLiteral("set"), device, name + u'=' + value, QStringLiteral("--dry-run") } + root();
        r = dmtunectl(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        // (a warning may follow: the fixture's nr_requests <= 4 x queue_depth concerns those two)
        const QString plan
            = QStringLiteral("plan (dry run): nothing to write\nalready set: %1=%2 on %3\n").arg(key, value, device);
        QVERIFY2(
            r.out == plan || (r.out.startsWith(plan) && r.out.mid(plan.size()).startsWith(QLatin1String("warning: "))),
            qPrintable(r.out));
    }

    // The names that are refused, and how: one line each, exit 2.
    void refusedNames_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("err");
        const auto row
            = [](const char *name, const QStringList &args, const QString &err) { QTest::newRow(name) << args << err; };
        row("get: unknown among known ones",
            { QStringLiteral("get"), QStringLiteral("sda"), QStringLiteral("nomerges"), QStringLiteral("scheduler"),
                QStringLiteral("bogus") },
            QStringLiteral("dmtunectl: get: sda has no attribute 'bogus'\n"));
        row("get: a SCSI attribute of a map",
            { QStringLiteral("get"), QStringLiteral("dm-0"), QStringLiteral("queue_depth") },
            QStringLiteral("dmtunectl: get: dm-0 has no device/queue_depth\n"));
        row("set: read-only, short",
            { QStringLiteral("set"), QStringLiteral("sda"), QStringLiteral("logical_block_size=4096"),
                QStringLiteral("--dry-run") },
            QStringLiteral("dmtunectl: set: queue/logical_block_size is read-only: the kernel reports it, nothing can "
                           "set it\n"));
        row("set: read-only, whole",
            { QStringLiteral("set"), QStringLiteral("sda"), QStringLiteral("queue/max_hw_sectors_kb=8"),
                QStringLiteral("--dry-run") },
            QStringLiteral("dmtunectl: set: queue/max_hw_sectors_kb is read-only: the kernel reports it, nothing can "
                           "set it\n"));
        row("set: unknown",
            { QStringLiteral("set"), QStringLiteral("sda"), QStringLiteral("bogus=1"), QStringLiteral("--dry-run") },
            QStringLiteral("dmtunectl: set: unknown attribute 'bogus' (dmtunectl get DEV lists a device's "
                           "attributes)\n"));
        row("set: a prefix is no name",
            { QStringLiteral("set"), QStringLiteral("sda"), QStringLiteral("queue=1"), QStringLiteral("--dry-run") },
            QStringLiteral("dmtunectl: set: unknown attribute 'queue' (dmtunectl get DEV lists a device's "
                           "attributes)\n"));
    }

    void refusedNames()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, err);
        const Run r = dmtunectl(args + root());
        QVERIFY2(r.exitCode == 2, qPrintable(describe(args, r)));
        // Every exit 2 names the subcommand's own help.
        QCOMPARE(r.err, err.chopped(1) + QStringLiteral(" (see dmtunectl %1 --help)\n").arg(args.first()));
        QCOMPARE(r.out, QString());
    }

    // set MAP queue_depth=8 --with-paths: the paths' device/queue_depth (a map has no SCSI device), and the
    // warning it concerns (nr_requests 128 against 4 x 8 no longer holds: none).
    void queueDepthWithPaths()
    {
        const QStringList args = QStringList { QStringLiteral("set"), mapName, QStringLiteral("queue_depth=8"),
            QStringLiteral("--with-paths"), QStringLiteral("--dry-run") }
            + root();
        const Run r = dmtunectl(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QCOMPARE(r.out,
            QStringLiteral("plan (dry run, nothing written):\n"
                           "  1. sda device/queue_depth: 32 -> 8\n"
                           "  2. sdb device/queue_depth: 32 -> 8\n"
                           "  3. sdc device/queue_depth: 32 -> 8\n"
                           "  4. sdd device/queue_depth: 32 -> 8\n"));
        QCOMPARE(r.err, QString());
    }

    // Only what changes, and a stacking warning only where the change concerns it: the fixture's nr_requests 128 <=
    // 4 x queue_depth 32 is printed for a change of nr_requests, not for one of read_ahead_kb.
    void setPrintsWhatChanges_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("out");
        const QString warning = QStringLiteral(
            "warning: %1 (dm-0): nr_requests 128 <= 4 paths x queue_depth 32 = 128: the map's queue stays empty "
            "and nothing merges; raise nr_requests above 128 or lower the paths' queue_depth\n")
                                    .arg(mapName);
        QTest::newRow("read_ahead_kb on the map and its paths")
            << QStringList { QStringLiteral("set"), mapName, QStringLiteral("read_ahead_kb=4096"),
                   QStringLiteral("--with-paths") }
            << QStringLiteral("plan (dry run, nothing written):\n"
                              "  1. dm-0 queue/read_ahead_kb: 128 -> 4096\n"
                              "  2. sda queue/read_ahead_kb: 128 -> 4096\n"
                              "  3. sdb queue/read_ahead_kb: 128 -> 4096\n"
                              "  4. sdc queue/read_ahead_kb: 128 -> 4096\n"
                              "  5. sdd queue/read_ahead_kb: 128 -> 4096\n");
        QTest::newRow("nr_requests as it is")
            << QStringList { QStringLiteral("set"), mapName, QStringLiteral("nr_requests=128") }
            << QStringLiteral("plan (dry run): nothing to write\n"
                              "already set: queue/nr_requests=128 on dm-0\n")
                + warning;
        QTest::newRow("nr_requests raised")
            << QStringList { QStringLiteral("set"), mapName, QStringLiteral("nr_requests=256") }
            << QStringLiteral("plan (dry run, nothing written):\n"
                              "  1. dm-0 queue/nr_requests: 128 -> 256\n");
    }

    void setPrintsWhatChanges()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, out);
        const Run r = dmtunectl(args + QStringList { QStringLiteral("--dry-run") } + root());
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QCOMPARE(r.out, out);
    }

    // --help names the command as it is typed; the top level and preset list their (sub)commands.
    void helpTexts_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("start");
        for (const char *command : { "list", "stat", "diagnose", "get", "set", "map", "path", "group", "capture", "run",
                 "sweep", "record", "version" }) {
            QTest::addRow("%s", command) << QStringList { QLatin1String(command), QStringLiteral("--help") }
                                         << QStringLiteral("Usage: dmtunectl %1 [options]").arg(QLatin1String(command));
        }
        for (const char *sub : { "save", "apply", "verify", "diff", "export", "list" }) {
            QTest::addRow("preset %s", sub)
                << QStringList { QStringLiteral("preset"), QLatin1String(sub), QStringLiteral("--help") }
                << QStringLiteral("Usage: dmtunectl preset %1 [options]").arg(QLatin1String(sub));
        }
        QTest::newRow("preset") << QStringList { QStringLiteral("preset"), QStringLiteral("--help") }
                                << QStringLiteral("Usage: dmtunectl preset SUBCOMMAND [options] [ARGS...]\n");
        QTest::newRow("preset -h") << QStringList { QStringLiteral("preset"), QStringLiteral("-h") }
                                   << QStringLiteral("Usage: dmtunectl preset SUBCOMMAND");
        QTest::newRow("top") << QStringList { QStringLiteral("--help") }
                             << QStringLiteral("usage: dmtunectl [--version]");
    }

    void helpTexts()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, start);
        const Run r = dmtunectl(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QVERIFY2(r.out.startsWith(start), qPrintable(r.out));
        QCOMPARE(r.err, QString());
        if (args.first() == QLatin1String("preset") && args.size() == 2) {
            // A real listing: every subcommand on its own line under "Subcommands:", with what it does.
            const QString listing = r.out.section(QStringLiteral("Subcommands:\n"), 1);
            for (const char *sub : { "save", "apply", "verify", "diff", "export", "list" })
                QVERIFY2(listing.contains(QStringLiteral("\n  %1 ").arg(QLatin1String(sub)))
                        || listing.startsWith(QStringLiteral("  %1 ").arg(QLatin1String(sub)))
                        || listing.contains(QStringLiteral("\n  %1\n").arg(QLatin1String(sub))),
                    qPrintable(r.out));
            QVERIFY(r.out.count(u'\n') > 10);
        }
    }

    // Exit statuses and the error lines: bad usage is 2 and points to the subcommand's own help.
    void exitStatuses_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("err"); // the whole of stderr
        const auto see = [](const QString &message, const QString &command) {
            return QStringLiteral("dmtunectl: %1 (see dmtunectl %2--help)\n")
                .arg(message, command.isEmpty() ? QString() : command + u' ');
        };
        QTest::newRow("unknown command") << QStringList { QStringLiteral("bogus") } << 2
                                         << see(QStringLiteral("unknown command 'bogus'"), QString());
        QTest::newRow("preset alone") << QStringList { QStringLiteral("preset") } << 2
                                      << see(QStringLiteral("preset needs a subcommand (save, apply, verify, diff, "
                                                            "export, list)"),
                                             QStringLiteral("preset"));
        QTest::newRow("preset bogus") << QStringList { QStringLiteral("preset"), QStringLiteral("bogus") } << 2
                                      << see(QStringLiteral("unknown preset subcommand 'bogus' (save, apply, verify, "
                                                            "diff, export, list)"),
                                             QStringLiteral("preset"));
        QTest::newRow("preset save alone")
            << QStringList { QStringLiteral("preset"), QStringLiteral("save") } << 2
            << see(QStringLiteral("preset save needs a FILE and at least one DEV"), QStringLiteral("preset save"));
        QTest::newRow("preset diff one") << QStringList {
            QStringLiteral("preset"), QStringLiteral("diff"), QStringLiteral("a")
        } << 2 << see(QStringLiteral("preset diff needs two presets"), QStringLiteral("preset diff"));
        QTest::newRow("preset save bad option")
            << QStringList { QStringLiteral("preset"), QStringLiteral("save"), QStringLiteral("--bogus") } << 2
            << see(QStringLiteral("Unknown option 'bogus'."), QStringLiteral("preset save"));
        QTest::newRow("get alone") << QStringList { QStringLiteral("get") } << 2
                                   << see(QStringLiteral("get needs a device"), QStringLiteral("get"));
        QTest::newRow("set without a value") << QStringList {
            QStringLiteral("set"), QStringLiteral("sda"), QStringLiteral("nomerges"), QStringLiteral("--dry-run")
        } << 2 << see(QStringLiteral("set: 'nomerges' is not ATTR=VALUE"), QStringLiteral("set"));
        QTest::newRow("group switch to a group the map lacks") << QStringList {
            QStringLiteral("group"), QStringLiteral("switch"), mapName, QStringLiteral("9"), QStringLiteral("--dry-run")
        } << 1 << QStringLiteral("dmtunectl: %1: switch_group: group 9 out of range 1-2\n").arg(mapName);
        QTest::newRow("group switch x") << QStringList {
            QStringLiteral("group"), QStringLiteral("switch"), mapName, QStringLiteral("x")
        } << 2 << see(QStringLiteral("'x' is not a group number (1, 2, ...)"), QStringLiteral("group"));
        QTest::newRow("group on no such map") << QStringList { QStringLiteral("group"), QStringLiteral("switch"),
            QStringLiteral("nosuchmap"), QStringLiteral("1"), QStringLiteral("--dry-run") }
                                              << 1 << QStringLiteral("dmtunectl: nosuchmap: no such map\n");
        QTest::newRow("path fail of a device that is not a path") << QStringList { QStringLiteral("path"),
            QStringLiteral("fail"), mapName, QStringLiteral("dm-0"), QStringLiteral("--dry-run") }
                                                                  << 1 << QString();
        QTest::newRow("diagnose of a path")
            << QStringList { QStringLiteral("diagnose"), QStringLiteral("sda") } << 1
            << QStringLiteral("dmtunectl: diagnose: 'sda' is not a multipath map or a native NVMe head here (dmtunectl "
                              "list shows them)\n");
        QTest::newRow("diagnose -i 99") << QStringList {
            QStringLiteral("diagnose"), QStringLiteral("-i"), QStringLiteral("99")
        } << 2 << see(QStringLiteral("diagnose: -i takes 0, or seconds from 0.1 to 60"), QStringLiteral("diagnose"));
        QTest::newRow("diagnose --recording with -i") << QStringList { QStringLiteral("diagnose"),
            QStringLiteral("--recording"), QStringLiteral("r.dmrec"), QStringLiteral("-i"), QStringLiteral("1") }
                                                      << 2
                                                      << see(QStringLiteral("diagnose: --recording takes neither -i "
                                                                            "nor --sysfs-root"),
                                                             QStringLiteral("diagnose"));
        QTest::newRow("sweep without a param")
            << QStringList { QStringLiteral("sweep"), mapName } << 2
            << see(QStringLiteral("sweep: give one or two --param ATTR=V1,V2,..."), QStringLiteral("sweep"));
        QTest::newRow("sweep of an unknown attribute")
            << QStringList { QStringLiteral("sweep"), mapName, QStringLiteral("--param"), QStringLiteral("bogus=1,2"),
                   QStringLiteral("batched-write-4k") }
            << 2 << see(QStringLiteral("sweep: unknown attribute 'bogus'"), QStringLiteral("sweep"));
        QTest::newRow("sweep of a value twice")
            << QStringList { QStringLiteral("sweep"), mapName, QStringLiteral("--param"),
                   QStringLiteral("nomerges=0,2,0"), QStringLiteral("batched-write-4k") }
            << 2 << see(QStringLiteral("sweep: queue/nomerges: the value 0 is given twice"), QStringLiteral("sweep"));
        QTest::newRow("sweep without a workload")
            << QStringList { QStringLiteral("sweep"), mapName, QStringLiteral("--param"),
                   QStringLiteral("nomerges=0,2") }
            << 2
            << see(QStringLiteral("sweep: give a workload: TEMPLATE (see run --list) or --job FILE"),
                   QStringLiteral("sweep"));
        QTest::newRow("sweep of an unknown template")
            << QStringList { QStringLiteral("sweep"), mapName, QStringLiteral("--param"),
                   QStringLiteral("nomerges=0,2"), QStringLiteral("nosuch") }
            << 2 << see(QStringLiteral("sweep: no template 'nosuch' (see run --list)"), QStringLiteral("sweep"));
        QTest::newRow("sweep --repeat 0") << QStringList {
            QStringLiteral("sweep"), mapName, QStringLiteral("--param"), QStringLiteral("nomerges=0,2"),
            QStringLiteral("batched-write-4k"), QStringLiteral("--repeat"), QStringLiteral("0")
        } << 2 << see(QStringLiteral("sweep: --repeat takes a whole number of at least 1"), QStringLiteral("sweep"));
        QTest::newRow("map without an action") << QStringList { QStringLiteral("map") } << 2
                                               << see(QStringLiteral("map needs ACTION MAP"), QStringLiteral("map"));
        QTest::newRow("record show without a file")
            << QStringList { QStringLiteral("record"), QStringLiteral("show") } << 2
            << see(QStringLiteral("usage: dmtunectl record show REC [--json]"), QStringLiteral("record"));
        QTest::newRow("stat from two engines")
            << QStringList { QStringLiteral("stat"), QStringLiteral("--pcp-host"), QStringLiteral("h"),
                   QStringLiteral("--prometheus"), QStringLiteral("http://p:9090"), QStringLiteral("--instance"),
                   QStringLiteral("h:9100") }
            << 2
            << see(QStringLiteral("stat: --pcp-host, --pcp-archive and --prometheus exclude each other"),
                   QStringLiteral("stat"));
        QTest::newRow("stat --start without an archive")
            << QStringList { QStringLiteral("stat"), QStringLiteral("--start"), QStringLiteral("+1s") } << 2
            << see(QStringLiteral("stat: --start and --finish go with --pcp-archive"), QStringLiteral("stat"));
        QTest::newRow("stat --prometheus without --instance")
            << QStringList { QStringLiteral("stat"), QStringLiteral("--prometheus"), QStringLiteral("http://p:9090") }
            << 2 << see(QStringLiteral("stat: --prometheus and --instance go together"), QStringLiteral("stat"));
        QTest::newRow("stat --pcp-host --histogram")
            << QStringList { QStringLiteral("stat"), QStringLiteral("--pcp-host"), QStringLiteral("h"),
                   QStringLiteral("--histogram") }
            << 2
            << see(QStringLiteral("stat: --histogram and --dm-stats probe this machine's kernel: not with a metrics "
                                  "engine's counters"),
                   QStringLiteral("stat"));
        QTest::newRow("record import without an archive") << QStringList {
            QStringLiteral("record"), QStringLiteral("import"), QStringLiteral("-o"), QStringLiteral("x.dmrec")
        } << 2 << see(QStringLiteral("record import: --pcp-archive PATH is required"), QStringLiteral("record import"));
        QTest::newRow("record import -i 0")
            << QStringList { QStringLiteral("record"), QStringLiteral("import"), QStringLiteral("--pcp-archive"),
                   QStringLiteral("a"), QStringLiteral("-o"), QStringLiteral("x.dmrec"), QStringLiteral("-i"),
                   QStringLiteral("0") }
            << 2
            << see(QStringLiteral("record import: -i takes seconds from 0.1 to 3600"), QStringLiteral("record import"));
    }

    void exitStatuses()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, err);
        // the commands that read devices look at the capture (record reads only its file)
        const QStringList all = args.size() > 1 && args.first() != QLatin1String("record") ? args + root() : args;
        const Run r = dmtunectl(all);
        QVERIFY2(r.exitCode == exitCode, qPrintable(describe(all, r)));
        if (err.isEmpty()) { // one line naming the device
            QVERIFY2(r.err.startsWith(QLatin1String("dmtunectl: ")) && r.err.count(u'\n') == 1, qPrintable(r.err));
            QVERIFY2(r.err.contains(QLatin1String("is not a path of this map")), qPrintable(r.err));
        } else {
            QCOMPARE(r.err, err);
        }
    }

    // One rule for every command. A device (map, path) name this host does not have is a
    // well-formed command line that fails: exit 1, one line naming the command and the name, nothing on stdout.
    void unknownDevice_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString dev = QStringLiteral("nosuchdev");
        const QString file = m_dir.filePath(QStringLiteral("unknown-device.json"));
        const auto row = [](const char *name, const QStringList &args) { QTest::newRow(name) << args; };
        row("stat", { QStringLiteral("stat"), dev, QStringLiteral("-c"), QStringLiteral("1") });
        row("get", { QStringLiteral("get"), dev });
        row("get with an attribute", { QStringLiteral("get"), dev, QStringLiteral("nomerges") });
        row("set", { QStringLiteral("set"), dev, QStringLiteral("nomerges=0"), QStringLiteral("--dry-run") });
        row("set --with-paths",
            { QStringLiteral("set"), dev, QStringLiteral("nomerges=0"), QStringLiteral("--with-paths"),
                QStringLiteral("--dry-run") });
        row("map show", { QStringLiteral("map"), QStringLiteral("show"), dev });
        row("map queueing",
            { QStringLiteral("map"), QStringLiteral("queueing"), dev, QStringLiteral("on"),
                QStringLiteral("--dry-run") });
        row("diagnose", { QStringLiteral("diagnose"), dev });
        row("path fail: no such map",
            { QStringLiteral("path"), QStringLiteral("fail"), dev, QStringLiteral("sda"),
                QStringLiteral("--dry-run") });
        row("path fail: no such path",
            { QStringLiteral("path"), QStringLiteral("fail"), mapName, dev, QStringLiteral("--dry-run") });
        row("group switch",
            { QStringLiteral("group"), QStringLiteral("switch"), dev, QStringLiteral("1"),
                QStringLiteral("--dry-run") });
        row("preset save", { QStringLiteral("preset"), QStringLiteral("save"), file, dev });
        row("preset apply",
            { QStringLiteral("preset"), QStringLiteral("apply"), QStringLiteral("low-latency-random-io"), dev,
                QStringLiteral("--dry-run") });
        row("preset verify",
            { QStringLiteral("preset"), QStringLiteral("verify"), QStringLiteral("low-latency-random-io"), dev });
    }

    void unknownDevice()
    {
        QFETCH(QStringList, args);
        const Run r = dmtunectl(args + root());
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.err.startsWith(QLatin1String("dmtunectl: ")) && r.err.count(u'\n') == 1, qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("nosuchdev")), qPrintable(r.err));
        QVERIFY2(!r.err.contains(QLatin1String("--help")), qPrintable(r.err));
    }

    // Every malformed command line is 2 and names the subcommand's own help: report's too (it used to name the top
    // level's), and a name near one dmtune knows is suggested.
    void malformedNamesItsHelp_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message"); // the first line, without "dmtunectl: "
        QTest::addColumn<QString>("help"); // the command whose --help the second line names
        const auto row = [](const char *name, const QStringList &args, const QString &message, const QString &help) {
            QTest::newRow(name) << args << message << help;
        };
        row("report without recordings", { QStringLiteral("report") },
            QStringLiteral("report: name at least one recording (or --sweep DIR)"), QStringLiteral("report"));
        row("report with an unknown option", { QStringLiteral("report"), QStringLiteral("--bogus") },
            QStringLiteral("Unknown option 'bogus'."), QStringLiteral("report"));
        row("lsit", { QStringLiteral("lsit") }, QStringLiteral("unknown command 'lsit' (did you mean list?)"),
            QString());
        row("daignose", { QStringLiteral("daignose") },
            QStringLiteral("unknown command 'daignose' (did you mean diagnose?)"), QString());
        row("xet: as near get as set", { QStringLiteral("xet") }, QStringLiteral("unknown command 'xet'"), QString());
        row("preset svae", { QStringLiteral("preset"), QStringLiteral("svae") },
            QStringLiteral("unknown preset subcommand 'svae' (did you mean save?)"), QStringLiteral("preset"));
        row("map shwo", { QStringLiteral("map"), QStringLiteral("shwo"), mapName },
            QStringLiteral("unknown map action 'shwo' (did you mean show?)"), QStringLiteral("map"));
        row("path fial", { QStringLiteral("path"), QStringLiteral("fial"), mapName, QStringLiteral("sda") },
            QStringLiteral("unknown path action 'fial' (did you mean fail?)"), QStringLiteral("path"));
        row("group swtich", { QStringLiteral("group"), QStringLiteral("swtich"), mapName, QStringLiteral("1") },
            QStringLiteral("unknown group action 'swtich' (did you mean switch?)"), QStringLiteral("group"));
        row("set queue/nomerge",
            { QStringLiteral("set"), QStringLiteral("sda"), QStringLiteral("queue/nomerge=1"),
                QStringLiteral("--dry-run") },
            QStringLiteral("set: unknown attribute 'queue/nomerge' (did you mean queue/nomerges?)"),
            QStringLiteral("set"));
        row("set nomerge", { QStringLiteral("set"), QStringLiteral("sda"), QStringLiteral("nomerge=1") },
            QStringLiteral("set: unknown attribute 'nomerge' (did you mean nomerges?)"), QStringLiteral("set"));
        row("set on an unknown device, of an unknown attribute: the line is wrong first",
            { QStringLiteral("set"), QStringLiteral("nosuchdev"), QStringLiteral("queue/nomerge=1") },
            QStringLiteral("set: unknown attribute 'queue/nomerge' (did you mean queue/nomerges?)"),
            QStringLiteral("set"));
        row("get queue/nomerge", { QStringLiteral("get"), QStringLiteral("sda"), QStringLiteral("queue/nomerge") },
            QStringLiteral("get: sda has no attribute 'queue/nomerge' (did you mean queue/nomerges?)"),
            QStringLiteral("get"));
        row("preset apply of no preset on an unknown device: the line is wrong first",
            { QStringLiteral("preset"), QStringLiteral("apply"), QStringLiteral("no-such-preset"),
                QStringLiteral("nosuchdev"), QStringLiteral("--dry-run") },
            QStringLiteral("no-such-preset: no such file, and no stored or built-in preset of that name"),
            QStringLiteral("preset apply"));
        row("sweep --param nomerge",
            { QStringLiteral("sweep"), mapName, QStringLiteral("--param"), QStringLiteral("nomerge=0,2"),
                QStringLiteral("batched-write-4k") },
            QStringLiteral("sweep: unknown attribute 'nomerge' (did you mean nomerges?)"), QStringLiteral("sweep"));
    }

    void malformedNamesItsHelp()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QFETCH(QString, help);
        // report reads only its files; the others look at the capture (a malformed line is 2 before it is refused)
        const Run r = dmtunectl(args.first() == QLatin1String("report") ? args : args + root());
        QVERIFY2(r.exitCode == 2, qPrintable(describe(args, r)));
        QCOMPARE(r.err,
            QStringLiteral("dmtunectl: %1 (see dmtunectl %2--help)\n")
                .arg(message, help.isEmpty() ? QString() : help + u' '));
    }

    // A loop device reports discard_max_bytes 4294966784 (0xfffffe00), off its granularity's
    // grid of 4096: the kernel refuses that write. Setting it to what it is plans as unchanged, exit 0; preset
    // save stores only what the kernel takes back, so saving then applying on the same device is a clean no-op.
    void currentValueOffTheGrid()
    {
        FakeSysfs t;
        const QString loop = t.loopDevice(QStringLiteral("loop1"), QStringLiteral("7:1"), QStringLiteral("/tmp/img"));
        t.file(loop + QStringLiteral("/queue/discard_max_bytes"), QStringLiteral("4294966784"));
        t.file(loop + QStringLiteral("/queue/discard_max_hw_bytes"), QStringLiteral("4294966784"), false);
        t.file(loop + QStringLiteral("/queue/discard_granularity"), QStringLiteral("4096"), false);
        const QStringList fake { QStringLiteral("--sysfs-root"), t.root() };

        QStringList args { QStringLiteral("set"), QStringLiteral("loop1"),
            QStringLiteral("queue/discard_max_bytes=4294966784"), QStringLiteral("--dry-run") };
        Run r = dmtunectl(args + fake);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QCOMPARE(r.out,
            QStringLiteral("plan (dry run): nothing to write\n"
                           "already set: queue/discard_max_bytes=4294966784 on loop1\n"));
        QCOMPARE(r.err, QString());
        r = dmtunectl(args + fake + QStringList { QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        const QJsonArray changes = QJsonDocument::fromJson(r.out.toUtf8()).object()[QLatin1String("changes")].toArray();
        QCOMPARE(changes.size(), 1);
        // a dry run: nothing written, and nothing would be
        QVERIFY(!changes.first()[QLatin1String("written")].toBool());

        // Another value off the grid is still refused, as the kernel would.
        args[2] = QStringLiteral("queue/discard_max_bytes=1048577");
        r = dmtunectl(args + fake);
        QVERIFY2(r.exitCode == 2, qPrintable(describe(args, r)));
        QVERIFY2(r.err.contains(QLatin1String("not a multiple of 4096")), qPrintable(r.err));

        const QString file = m_dir.filePath(QStringLiteral("loop1.json"));
        args = QStringList { QStringLiteral("preset"), QStringLiteral("save"), file, QStringLiteral("loop1") };
        r = dmtunectl(args + fake);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray saved = f.readAll();
        QVERIFY2(!saved.contains("discard_max_bytes"), saved.constData());
        QVERIFY2(saved.contains("queue/nomerges"), saved.constData()); // what the kernel takes back is kept

        args = QStringList { QStringLiteral("preset"), QStringLiteral("apply"), file, QStringLiteral("--dry-run") };
        r = dmtunectl(args + fake);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QVERIFY2(!r.err.contains(QLatin1String("discard")), qPrintable(r.err));

        // Named on its own it is refused with the reason, not stored.
        args = QStringList { QStringLiteral("preset"), QStringLiteral("save"),
            m_dir.filePath(QStringLiteral("loop1-discard.json")), QStringLiteral("loop1"), QStringLiteral("--attr"),
            QStringLiteral("discard_max_bytes") };
        r = dmtunectl(args + fake);
        QVERIFY2(r.exitCode != 0, qPrintable(describe(args, r)));
        QVERIFY2(r.err.contains(QLatin1String("the kernel would refuse it back")), qPrintable(r.err));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("loop1-discard.json"))));
    }

    // "1 rule", "3 rules".
    void presetListCounts()
    {
        const Run r = dmtunectl({ QStringLiteral("preset"), QStringLiteral("list") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.out.contains(QLatin1String("(1 rules)")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String(" rules)\n")), qPrintable(r.out));
    }

    // A preset file may name attributes by their last part too; a read-only one is refused as read-only.
    void presetFileNames()
    {
        const QString file = m_dir.filePath(QStringLiteral("short.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schema": 1, "name": "short", "rules": [{"match": {"kind": "scsi"},
                   "settings": {"queue_depth": 16, "nomerges": 2}}]})");
        f.close();
        Run r = dmtunectl(
            QStringList { QStringLiteral("preset"), QStringLiteral("apply"), file, QStringLiteral("--dry-run") }
            + root());
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QLatin1String("sda device/queue_depth: 32 -> 16")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("sda queue/nomerges: 0 -> 2")), qPrintable(r.out));

        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"schema": 1, "name": "short", "rules": [{"match": {"kind": "scsi"},
                   "settings": {"logical_block_size": 4096}}]})");
        f.close();
        r = dmtunectl(
            QStringList { QStringLiteral("preset"), QStringLiteral("apply"), file, QStringLiteral("--dry-run") }
            + root());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("queue/logical_block_size is read-only")), qPrintable(r.err));
    }

    // preset save --attr takes the same names: the lists' parts resolve one by one; a read-only one is refused.
    void presetSaveAttrNames()
    {
        const QString file = m_dir.filePath(QStringLiteral("saved.json"));
        Run r = dmtunectl(QStringList { QStringLiteral("preset"), QStringLiteral("save"), file, QStringLiteral("sda"),
                              QStringLiteral("--attr"), QStringLiteral("queue_depth,nomerges") }
            + root());
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QCOMPARE(r.out, QStringLiteral("saved 2 settings of sda to %1\n").arg(file));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject settings = QJsonDocument::fromJson(f.readAll())
                                         .object()
                                         .value(QLatin1String("rules"))
                                         .toArray()
                                         .first()[QLatin1String("settings")]
                                         .toObject();
        QCOMPARE(
            settings.keys(), (QStringList { QStringLiteral("device/queue_depth"), QStringLiteral("queue/nomerges") }));

        r = dmtunectl(QStringList { QStringLiteral("preset"), QStringLiteral("save"),
                          m_dir.filePath(QStringLiteral("other.json")), QStringLiteral("sda"), QStringLiteral("--attr"),
                          QStringLiteral("nomerges,logical_block_size") }
            + root());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(
            r.err.startsWith(QLatin1String("dmtunectl: queue/logical_block_size is read-only")), qPrintable(r.err));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("other.json"))));
    }

    // preset apply lists what changes; what already has the preset's value is counted, not listed.
    void presetApplyPrintsWhatChanges()
    {
        const QString file = m_dir.filePath(QStringLiteral("mixed.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schema": 1, "name": "mixed", "rules": [{"match": {"kind": "scsi"},
                   "settings": {"queue/nomerges": 0, "queue/read_ahead_kb": 4096}}]})");
        f.close();
        const Run r = dmtunectl(
            QStringList { QStringLiteral("preset"), QStringLiteral("apply"), file, QStringLiteral("--dry-run") }
            + root());
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(!r.out.contains(QLatin1String("nomerges")), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QLatin1String("[same")), qPrintable(r.out));
        QCOMPARE(r.out.count(QLatin1String("queue/read_ahead_kb: 128 -> 4096  [differs")), 4);
        QVERIFY2(r.out.contains(QLatin1String("\n  4 settings have the preset's values already\n")), qPrintable(r.out));
    }

    // record show prints every metric of every device, zeros too ("no merges on the paths" is a result).
    void recordShowPrintsZeros()
    {
        const QString path = m_dir.filePath(QStringLiteral("nomerges.dmrec"));
        test::writeSyntheticRecording(
            path, QStringLiteral("no merges"), { QStringLiteral("dm-0"), QStringLiteral("sda") }, 0);
        Run r = dmtunectl({ QStringLiteral("record"), QStringLiteral("show"), path });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const char *device : { "dm-0", "sda" }) {
            QVERIFY2(r.out.contains(QStringLiteral("    %1 wrqm/s     0.00 / 0.00 / 0.00 / 0.00\n")
                                        .arg(QString::fromLatin1(device).leftJustified(8))),
                qPrintable(r.out));
            QVERIFY2(r.out.contains(QStringLiteral("    %1 %drqm      0.00 / 0.00 / 0.00 / 0.00\n")
                                        .arg(QString::fromLatin1(device).leftJustified(8))),
                qPrintable(r.out));
            QCOMPARE(r.out.count(QStringLiteral("\n    %1 ").arg(QString::fromLatin1(device).leftJustified(8))),
                MetricCatalog::all().size());
        }
        r = dmtunectl({ QStringLiteral("record"), QStringLiteral("show"), path, QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject stats
            = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("workload_stats")).toObject();
        for (const QString &device : { QStringLiteral("dm-0"), QStringLiteral("sda") }) {
            const QJsonObject d = stats.value(device).toObject();
            QCOMPARE(d.size(), MetricCatalog::all().size());
            QVERIFY(d.contains(QLatin1String("wrqm")));
            QCOMPARE(d.value(QLatin1String("wrqm"))[QLatin1String("max")].toDouble(-1), 0.0);
            QCOMPARE(d.value(QLatin1String("wrqm"))[QLatin1String("intervals")].toInt(), 10);
        }
    }

    void printableEscapes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("shownAsLines");
        const auto s = [](const char16_t *t) { return QString::fromUtf16(t); };
        QTest::newRow("plain, UTF-8 and an emoji stay")
            << s(u"mpatha µs ä 😀") << s(u"mpatha µs ä 😀") << s(u"mpatha µs ä 😀");
        QTest::newRow("window title (OSC)")
            << s(u"\x1b]0;pwned\x07") << s(u"\\x1b]0;pwned\\x07") << s(u"\\x1b]0;pwned\\x07");
        QTest::newRow("clear screen (CSI)") << s(u"a\x1b[2Jb") << s(u"a\\x1b[2Jb") << s(u"a\\x1b[2Jb");
        QTest::newRow("8-bit CSI (C1)") << s(u"a\u009b2Jb") << s(u"a\\x9b2Jb") << s(u"a\\x9b2Jb");
        QTest::newRow("DEL and NUL") << s(u"a\x7f") + QChar(0) << s(u"a\\x7f\\x00") << s(u"a\\x7f\\x00");
        QTest::newRow("bidi override (Cf)") << s(u"txt\u202Eexe") << s(u"txt\\u202eexe") << s(u"txt\\u202eexe");
        QTest::newRow("zero width space and tag (Cf)")
            << s(u"a\u200Bb\U000E0001") << s(u"a\\u200bb\\U000e0001") << s(u"a\\u200bb\\U000e0001");
        QTest::newRow("newline and tab") << s(u"a\nb\tc") << s(u"a\\x0ab\\x09c") << s(u"a\nb\tc");
        QTest::newRow("a lone surrogate") << QString(QChar(0xd800)) + s(u"x") << s(u"\\ud800x") << s(u"\\ud800x");
    }

    void printableEscapes()
    {
        QFETCH(QString, text);
        QFETCH(QString, shown);
        QFETCH(QString, shownAsLines);
        QCOMPARE(printable(text), shown);
        QCOMPARE(printableLines(text), shownAsLines);
    }

    // A recording's strings are the file's: record show and diagnose --recording print them as text, never as
    // terminal control sequences, and a newline in a title cannot forge a line.
    void recordingStringsNeverReachTheTerminalRaw()
    {
        const QString path = m_dir.filePath(QStringLiteral("hostile.dmrec"));
        const QString title = QString::fromUtf16(u"\x1b]0;pwned\x07\x1b[2J\nhost evil\u202Etxt");
        test::writeSyntheticRecording(path, title, { QString::fromUtf16(u"sd\x1b[31ma"), QStringLiteral("sdb") }, 3);
        for (const QStringList &args : { QStringList { QStringLiteral("record"), QStringLiteral("show"), path },
                 QStringList { QStringLiteral("diagnose"), QStringLiteral("--recording"), path } }) {
            const Run r = dmtunectl(args);
            for (const QString &stream : { r.out, r.err }) {
                QVERIFY2(
                    !stream.contains(QChar(0x1b)) && !stream.contains(QChar(0x07)) && !stream.contains(QChar(0x202e)),
                    qPrintable(args.join(u' ')));
            }
            QVERIFY2((r.out + r.err).contains(QLatin1String("\\x1b")) || args.first() == QLatin1String("diagnose"),
                qPrintable(r.out + r.err));
        }
        const Run shown = dmtunectl({ QStringLiteral("record"), QStringLiteral("show"), path });
        QVERIFY2(shown.out.startsWith(QLatin1String("\\x1b]0;pwned\\x07\\x1b[2J\\x0ahost evil\\u202etxt (")),
            qPrintable(shown.out));
        QVERIFY(!shown.out.contains(QLatin1String("\nhost evil")));
        QVERIFY2(shown.out.contains(QLatin1String("sd\\x1b[31ma")), qPrintable(shown.out));
    }
};

QTEST_GUILESS_MAIN(TestCliUsage)
#include "tst_cli_usage.moc"
