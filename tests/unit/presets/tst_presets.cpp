// Presets: bad files rejected with the rule and field named, round trips, the matcher and the
// resolution (apply's change set, verify's drift) on the seed's multipath fixture, exporters' text.
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathfixture.h"

#include "core/discovery/discovery.h"
#include "core/params/planner.h"
#include "core/params/transaction.h"
#include "core/presets/presetcapture.h"
#include "core/presets/presetexport.h"
#include "core/presets/presetjson.h"
#include "core/presets/presetkeeper.h"
#include "core/presets/presetmatcher.h"
#include "core/presets/presetmultipath.h"
#include "core/presets/presetresolution.h"
#include "core/presets/presetstore.h"
#include "tests/common/fakedevicemapper.h"

#include <QDir>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

QByteArray withRule(const char *rule)
{
    return QByteArray(R"({"schema": 1, "name": "t", "rules": [)") + rule + "]}";
}

} // namespace

class TestPresets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void badFiles_data();
    void badFiles();
    void valuesNormalized();
    void builtInsLoad();
    void roundTrip();
    void matcher_data();
    void matcher();
    void resolutionAndDrift();
    void laterRuleWins();
    void ioschedOfNewScheduler();
    void captureKeysByIdentity();
    void keepApplied();
    void multipathTable_data();
    void multipathTable();
    void multipathReloadsAllOrNothing();
    void mapSettingsVerified();
    void exportUdev();
    void exportTuned();
    void exportMultipath();
    void exportWithNothingToExpress();
    void savesNeverReplaceSilently();
    void storedPresetBeatsFileInCurrentDir();

private:
    std::unique_ptr<FakeSysfs> m_tree;
    bool m_treeWritten = false;
    DeviceSnapshot m_snapshot;
};

void TestPresets::init()
{
    if (m_tree && !m_treeWritten)
        return; // building the tree is the slow part: only again after a test wrote into it
    m_treeWritten = false;
    m_tree = std::make_unique<FakeSysfs>();
    test::buildMultipathFixture(*m_tree);
    m_tree->virtualDisk(QStringLiteral("loop3"), QStringLiteral("7:3"), 131072);
    m_snapshot = Discovery::scan(SysfsRoot(m_tree->root(), QString()));
}

