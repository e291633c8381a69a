// gui (offscreen): the GUI and dmtunectl apply a preset the same way, through the core operation preset.apply
//. One _data() table (a value the planner rejects, an unknown device, a device the preset has no
// setting for, a risky reload without consent, a write that puts data at risk, a clean one) drives the
// PresetManager over a FakeSysfs tree + FakeDeviceMapper and `dmtunectl preset apply` (cli::runPresetApply,
// in-process: a process could not share the fake device-mapper) over another tree built the same way: the same
// refusals, the same risks, the same warnings, and nothing reloaded or written where either refuses.
// And: the window closes while a map is suspended for its reload: the manager waits for the step, the map ends
// resumed with the old or the new table.
#include "tests/unit/params/paramfixture.h"

#include "app/dmtunectl/cmd_preset.h"
#include "core/discovery/discovery.h"
#include "core/ops/presetoperations.h"
#include "core/params/tuningsession.h"
#include "core/presets/presetjson.h"
#include "tests/common/fakedevicemapper.h"
#include "widgets/ops/plandialog.h"
#include "widgets/presets/presetmanager.h"

#include <QScopeGuard>
#include <QStandardPaths>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace dmtune;

namespace {

const QString mapTableParams = test::fixtureTableParams();
const QString activeStatus = test::fixtureStatusParams();
// Every path failed: a reload to a new table starts them as active, and I/O fails on them (a reload risk).
const QString failedStatus = QStringLiteral("2 0 0 0 2 1 A 0 2 0 8:0 F 1 8:16 F 1 E 0 2 0 8:32 F 1 8:48 F 1");

struct ReloadCounters {
    int delayMs = 0;
    std::atomic<int> started { 0 };
    std::atomic<int> done { 0 };
    std::atomic<int> mappers { 0 }; // SlowReloadMappers alive: while one is, a job may still call into the fake
};

// Forwards to a FakeDeviceMapper. A reload suspends the map, blocks for a while (the kernel does, while I/O in
// flight drains), then resumes it with the new table: libdevmapper's suspend -> load -> resume.
class SlowReloadMapper final : public DeviceMapper {
public:
    SlowReloadMapper(FakeDeviceMapper *fake, ReloadCounters *counters)
        : m_fake(fake)
        , m_counters(counters)
    {
        ++m_counters->mappers;
    }
    ~SlowReloadMapper() override { --m_counters->mappers; }
    Result<QList<DmMapName>> listMaps() override { return m_fake->listMaps(); }
    Result<DmInfo> info(const QString &n) override { return m_fake->info(n); }
    Result<QList<DmTargetLine>> table(const QString &n) override { return m_fake->table(n); }
    Result<QList<DmTargetLine>> status(const QString &n) override { return m_fake->status(n); }
    Status message(const QString &n, const QString &t) override { return m_fake->message(n, t); }
    Result<quint32> waitEvent(const QString &n, quint32 e) override { return m_fake->waitEvent(n, e); }
    Status reload(const QString &n, const QList<DmTargetLine> &t) override
    {
        ++m_counters->started;
        m_fake->setSuspended(n, true);
        QThread::msleep(m_counters->delayMs);
        m_fake->setSuspended(n, false);
        const Status s = m_fake->reload(n, t);
        ++m_counters->done;
        return s;
    }

private:
    FakeDeviceMapper *m_fake;
    ReloadCounters *m_counters;
};

// The seed's multipath fixture (mpatha = dm-0 over sda..sdd) with its map in a FakeDeviceMapper.
struct Lab {
    explicit Lab(const QString &status, int delayMs = 0)
    {
        test::buildMultipathFixture(tree);
        tree.file(tree.devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/write_cache"),
            QStringLiteral("write back"));
        counters.delayMs = delayMs;
        ok = bool(test::addFixtureMapWithTable(fake, mapTableParams, status));
    }
    SysfsRoot sysfs() const { return SysfsRoot::scratch(tree.root()); }
    QString tableParams() { return fake.table(QStringLiteral("mpatha")).value().first().params; }

    test::FakeSysfs tree;
    FakeDeviceMapper fake;
    ReloadCounters counters;
    bool ok = false;
};

Preset presetOf(const QByteArray &rules)
{
    const auto preset = parsePreset(QByteArray(R"({"schema": 1, "name": "parity", "rules": [)") + rules + "]}");
    if (!preset)
        qFatal("bad test preset: %s", qPrintable(preset.errorMessage()));
    return preset.value();
}

QStringList linesWith(const QString &text, const QString &prefix)
{
    QStringList out;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (line.startsWith(prefix))
            out.append(line.mid(prefix.size()));
    }
    out.sort();
    return out;
}

} // namespace

class TestPresetParity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void sameRefusalsAndWarnings_data();
    void sameRefusalsAndWarnings();
    void closeDuringReloadLeavesMapResumed();
};