void TestPresets::badFiles_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    const auto row = [](const char *name, const QByteArray &json, const char *error) {
        QTest::newRow(name) << json << QString::fromUtf8(error);
    };
    row("truncated JSON", R"({"schema": 1, "name": "t", "rules": [)", "malformed JSON at offset");
    row("not an object", "[1, 2]", "malformed preset: the document is not a JSON object");
    row("no schema", R"({"name": "t", "rules": []})", "field \"schema\": missing");
    row("newer schema", R"({"schema": 2, "name": "t", "rules": []})",
        "field \"schema\": schema 2 is newer than this dmtune reads (1)");
    row("schema as text", R"({"schema": "1", "name": "t", "rules": []})",
        "field \"schema\": expected an integer, got a string");
    row("no name", R"({"schema": 1, "rules": [{"match": {"kind": "loop"}, "settings": {"queue/nomerges": 2}}]})",
        "field \"name\": missing or empty");
    row("name of two lines", R"({"schema": 1, "name": "t\nERROR forged", "rules": []})",
        "field \"name\": 't\\x0aERROR forged' is not one line of printable text");
    row("unknown top-level field", R"({"schema": 1, "name": "t", "rulez": []})", "field \"rulez\": unknown field");
    row("no rules", R"({"schema": 1, "name": "t", "rules": []})", "field \"rules\": no rules");
    row("rule not an object", withRule("3"), "rule 1, field \"rules\": expected an object, got a number");
    row("no match", withRule(R"({"settings": {"queue/nomerges": 2}})"), "rule 1, field \"match\": missing");
    row("empty match", withRule(R"({"match": {}, "settings": {"queue/nomerges": 2}})"),
        "rule 1, field \"match\": empty match");
    row("unknown match field", withRule(R"({"match": {"wwnn": "x"}, "settings": {"queue/nomerges": 2}})"),
        "rule 1, field \"match.wwnn\": unknown field");
    row("unknown kind", withRule(R"({"match": {"kind": "floppy"}, "settings": {"queue/nomerges": 2}})"),
        "rule 1, field \"match.kind\": unknown device kind 'floppy'");
    row("nested pathsOf",
        withRule(R"({"match": {"pathsOf": {"pathsOf": {"kind": "multipath"}}}, "settings": {"queue/nomerges": 2}})"),
        "rule 1, field \"match.pathsOf.pathsOf\": pathsOf cannot be nested");
    row("unknown attribute", withRule(R"({"match": {"kind": "loop"}, "settings": {"queue/nr_request": 64}})"),
        "rule 1, field \"settings.queue/nr_request\": unknown attribute 'queue/nr_request'");
    row("ignored attribute",
        withRule(R"({"match": {"kind": "multipath"}, "settings": {"dm/rq_based_seq_io_merge_deadline": 8}})"),
        "rule 1, field \"settings.dm/rq_based_seq_io_merge_deadline\": ignored by current kernels");
    row("wrong type: text for an int",
        withRule(R"({"match": {"kind": "loop"}, "settings": {"queue/nr_requests": "many"}})"),
        "rule 1, field \"settings.queue/nr_requests\": ");
    row("wrong type: fraction", withRule(R"({"match": {"kind": "loop"}, "settings": {"queue/nr_requests": 1.5}})"),
        "rule 1, field \"settings.queue/nr_requests\": expected an integer, got 1.5");
    row("wrong type: bool for an int",
        withRule(R"({"match": {"kind": "loop"}, "settings": {"queue/nr_requests": true}})"),
        "rule 1, field \"settings.queue/nr_requests\": expected int, got a boolean");
    row("wrong type: object", withRule(R"({"match": {"kind": "loop"}, "settings": {"queue/nr_requests": {}}})"),
        "rule 1, field \"settings.queue/nr_requests\": expected a number or a string, got an object");
    row("out of range", withRule(R"({"match": {"kind": "loop"}, "settings": {"queue/max_sectors_kb": 2}})"),
        "rule 1, field \"settings.queue/max_sectors_kb\": 2 is outside");
    row("not a choice", withRule(R"({"match": {"kind": "loop"}, "settings": {"queue/nomerges": 7}})"),
        "rule 1, field \"settings.queue/nomerges\": '7' is not one of: 0, 1, 2");
    row("bad scheduler", withRule(R"({"match": {"kind": "loop"}, "settings": {"queue/scheduler": "mq deadline"}})"),
        "rule 1, field \"settings.queue/scheduler\": 'mq deadline' is not a scheduler name");
    row("settings not an object", withRule(R"({"match": {"kind": "loop"}, "settings": ["queue/nomerges=2"]})"),
        "rule 1, field \"settings\": expected an object (attribute -> value), got an array");
    row("nothing to set", withRule(R"({"match": {"kind": "loop"}})"),
        "rule 1, field \"settings\": a rule needs settings or multipath settings");
    row("unknown selector", withRule(R"({"match": {"kind": "multipath"}, "multipath": {"selector": "fastest 0"}})"),
        "rule 1, field \"multipath.selector\": unknown path selector 'fastest'");
    row("selector count", withRule(R"({"match": {"kind": "multipath"}, "multipath": {"selector": "round-robin 1"}})"),
        "rule 1, field \"multipath.selector\": 'round-robin 1' says 1 arguments and has 0");
    row("bad grouping", withRule(R"({"match": {"kind": "multipath"}, "multipath": {"grouping": "roundrobin"}})"),
        "rule 1, field \"multipath.grouping\": 'roundrobin' is not one of");
    row("bad feature", withRule(R"({"match": {"kind": "multipath"}, "multipath": {"features": "queue_forever"}})"),
        "rule 1, field \"multipath.features\": unknown feature 'queue_forever'");
    row("second rule named",
        withRule(
            R"({"match": {"kind": "loop"}, "settings": {"queue/nomerges": 2}}, {"match": {"kind": "loop"}, "settings": {"queue/read_ahead_kb": -1}})"),
        "rule 2, field \"settings.queue/read_ahead_kb\": -1 is outside");
    row("bad date", R"({"schema": 1, "name": "t", "created": {"at": "yesterday"}, "rules": []})",
        "field \"created.at\": 'yesterday' is not an ISO 8601 date");
}

void TestPresets::badFiles()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    const auto p = parsePreset(json);
    QVERIFY(!p);
    QVERIFY2(p.errorMessage().startsWith(error), qPrintable(p.errorMessage()));
}

void TestPresets::valuesNormalized()
{
    const auto p = parsePreset(withRule(
        R"({"match": {"kind": "loop"}, "settings": {"queue/add_random": false, "queue/nr_requests": " 64", "queue/nomerges": 2}})"));
    QVERIFY2(p, qPrintable(p.errorMessage()));
    QCOMPARE(p->rules.first().settings.size(), 3);
    // Sorted by attribute, as JSON objects are; booleans and padded integers in the kernel's form.
    QCOMPARE(p->rules.first().settings[0].value, QStringLiteral("0"));
    QCOMPARE(p->rules.first().settings[1].value, QStringLiteral("2"));
    QCOMPARE(p->rules.first().settings[2].value, QStringLiteral("64"));
}

void TestPresets::builtInsLoad()
{
    int builtIns = 0;
    for (const auto &e : listPresets()) {
        if (!e.builtIn)
            continue;
        ++builtIns;
        QVERIFY2(e.preset, qPrintable(e.preset.errorMessage()));
        QVERIFY2(e.preset->reasoning.contains(QLatin1String("Seed thread")), qPrintable(e.path));
    }
    QCOMPARE(builtIns, 3);
    QVERIFY(findPreset(QStringLiteral("max-sectors-kb-long-sg-lists")));
}

void TestPresets::roundTrip()
{
    for (const auto &e : listPresets()) {
        if (!e.builtIn)
            continue;
        const QByteArray text = presetToJson(*e.preset);
        const auto again = parsePreset(text);
        QVERIFY2(again, qPrintable(again.errorMessage()));
        QCOMPARE(*again == *e.preset, true);
        QCOMPARE(presetToJson(*again), text);
    }
    // A date with milliseconds keeps them (fuzz_presetjson found them dropped).
    const auto withMs = parsePreset(R"({"schema": 1, "name": "t", "created": {"at": "2026-11-30T05:53:01.51Z"},
        "rules": [{"match": {"kind": "loop"}, "settings": {"queue/nomerges": 2}}]})");
    QVERIFY(withMs);
    QCOMPARE(*parsePreset(presetToJson(*withMs)) == *withMs, true);
    // Saved from the fixture's devices, written to a file and read back.
    const SysfsRoot sysfs(m_tree->root(), QString());
    const auto saved = presetFromDevices(
        sysfs, m_snapshot, { QStringLiteral("dm-0"), QStringLiteral("sda") }, {}, QStringLiteral("fixture"));
    QVERIFY2(saved, qPrintable(saved.errorMessage()));
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("p.json"));
    QVERIFY(savePresetFile(file, *saved));
    const auto loaded = loadPresetFile(file);
    QVERIFY2(loaded, qPrintable(loaded.errorMessage()));
    QCOMPARE(*loaded == *saved, true);
}

void TestPresets::matcher_data()
{
    QTest::addColumn<QByteArray>("match");
    QTest::addColumn<QStringList>("devices");
    const auto row = [](const char *name, const char *match, QStringList devices) {
        QTest::newRow(name) << QByteArray(match) << devices;
    };
    const QStringList paths { QStringLiteral("sda"), QStringLiteral("sdb"), QStringLiteral("sdc"),
        QStringLiteral("sdd") };
    row("kind scsi", R"({"kind": "scsi"})", paths);
    row("kind multipath", R"({"kind": "multipath"})", { QStringLiteral("dm-0") });
    row("two kinds", R"({"kind": ["loop", "multipath"]})", { QStringLiteral("dm-0"), QStringLiteral("loop3") });
    row("path wwid", R"({"wwid": "naa.6001405aaaaaaaaa"})", paths);
    row("map wwid from its uuid", R"({"wwid": "36001405aaa*"})", { QStringLiteral("dm-0") });
    row("dm uuid glob", R"({"dmUuid": "mpath-*"})", { QStringLiteral("dm-0") });
    row("vendor glob", R"({"vendor": "LIO*"})", paths);
    row("vendor and model", R"({"vendor": "LIO-ORG", "model": "disk[01]"})", paths);
    row("vendor no match", R"({"vendor": "NETAPP"})", {});
    row("kernel name glob", R"({"name": "sd[bc]"})", { QStringLiteral("sdb"), QStringLiteral("sdc") });
    row("map name", R"({"name": "mpatha"})", { QStringLiteral("dm-0") });
    row("paths of maps", R"({"pathsOf": {"name": "mpath*"}})", paths);
    row("paths of maps, narrowed", R"({"pathsOf": {"kind": "multipath"}, "name": "sdd"})", { QStringLiteral("sdd") });
    row("paths of no map", R"({"pathsOf": {"name": "mpathz"}})", {});
    row("AND of fields", R"({"kind": "loop", "vendor": "*"})", {});
}

void TestPresets::matcher()
{
    QFETCH(QByteArray, match);
    QFETCH(QStringList, devices);
    const auto p
        = parsePreset(withRule(QByteArray(R"({"match": )") + match + R"(, "settings": {"queue/nomerges": 2}})"));
    QVERIFY2(p, qPrintable(p.errorMessage()));
    QCOMPARE(matchDevices(m_snapshot, p->rules.first().match), devices);
}

void TestPresets::resolutionAndDrift()
{
    const SysfsRoot sysfs(m_tree->root(), QString());
    const auto preset = findPreset(QStringLiteral("merge-friendly-sequential-writes"));
    QVERIFY(preset);
    const PresetResolution res = resolvePreset(sysfs, m_snapshot, *preset);
    QVERIFY(res.unmatched.isEmpty());
    // The map: scheduler, nr_requests, nomerges; each path: scheduler none (already), queue_depth 16.
    QCOMPARE(res.items.size(), 3 + 4 * 2);
    QStringList differs;
    for (const auto &i : res.items) {
        if (i.state == PresetItemState::Differs)
            differs
                << QStringLiteral("%1 %2 %3->%4 r%5").arg(i.device, i.attribute, i.current, i.wanted).arg(i.rule + 1);
    }
    QCOMPARE(differs,
        QStringList({ QStringLiteral("dm-0 queue/nr_requests 128->256 r1"),
            QStringLiteral("sda device/queue_depth 32->16 r2"), QStringLiteral("sdb device/queue_depth 32->16 r2"),
            QStringLiteral("sdc device/queue_depth 32->16 r2"), QStringLiteral("sdd device/queue_depth 32->16 r2") }));
    QVERIFY(res.hasDrift());
    QCOMPARE(res.changes().size(), 5);

    // Once the live values are the preset's, there is no drift; one out-of-band write brings it back.
    m_treeWritten = true;
    for (const auto &c : res.changes()) {
        m_tree->file(QStringLiteral("%1/%2").arg(m_tree->devicePath(c.device), c.attribute), c.value);
    }
    QVERIFY(!resolvePreset(sysfs, m_snapshot, *preset).hasDrift());
    m_tree->file(
        m_tree->devicePath(QStringLiteral("sdc")) + QStringLiteral("/device/queue_depth"), QStringLiteral("8"));
    const auto drift = resolvePreset(sysfs, m_snapshot, *preset).drift();
    QCOMPARE(drift.size(), 1);
    QCOMPARE(drift.first().device, QStringLiteral("sdc"));
    QCOMPARE(drift.first().current, QStringLiteral("8"));
}