void TestPresetParity::sameRefusalsAndWarnings_data()
{
    QTest::addColumn<QByteArray>("rules");
    QTest::addColumn<QStringList>("devices");
    QTest::addColumn<bool>("pathsFailed");
    QTest::addColumn<QString>("refusal"); // in both the GUI's status and dmtunectl's error line
    // In the GUI's plan dialog and dmtunectl's refusal, with its answer: --force for a reload's I/O errors,
    // --destroy-data-on naming the device for a data risk (--force does not answer that one).
    QTest::addColumn<QString>("risk");
    QTest::addColumn<QString>("answer");
    QTest::addColumn<int>("cliExit");
    QTest::addColumn<bool>("applied");

    const QByteArray selector
        = R"({"match": {"dmUuid": "mpath-36001405aaaaaaaaa"}, "multipath": {"selector": "service-time 0"}, )";
    QTest::newRow("value the planner rejects, before any reload")
        << (selector + R"("settings": {"queue/max_sectors_kb": 8192}})") << QStringList() << false
        << QStringLiteral("dm-0 queue/max_sectors_kb=8192") << QString() << QString() << 2 << false;
    QTest::newRow("unknown device") << QByteArray(R"({"match": {"name": "sdb"}, "settings": {"queue/nomerges": 1}})")
                                    << QStringList { QStringLiteral("sdz") } << false
                                    << QStringLiteral("sdz: no such device") << QString() << QString() << 1 << false;
    QTest::newRow("device the preset has no setting for")
        << QByteArray(R"({"match": {"name": "sdb"}, "settings": {"queue/nomerges": 1}})")
        << QStringList { QStringLiteral("sdc") } << false
        << QStringLiteral("sdc: the preset \"parity\" has no setting for it") << QString() << QString() << 2 << false;
    QTest::newRow("risky reload without consent")
        << (selector + R"("settings": {"queue/nr_requests": 96}})") << QStringList() << true << QString()
        << QStringLiteral("none of the new table's paths is active now") << QStringLiteral("refused without --force")
        << 1 << false;
    QTest::newRow("write that puts data at risk")
        << QByteArray(
               R"({"match": {"name": "sdb"}, "settings": {"queue/write_cache": "write through", "queue/nomerges": 1}})")
        << QStringList() << false << QString()
        << QStringLiteral("sdb queue/write_cache=write through puts data at risk")
        << QStringLiteral("refused without --destroy-data-on sdb") << 1 << false;
    QTest::newRow("clean, with a reload") << (selector + R"("settings": {"queue/nr_requests": 256}})") << QStringList()
                                          << false << QString() << QString() << QString() << 0 << true;
}