void TestPresets::laterRuleWins()
{
    const auto p = parsePreset(withRule(R"({"match": {"kind": "scsi"}, "settings": {"queue/read_ahead_kb": 128}},
        {"comment": "one path differs", "match": {"name": "sdb"}, "settings": {"queue/read_ahead_kb": 4096}})"));
    QVERIFY2(p, qPrintable(p.errorMessage()));
    const PresetResolution res = resolvePreset(SysfsRoot(m_tree->root(), QString()), m_snapshot, *p);
    QCOMPARE(res.items.size(), 4);
    for (const auto &i : res.items) {
        QCOMPARE(i.wanted, i.device == QLatin1String("sdb") ? QStringLiteral("4096") : QStringLiteral("128"));
        QCOMPARE(i.rule, i.device == QLatin1String("sdb") ? 1 : 0);
    }
    QCOMPARE(presetRuleLabel(*p, 1), QStringLiteral("rule 2 (one path differs)"));
}

void TestPresets::ioschedOfNewScheduler()
{
    // sdb has no scheduler; mq-deadline's read_expire only exists once the preset switched to it.
    const auto p = parsePreset(withRule(
        R"({"match": {"name": "sdb"}, "settings": {"queue/scheduler": "mq-deadline", "queue/iosched/read_expire": 100}})"));
    QVERIFY2(p, qPrintable(p.errorMessage()));
    const SysfsRoot sysfs(m_tree->root(), QString());
    const PresetResolution res = resolvePreset(sysfs, m_snapshot, *p);
    QCOMPARE(res.items.size(), 2);
    QCOMPARE(res.items[0].attribute, QStringLiteral("queue/iosched/read_expire"));
    QCOMPARE(res.items[0].state, PresetItemState::Differs);
    QCOMPARE(res.items[0].note, QStringLiteral("appears with the scheduler change"));
    QCOMPARE(res.items[1].state, PresetItemState::Differs);
    const Plan plan = planChanges(sysfs, res.changes());
    QVERIFY2(plan.ok(), plan.errors.isEmpty() ? "" : qPrintable(plan.errors.first().text()));
    QCOMPARE(plan.writes.first().attribute, QStringLiteral("queue/scheduler")); // the switch first
    // Without the switch, the attribute is unavailable on that device.
    const auto noSwitch
        = parsePreset(withRule(R"({"match": {"name": "sdb"}, "settings": {"queue/iosched/read_expire": 100}})"));
    QCOMPARE(resolvePreset(sysfs, m_snapshot, *noSwitch).items.first().state, PresetItemState::Unavailable);
}

void TestPresets::captureKeysByIdentity()
{
    const SysfsRoot sysfs(m_tree->root(), QString());
    const auto p = presetFromDevices(sysfs, m_snapshot,
        { QStringLiteral("dm-0"), QStringLiteral("sdb"), QStringLiteral("loop3") },
        { QStringLiteral("queue/read_ahead_kb") }, QStringLiteral("x"));
    QVERIFY2(p, qPrintable(p.errorMessage()));
    QCOMPARE(p->rules.size(), 3);
    QCOMPARE(p->rules[0].match.dmUuid, QStringLiteral("mpath-36001405aaaaaaaaa"));
    QCOMPARE(p->rules[1].match.wwid, QStringLiteral("naa.6001405aaaaaaaaa"));
    QCOMPARE(p->rules[2].match.name, QStringLiteral("loop3"));
    QCOMPARE(p->rules[2].match.kinds, QStringList { QStringLiteral("loop") });
    // Unknown, module-wide and absent attributes are refused, naming the device.
    QVERIFY(!presetFromDevices(sysfs, m_snapshot, { QStringLiteral("sdb") }, { QStringLiteral("queue/bogus") }, {}));
    QVERIFY(!presetFromDevices(
        sysfs, m_snapshot, { QStringLiteral("sdb") }, { QStringLiteral("module/dm_mod/dm_mq_queue_depth") }, {}));
    const auto noDepth = presetFromDevices(
        sysfs, m_snapshot, { QStringLiteral("dm-0") }, { QStringLiteral("device/queue_depth") }, {});
    QVERIFY(!noDepth);
    QCOMPARE(noDepth.errorMessage(), QStringLiteral("dm-0 has no attribute device/queue_depth"));
}

namespace {
BlockDevice disk(const char *name, const char *devnum, const char *wwid)
{
    BlockDevice d;
    d.name = QString::fromLatin1(name);
    d.devnum = QString::fromLatin1(devnum);
    d.kind = DeviceKind::Scsi;
    d.wwid = QString::fromLatin1(wwid);
    return d;
}

// mpatha over sdb and sdc, with sdc in `state`.
DeviceSnapshot pathSnapshot(const char *sdcState, bool withSdd, const char *sdcDevnum = "8:32")
{
    DeviceSnapshot s;
    s.devices << disk("sdb", "8:16", "naa.1") << disk("sdc", sdcDevnum, "naa.1");
    if (withSdd)
        s.devices << disk("sdd", "8:48", "naa.1");
    s.devices << disk("sde", "8:64", "naa.2"); // another LUN: never matched
    MultipathMap map;
    map.name = QStringLiteral("mpatha");
    map.device = QStringLiteral("dm-0");
    PathGroupInfo g;
    g.paths << PathInfo { QStringLiteral("sdb"), QStringLiteral("8:16"), QStringLiteral("A"), 0, {}, {} }
            << PathInfo { QStringLiteral("sdc"), QString::fromLatin1(sdcDevnum), QString::fromLatin1(sdcState), 1, {},
                   {} };
    map.groups << g;
    s.maps << map;
    return s;
}
} // namespace

void TestPresets::keepApplied()
{
    const auto p = parsePreset(withRule(R"({"match": {"wwid": "naa.1"}, "settings": {"device/queue_depth": 16}})"));
    QVERIFY2(p, qPrintable(p.errorMessage()));
    const auto names = [](const QList<ReapplyReason> &r) {
        QStringList out;
        for (const auto &x : r)
            out << x.device + QLatin1Char(' ') + x.why;
        return out;
    };
    // Nothing changed; a new matching path; a reinstated path; a path gone and back under a new devnum.
    QCOMPARE(names(devicesToReapply(pathSnapshot("A", false), pathSnapshot("A", false), *p)), QStringList());
    QCOMPARE(names(devicesToReapply(pathSnapshot("A", false), pathSnapshot("A", true), *p)),
        QStringList { QStringLiteral("sdd appeared") });
    QCOMPARE(names(devicesToReapply(pathSnapshot("F", false), pathSnapshot("A", false), *p)),
        QStringList { QStringLiteral("sdc path reinstated in mpatha") });
    QCOMPARE(names(devicesToReapply(pathSnapshot("A", false), pathSnapshot("F", false), *p)), QStringList());
    QCOMPARE(names(devicesToReapply(pathSnapshot("A", false), pathSnapshot("A", false, "8:96"), *p)),
        QStringList { QStringLiteral("sdc appeared") });

    PresetKeeper keeper;
    QStringList requested;
    QString reason;
    connect(&keeper, &PresetKeeper::reapplyRequested, this, [&](const QStringList &d, const QString &r) {
        requested = d;
        reason = r;
    });
    keeper.onSnapshot(pathSnapshot("F", false)); // not keeping: nothing
    QVERIFY(requested.isEmpty());
    keeper.keep(*p, pathSnapshot("F", false));
    keeper.onSnapshot(pathSnapshot("A", true));
    QCOMPARE(requested, QStringList({ QStringLiteral("sdc"), QStringLiteral("sdd") }));
    QCOMPARE(reason, QStringLiteral("sdc path reinstated in mpatha; sdd appeared"));
    requested.clear();
    keeper.stop();
    keeper.onSnapshot(pathSnapshot("A", false));
    keeper.onSnapshot(pathSnapshot("A", true));
    QVERIFY(requested.isEmpty());
}

namespace {
// The lab's mpatha as the kernel prints its table: 2 round-robin groups of 2 paths.
const char *labParams = "0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1";
} // namespace

void TestPresets::multipathTable_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("grouping");
    QTest::addColumn<QString>("features");
    QTest::addColumn<QString>("table"); // formatted, or "error: ..." (prefix)
    QTest::newRow("selector only")
        << "service-time 0"
        << ""
        << ""
        << "0 0 2 1 service-time 0 2 2 8:0 1 1 8:16 1 1 service-time 0 2 2 8:32 1 1 8:48 1 1";
    QTest::newRow("multibus") << ""
                              << "multibus"
                              << ""
                              << "0 0 1 1 round-robin 0 4 1 8:0 1 8:16 1 8:32 1 8:48 1";
    QTest::newRow("failover + queue-length + queueing")
        << "queue-length 0"
        << "failover"
        << "queue_if_no_path"
        << "1 queue_if_no_path 0 4 1 queue-length 0 1 1 8:0 1 queue-length 0 1 1 8:16 1 queue-length 0 1 1 8:32 1 "
           "queue-length 0 1 1 8:48 1";
    QTest::newRow("feature with a value")
        << ""
        << ""
        << "pg_init_retries 50"
        << "2 pg_init_retries 50 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1";
    QTest::newRow("group_by_prio needs multipathd") << ""
                                                    << "group_by_prio"
                                                    << ""
                                                    << "error: grouping group_by_prio depends on path properties";
}

void TestPresets::multipathTable()
{
    QFETCH(QString, selector);
    QFETCH(QString, grouping);
    QFETCH(QString, features);
    QFETCH(QString, table);
    const auto current = parseMultipathTable(QString::fromLatin1(labParams));
    QVERIFY(current);
    MultipathSettings s { selector, grouping, features.split(QLatin1Char(' '), Qt::SkipEmptyParts) };
    const auto result = tableWithSettings(*current, s);
    if (table.startsWith(QLatin1String("error: "))) {
        QVERIFY(!result);
        QVERIFY2(result.errorMessage().startsWith(table.mid(7)), qPrintable(result.errorMessage()));
        return;
    }
    QVERIFY2(result, qPrintable(result.errorMessage()));
    QCOMPARE(formatMultipathTable(*result), table);
    QCOMPARE(*parseMultipathTable(formatMultipathTable(*result)), *result); // what the kernel would print back
}

void TestPresets::mapSettingsVerified()
{
    DeviceSnapshot s = pathSnapshot("A", false);
    BlockDevice map;
    map.name = QStringLiteral("dm-0");
    map.kind = DeviceKind::Multipath;
    map.dmName = QStringLiteral("mpatha");
    map.dmUuid = QStringLiteral("mpath-1");
    s.devices << map;
    s.maps.first().groupsKnown = true;
    s.maps.first().groups.first().selector = QStringLiteral("service-time");
    s.maps.first().features = QStringList { QStringLiteral("queue_if_no_path") };
    const auto check = [&s](const char *multipath) {
        const auto p = parsePreset(
            withRule((QByteArray(R"({"match": {"dmUuid": "mpath-1"}, "multipath": )") + multipath + "}").constData()));
        return p ? resolvePreset(SysfsRoot(), s, *p).maps : QList<PresetMapItem>();
    };
    QCOMPARE(check(R"({"selector": "service-time"})").size(), 1);
    QCOMPARE(check(R"({"selector": "service-time"})").first().differs, false);
    QCOMPARE(check(R"({"selector": "service-time 0", "grouping": "multibus", "features": "queue_if_no_path"})")
                 .first()
                 .differs,
        false);
    QCOMPARE(check(R"({"selector": "round-robin 0"})").first().currentSelector, QStringLiteral("service-time 0"));
    QCOMPARE(check(R"({"selector": "round-robin 0"})").first().differs, true);
    QCOMPARE(check(R"({"grouping": "failover"})").first().differs, true);
    QCOMPARE(check(R"({"features": "pg_init_retries 50"})").first().differs, true);
    // Two rules for the map: one item, the later rule's fields over the earlier one's.
    const auto twoRules = parsePreset(withRule(
        R"({"match": {"kind": "multipath"}, "multipath": {"selector": "round-robin 0", "grouping": "failover"}},
        {"match": {"dmUuid": "mpath-1"}, "multipath": {"selector": "service-time 0"}})"));
    QVERIFY2(twoRules, qPrintable(twoRules.errorMessage()));
    const auto maps = resolvePreset(SysfsRoot(), s, *twoRules).maps;
    QCOMPARE(maps.size(), 1);
    QCOMPARE(
        maps.first().wanted, (MultipathSettings { QStringLiteral("service-time 0"), QStringLiteral("failover"), {} }));
    QCOMPARE(maps.first().rule, 1);
    s.maps.first().groupsKnown = false;
    QCOMPARE(check(R"({"selector": "service-time"})").first().differs, true); // unknown is not "same"
}

void TestPresets::multipathReloadsAllOrNothing()
{
    FakeDeviceMapper dm;
    const QString line = QStringLiteral("0 131072 multipath ") + QString::fromLatin1(labParams);
    QVERIFY(dm.addMap(QStringLiteral("mpatha"), line, {}, QStringLiteral("mpath-1")));
    QVERIFY(dm.addMap(QStringLiteral("mpathb"), line, {}, QStringLiteral("mpath-2")));
    PresetMapItem item;
    item.differs = true;
    item.wanted = MultipathSettings { QStringLiteral("service-time 0"), QStringLiteral("multibus"), {} };
    QList<PresetMapItem> items;
    item.map = QStringLiteral("mpatha");
    items << item;
    item.map = QStringLiteral("mpathb");
    items << item;
    const auto prepared = prepareMapReloads(dm, items);
    QVERIFY2(prepared, qPrintable(prepared.errorMessage()));
    QCOMPARE(prepared->size(), 2);
    QVERIFY(!prepared->first().diff.isEmpty());
    const QString multibus = QStringLiteral("0 0 1 1 service-time 0 4 2 8:0 1 1 8:16 1 1 8:32 1 1 8:48 1 1");
    // The second reload fails: the first map gets its old table back.
    dm.failNextLoad(QStringLiteral("mpathb"), QStringLiteral("Invalid argument"));
    const MapReloadOutcome failed = executeMapReloads(dm, *prepared, false);
    QVERIFY(!failed.ok());
    QVERIFY2(
        failed.status.errorMessage().startsWith(QStringLiteral("mpathb: ")), qPrintable(failed.status.errorMessage()));
    QCOMPARE(dm.table(QStringLiteral("mpatha"))->first().params, QString::fromLatin1(labParams));
    QCOMPARE(dm.table(QStringLiteral("mpathb"))->first().params, QString::fromLatin1(labParams));
    // Then both, and restore puts both back.
    const MapReloadOutcome ok = executeMapReloads(dm, *prepared, false);
    QVERIFY2(ok.ok(), qPrintable(ok.status.errorMessage()));
    QCOMPARE(ok.done.size(), 2);
    QCOMPARE(dm.table(QStringLiteral("mpatha"))->first().params, multibus);
    QCOMPARE(dm.table(QStringLiteral("mpathb"))->first().params, multibus);
    QVERIFY(restoreMapReloads(dm, *prepared).isEmpty());
    QCOMPARE(dm.table(QStringLiteral("mpathb"))->first().params, QString::fromLatin1(labParams));
}

namespace {
const char *exportSample = R"({"schema": 1, "name": "Sample", "rules": [
    {"comment": "maps", "match": {"wwid": "36001405aaaaaaaaa"}, "settings": {"queue/max_sectors_kb": 128, "queue/nr_requests": 256},
     "multipath": {"selector": "service-time 0", "grouping": "multibus", "features": "queue_if_no_path"}},
    {"comment": "paths", "match": {"wwid": "naa.6001405aaaaaaaaa"}, "settings": {"queue/scheduler": "none", "device/queue_depth": 16, "queue/read_ahead_kb": 4096}},
    {"match": {"vendor": "NETAPP", "model": "LUN*"}, "settings": {"module/dm_mod/swap_bios": 4}, "multipath": {"grouping": "group_by_prio"}},
    {"match": {"pathsOf": {"kind": "multipath"}}, "settings": {"queue/nomerges": 2}}
]})";
} // namespace