void TestPresetParity::sameRefusalsAndWarnings()
{
    QFETCH(QByteArray, rules);
    QFETCH(QStringList, devices);
    QFETCH(bool, pathsFailed);
    QFETCH(QString, refusal);
    QFETCH(QString, risk);
    QFETCH(QString, answer);
    QFETCH(int, cliExit);
    QFETCH(bool, applied);
    const Preset preset = presetOf(rules);
    const QString status = pathsFailed ? failedStatus : activeStatus;

    // The GUI.
    Lab gui(status);
    QVERIFY(gui.ok);
    const QByteArray guiBefore = test::treeDigest(gui.tree.root());
    TuningSession session(gui.sysfs(), Applier::Mode::InProcess);
    PresetManager manager(&session);
    manager.setDeviceMapperFactory(
        [&gui] { return std::unique_ptr<DeviceMapper>(new SlowReloadMapper(&gui.fake, &gui.counters)); });
    manager.setSnapshot(Discovery::scan(gui.sysfs()));
    QTRY_VERIFY(!manager.isResolving()); // the preview is read on a job
    manager.showPreset(preset);
    QTRY_VERIFY(!manager.isResolving()); // the preview is read on a job
    QVERIFY(manager.applyCurrent(devices));
    QTRY_VERIFY_WITH_TIMEOUT(manager.pendingPlanDialog() || !manager.isApplying(), 10000);
    QStringList guiRisks;
    if (PlanDialog *dialog = manager.pendingPlanDialog()) {
        for (const OperationRisk &r : dialog->plan().risks)
            guiRisks.append(r.text);
        dialog->reject(); // no consent
    }
    const QString guiStatus = manager.statusText();

    // dmtunectl preset apply, without --force.
    Lab cli(status);
    QVERIFY(cli.ok);
    const QByteArray cliBefore = test::treeDigest(cli.tree.root());
    SlowReloadMapper cliDm(&cli.fake, &cli.counters);
    OperationEnvironment env;
    env.sysfs = cli.sysfs();
    env.dm = &cliDm;
    QString out, err;
    QTextStream outStream(&out), errStream(&err);
    const int exit = cli::runPresetApply(env, presetRequest(preset, devices), {}, { outStream, errStream });
    outStream.flush();
    errStream.flush();
    QVERIFY2(exit == cliExit, qPrintable(QStringLiteral("exit %1\n%2\n%3").arg(exit).arg(out, err)));

    if (!refusal.isEmpty()) {
        QVERIFY2(err.contains(refusal), qPrintable(err));
        QVERIFY2(guiStatus.contains(refusal), qPrintable(guiStatus));
        for (const QString &line : linesWith(err, QStringLiteral("dmtunectl: ")))
            QVERIFY2(guiStatus.contains(line),
                qPrintable(QStringLiteral("%1\nnot in the GUI's status:\n%2").arg(line, guiStatus)));
    }
    if (!risk.isEmpty()) {
        QVERIFY2(err.contains(risk) && err.contains(answer), qPrintable(err));
        QVERIFY2(
            std::any_of(guiRisks.cbegin(), guiRisks.cend(), [&risk](const QString &r) { return r.contains(risk); }),
            qPrintable(QStringLiteral("no plan dialog with \"%1\"; status: %2").arg(risk, guiStatus)));
    } else {
        QVERIFY2(guiRisks.isEmpty(), qPrintable(guiRisks.join(u'\n')));
    }
    // The same warnings (stacking, reload) on both.
    QCOMPARE(linesWith(guiStatus, QStringLiteral("warning: ")), linesWith(out, QStringLiteral("warning: ")));

    if (applied) {
        QVERIFY2(guiStatus.startsWith(QLatin1String("Applied")), qPrintable(guiStatus));
        for (Lab *lab : { &gui, &cli }) {
            QCOMPARE(lab->counters.done.load(), 1);
            QVERIFY(lab->tableParams().contains(QLatin1String("service-time 0")));
            QCOMPARE(lab->sysfs().readOr(QStringLiteral("block/dm-0/queue/nr_requests")), QStringLiteral("256"));
        }
    } else {
        // Refused by both before anything was touched: no table reloaded, not one file of the trees written.
        QCOMPARE(gui.counters.started.load(), 0);
        QCOMPARE(cli.counters.started.load(), 0);
        QCOMPARE(gui.tableParams(), mapTableParams);
        QCOMPARE(cli.tableParams(), mapTableParams);
        QCOMPARE(test::treeDigest(gui.tree.root()), guiBefore);
        QCOMPARE(test::treeDigest(cli.tree.root()), cliBefore);
    }
}

// Quitting while a preset's map is suspended for its reload: the manager's destructor waits for the step that has
// begun (the one not begun never starts), so the map is resumed, with the old or the new table, and the process
// does not end inside suspend -> load -> resume.
void TestPresetParity::closeDuringReloadLeavesMapResumed()
{
    Lab lab(activeStatus, 400);
    QVERIFY(lab.ok);
    // Whatever happens below, the fake outlives any reload still running (the old code did not wait).
    const auto waitForReloads = qScopeGuard([&lab] {
        QTRY_VERIFY_WITH_TIMEOUT(lab.counters.done.load() == lab.counters.started.load(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(lab.counters.mappers.load() == 0, 10000); // and no job holds a mapper any more
    });
    auto session = std::make_unique<TuningSession>(lab.sysfs(), Applier::Mode::InProcess);
    auto manager = std::make_unique<PresetManager>(session.get());
    manager->setDeviceMapperFactory(
        [&lab] { return std::unique_ptr<DeviceMapper>(new SlowReloadMapper(&lab.fake, &lab.counters)); });
    manager->setSnapshot(Discovery::scan(lab.sysfs()));
    QTRY_VERIFY(!manager->isResolving()); // the preview is read on a job
    manager->showPreset(
        presetOf(R"({"match": {"dmUuid": "mpath-36001405aaaaaaaaa"}, "multipath": {"selector": "service-time 0"},
        "settings": {"queue/nr_requests": 96}})"));
    manager->show();
    QVERIFY(manager->applyCurrent());
    QTRY_VERIFY_WITH_TIMEOUT(lab.fake.info(QStringLiteral("mpatha")).value().suspended, 10000);

    manager.reset(); // the window closes inside suspend -> load -> resume
    QVERIFY2(!lab.fake.info(QStringLiteral("mpatha")).value().suspended, "the map was left suspended");
    QCOMPARE(lab.counters.done.load(), lab.counters.started.load());
    const QString table = lab.tableParams();
    const QString newTable
        = QString(mapTableParams)
              .replace(QStringLiteral("round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1"),
                  QStringLiteral("service-time 0 2 2 8:0 1 1 8:16 1 1 service-time 0 2 2 8:32 1 1 8:48 1 1"));
    QVERIFY2(table == mapTableParams || table.contains(QLatin1String("service-time 0")), qPrintable(table));
    Q_UNUSED(newTable);
    // The session is still usable: the process goes on.
    QVERIFY(session->canApply());
}

QTEST_MAIN(TestPresetParity)
#include "tst_presetparity.moc"