void TestPresets::exportUdev()
{
    const auto p = parsePreset(exportSample);
    QVERIFY2(p, qPrintable(p.errorMessage()));
    const PresetExport e = exportUdevRules(*p);
    const QString expected = QStringLiteral(R"(# udev rules of the dmtune preset "Sample" (schema 1)
# Install as /etc/udev/rules.d/99-dmtune-sample.rules, then: udevadm control --reload; udevadm trigger --action=change

# rule 1 (maps): wwid=36001405aaaaaaaaa
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", ENV{DM_UUID}=="mpath-36001405aaaaaaaaa", ATTR{queue/max_sectors_kb}="128", ATTR{queue/nr_requests}="256"

# rule 2 (paths): wwid=naa.6001405aaaaaaaaa
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", ATTRS{wwid}=="naa.6001405aaaaaaaaa", ATTR{queue/scheduler}="none", ATTR{device/queue_depth}="16", ATTR{queue/read_ahead_kb}="4096"

# Not expressed in this format:
#   rule 1 (maps): multipath settings (use the multipath.conf export)
#   rule 3: multipath settings (use the multipath.conf export)
#   rule 3: module/dm_mod/swap_bios=4 (not an attribute of the block device)
#   rule 4: match "paths of the maps matching" (udev sees a path before its map)
)");
    QCOMPARE(e.text, expected);
    QCOMPARE(e.unexpressed.size(), 4);
}

void TestPresets::exportTuned()
{
    const auto p = parsePreset(exportSample);
    const PresetExport e = exportTunedProfile(*p);
    const QString expected = QStringLiteral(R"(# tuned profile of the dmtune preset "Sample" (schema 1)
[main]
summary=Sample

# rule 2 (paths): wwid=naa.6001405aaaaaaaaa
[disk_rule2]
type=disk
devices_udev_regex=^ID_WWN_WITH_EXTENSION=0x6001405aaaaaaaaa$
elevator=none
readahead=4096

# Not expressed in this format:
#   rule 1 (maps): multipath settings (use the multipath.conf export)
#   rule 1 (maps): queue/max_sectors_kb=128 (tuned's disk plugin has no option for it, and its sysfs plugin selects /sys/block/NAME paths by name, not by wwid=36001405aaaaaaaaa: use the udev export)
#   rule 1 (maps): queue/nr_requests=256 (tuned's disk plugin has no option for it, and its sysfs plugin selects /sys/block/NAME paths by name, not by wwid=36001405aaaaaaaaa: use the udev export)
#   rule 2 (paths): device/queue_depth=16 (tuned's disk plugin has no option for it, and its sysfs plugin selects /sys/block/NAME paths by name, not by wwid=naa.6001405aaaaaaaaa: use the udev export)
#   rule 3: multipath settings (use the multipath.conf export)
#   rule 3: match vendor/model globs (udev mangles their blanks)
#   rule 4: match "paths of the maps matching"
)");
    QCOMPARE(e.text, expected);
    QCOMPARE(e.expressed, 2);
}

// A preset with nothing multipath.conf can say (queue settings only): an export that sets nothing.
void TestPresets::exportWithNothingToExpress()
{
    const auto p = parsePreset(R"({"schema": 1, "name": "Queues", "rules": [
        {"match": {"wwid": "naa.6001405aaaaaaaaa"}, "settings": {"queue/nomerges": "2", "queue/scheduler": "none"}}]})");
    QVERIFY(p.ok());
    const PresetExport mp = exportMultipathConf(*p);
    QCOMPARE(mp.expressed, 0);
    QCOMPARE(mp.unexpressed.size(), 2);
    QCOMPARE(exportTunedProfile(*p).expressed, 1); // elevator only
    QCOMPARE(exportUdevRules(*p).expressed, 2);
}

void TestPresets::exportMultipath()
{
    const auto p = parsePreset(exportSample);
    const PresetExport e = exportMultipathConf(*p);
    const QString expected = QStringLiteral(R"(# multipath.conf snippet of the dmtune preset "Sample" (schema 1)
# Merge into /etc/multipath.conf (or put in /etc/multipath/conf.d/), then: multipathd reconfigure

devices {
	# rule 3
	device {
		vendor "^NETAPP"
		product "^LUN.*"
		path_grouping_policy group_by_prio
	}
}

multipaths {
	# rule 1 (maps)
	multipath {
		wwid 36001405aaaaaaaaa
		path_selector "service-time 0"
		path_grouping_policy multibus
		features "1 queue_if_no_path"
		max_sectors_kb 128
	}
}

# Not expressed in this format:
#   rule 1 (maps): queue/nr_requests=256 (multipath.conf has no such setting)
#   rule 2 (paths): queue/scheduler=none (multipath.conf has no such setting)
#   rule 2 (paths): device/queue_depth=16 (multipath.conf has no such setting)
#   rule 2 (paths): queue/read_ahead_kb=4096 (multipath.conf has no such setting)
#   rule 3: module/dm_mod/swap_bios=4 (multipath.conf has no such setting)
#   rule 4: queue/nomerges=2 (multipath.conf has no such setting)
)");
    QCOMPARE(e.text, expected);
}

void TestPresets::savesNeverReplaceSilently()
{
    QStandardPaths::setTestModeEnabled(true); // the user preset dir in a test location, never the real one
    QDir(userPresetDir()).removeRecursively();
    const auto a = parsePreset(withRule(R"({"match": {"kind": "loop"}, "settings": {"queue/nomerges": 2}})"));
    QVERIFY(a);
    Preset first = *a;
    first.name = QStringLiteral("My Preset");
    Preset second = *a;
    second.name = QStringLiteral("my-preset"); // another preset, the same file name
    const auto stored = storeUserPreset(first);
    QVERIFY2(stored, qPrintable(stored.errorMessage()));
    const auto clash = storeUserPreset(second);
    QVERIFY(!clash);
    QVERIFY2(clash.errorMessage().contains(QStringLiteral("exists")), qPrintable(clash.errorMessage()));
    QCOMPARE(loadPresetFile(*stored)->name, QStringLiteral("My Preset"));
    const auto replaced = storeUserPreset(second, ExistingFile::Replace);
    QVERIFY2(replaced, qPrintable(replaced.errorMessage()));
    QCOMPARE(loadPresetFile(*stored)->name, QStringLiteral("my-preset"));

    // A file path: refused when it exists, replaced when asked; a symbolic link is never written through.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("p.json"));
    QVERIFY(savePresetFile(file, first));
    QVERIFY(!savePresetFile(file, second));
    QCOMPARE(loadPresetFile(file)->name, QStringLiteral("My Preset"));
    QVERIFY(savePresetFile(file, second, ExistingFile::Replace));
    QCOMPARE(loadPresetFile(file)->name, QStringLiteral("my-preset"));
    const QString victim = dir.filePath(QStringLiteral("victim"));
    {
        QFile v(victim);
        QVERIFY(v.open(QIODevice::WriteOnly));
        v.write("precious");
    }
    const QString link = dir.filePath(QStringLiteral("link.json"));
    QVERIFY(QFile::link(victim, link));
    const Status viaLink = savePresetFile(link, first, ExistingFile::Replace);
    QVERIFY(!viaLink);
    QVERIFY2(viaLink.errorMessage().contains(QStringLiteral("symbolic link")), qPrintable(viaLink.errorMessage()));
    QFile v(victim);
    QVERIFY(v.open(QIODevice::ReadOnly));
    QCOMPARE(v.readAll(), QByteArray("precious"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::System).size(), 3); // p.json, victim, link: no temp left
    QDir(userPresetDir()).removeRecursively();
}

void TestPresets::storedPresetBeatsFileInCurrentDir()
{
    // `preset apply merge-friendly-sequential-writes` in a directory where someone left a file of that name:
    // the built-in (or stored) preset is meant, the file only when named as a path.
    QTemporaryDir dir;
    const QString name = QStringLiteral("merge-friendly-sequential-writes");
    {
        QFile planted(dir.filePath(name));
        QVERIFY(planted.open(QIODevice::WriteOnly));
        planted.write(withRule(R"({"match": {"kind": "loop"}, "settings": {"queue/nomerges": 2}})"));
    }
    const QString old = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    const auto byName = findPreset(name);
    const auto byPath = findPreset(QStringLiteral("./") + name);
    const auto missing = findPreset(QStringLiteral("no-such-preset"));
    QDir::setCurrent(old);
    QVERIFY2(byName, qPrintable(byName.errorMessage()));
    QCOMPARE(byName->name == QStringLiteral("t"), false);
    QVERIFY2(byPath, qPrintable(byPath.errorMessage()));
    QCOMPARE(byPath->name, QStringLiteral("t"));
    QVERIFY(!missing);
}

QTEST_GUILESS_MAIN(TestPresets)
#include "tst_presets.moc"
