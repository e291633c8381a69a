// Catalog and validation: pure parsers over real kernel text, value checks against static and
// dynamic limits, and the tunables read from a fixture tree.
#include "paramfixture.h"

#include "core/params/catalog.h"
#include "core/params/changeset.h"
#include "core/params/tunable.h"
#include "core/params/valueparsers.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace dmtune;
using dmtune::test::FakeSysfs;

class TestParamCatalog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void schedulerList_data();
    void schedulerList();
    void checkValues_data();
    void checkValues();
    void currentValuePasses_data();
    void currentValuePasses();
    void iopolicyChoicesFollowTheKernel_data();
    void iopolicyChoicesFollowTheKernel();
    void catalogIsComplete();
    void ignoredKnobsAreFlagged();
    void everyUniqueLastPartResolves();
    void names_data();
    void names();
    void fixtureTunables();
    void aRootThatIsRepointedIsResolvedAgain();
    void dynamicLimits_data();
    void dynamicLimits();
};

void TestParamCatalog::schedulerList_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("current");
    QTest::addColumn<QStringList>("available");
    const QStringList three { QStringLiteral("mq-deadline"), QStringLiteral("kyber"), QStringLiteral("none") };
    QTest::newRow("lab dm") << QStringLiteral("[mq-deadline] kyber none") << true << QStringLiteral("mq-deadline")
                            << three;
    QTest::newRow("middle") << QStringLiteral("mq-deadline [kyber] none\n") << true << QStringLiteral("kyber") << three;
    QTest::newRow("loop 6.18") << QStringLiteral("[none] mq-deadline kyber bfq ") << true << QStringLiteral("none")
                               << QStringList { QStringLiteral("none"), QStringLiteral("mq-deadline"),
                                      QStringLiteral("kyber"), QStringLiteral("bfq") };
    QTest::newRow("bio-based: lone none")
        << QStringLiteral("none") << true << QStringLiteral("none") << QStringList { QStringLiteral("none") };
    QTest::newRow("empty") << QString() << false << QString() << QStringList();
    QTest::newRow("two current") << QStringLiteral("[a] [b]") << false << QString() << QStringList();
    QTest::newRow("no current") << QStringLiteral("a b") << false << QString() << QStringList();
    QTest::newRow("broken bracket") << QStringLiteral("[a b]") << false << QString() << QStringList();
}

void TestParamCatalog::schedulerList()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    const auto r = parseSchedulerList(text);
    QCOMPARE(r.ok(), ok);
    if (!ok) {
        QVERIFY(!r.errorMessage().isEmpty());
        return;
    }
    QTEST(r->current, "current");
    QTEST(r->available, "available");
}

void TestParamCatalog::checkValues_data()
{
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<qint64>("maxHwSectorsKb"); // device facts for the dynamic limits
    QTest::addColumn<QString>("scheduler"); // the scheduler when written
    QTest::addColumn<QString>("input");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("written"); // the text to write when ok

    const QString none = QStringLiteral("none"), dl = QStringLiteral("mq-deadline");
    auto row = [](const char *name, const char *attr, qint64 hw, const QString &sched, const char *in, bool ok,
                   const char *out) {
        QTest::newRow(name) << QString::fromLatin1(attr) << hw << sched << QString::fromLatin1(in) << ok
                            << QString::fromLatin1(out);
    };
    row("nr_requests 256 with mq-deadline", "queue/nr_requests", 1280, dl, "256", true, "256");
    row("nr_requests 0 accepted (kernel makes 4)", "queue/nr_requests", 1280, dl, "0", true, "0");
    row("nr_requests 2048 max with a scheduler", "queue/nr_requests", 1280, dl, "2048", true, "2048");
    row("nr_requests 2049 too many", "queue/nr_requests", 1280, dl, "2049", false, "");
    row("nr_requests above the tags without scheduler", "queue/nr_requests", 1280, none, "129", false, "");
    row("nr_requests = tags without scheduler", "queue/nr_requests", 1280, none, "128", true, "128");
    row("nr_requests negative", "queue/nr_requests", 1280, dl, "-1", false, "");
    row("nr_requests not a number", "queue/nr_requests", 1280, dl, "12x", false, "");
    row("nr_requests blanks trimmed", "queue/nr_requests", 1280, dl, " 64\n", true, "64");
    row("max_sectors_kb at max_hw", "queue/max_sectors_kb", 1280, dl, "1280", true, "1280");
    row("max_sectors_kb above max_hw", "queue/max_sectors_kb", 1280, dl, "1281", false, "");
    row("max_sectors_kb 128 (the SG-list workaround)", "queue/max_sectors_kb", 1280, dl, "128", true, "128");
    row("max_sectors_kb below a page", "queue/max_sectors_kb", 1280, dl, "3", false, "");
    row("nomerges 2", "queue/nomerges", 1280, dl, "2", true, "2");
    row("nomerges 3 not offered", "queue/nomerges", 1280, dl, "3", false, "");
    row("rq_affinity 2", "queue/rq_affinity", 1280, dl, "2", true, "2");
    row("write_cache write through", "queue/write_cache", 1280, dl, "write through", true, "write through");
    row("write_cache bad", "queue/write_cache", 1280, dl, "writethrough", false, "");
    row("add_random bool", "queue/add_random", 1280, dl, "1", true, "1");
    row("add_random y", "queue/add_random", 1280, dl, "y", true, "1");
    row("add_random 5", "queue/add_random", 1280, dl, "5", false, "");
    row("wbt_lat_usec -1 default", "queue/wbt_lat_usec", 1280, dl, "-1", true, "-1");
    row("wbt_lat_usec -2", "queue/wbt_lat_usec", 1280, dl, "-2", false, "");
    row("scheduler from the list", "queue/scheduler", 1280, dl, "kyber", true, "kyber");
    row("scheduler unknown", "queue/scheduler", 1280, dl, "no-such-sched", false, "");
    row("queue_depth within can_queue", "device/queue_depth", 1280, dl, "64", true, "64");
    row("queue_depth above can_queue", "device/queue_depth", 1280, dl, "65", false, "");
    row("queue_depth 0", "device/queue_depth", 1280, dl, "0", false, "");
    row("iopolicy queue-depth", "nvme/iopolicy", 1280, dl, "queue-depth", true, "queue-depth");
    row("iopolicy bad", "nvme/iopolicy", 1280, dl, "random", false, "");
    row("fifo_batch", "queue/iosched/fifo_batch", 1280, dl, "32", true, "32");
    row("module bool in Y/N style", "module/dm_mod/use_blk_mq", 1280, dl, "1", true, "Y");
    row("dm_mq_queue_depth over BLK_MQ_MAX_DEPTH", "module/dm_mod/dm_mq_queue_depth", 1280, dl, "10241", false, "");
}

void TestParamCatalog::iopolicyChoicesFollowTheKernel_data()
{
    // queue-depth is in the kernel's nvme_iopolicy_names from 6.11: not offered before (the lab VM runs 6.1), nor
    // when the release cannot be read.
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<QStringList>("choices");
    const QStringList old { QStringLiteral("numa"), QStringLiteral("round-robin") };
    const QStringList current = old + QStringList { QStringLiteral("queue-depth") };
    for (const char *attribute : { "nvme/iopolicy", "module/nvme_core/iopolicy" }) {
        const QString a = QString::fromLatin1(attribute);
        QTest::addRow("%s on Debian 12's 6.1", attribute) << a << QStringLiteral("6.1.0-57-amd64") << old;
        QTest::addRow("%s on 6.10", attribute) << a << QStringLiteral("6.10.14") << old;
        QTest::addRow("%s on 6.11", attribute) << a << QStringLiteral("6.11.0") << current;
        QTest::addRow("%s on 6.12", attribute) << a << QStringLiteral("6.12.48+deb13-amd64") << current;
        QTest::addRow("%s on 7.0", attribute) << a << QStringLiteral("7.0.0-rc1") << current;
        QTest::addRow("%s unknown kernel", attribute) << a << QString() << old;
    }
}

void TestParamCatalog::iopolicyChoicesFollowTheKernel()
{
    QFETCH(QString, attribute);
    QFETCH(QString, kernel);
    QFETCH(QStringList, choices);
    const TunableDef *def = catalog::find(attribute);
    QVERIFY2(def, qPrintable(attribute));
    DeviceContext ctx;
    ctx.name = QStringLiteral("nvme0n1");
    ctx.kernelRelease = kernel;
    const ValueLimits limits = deviceLimits(*def, ctx, QString());
    QCOMPARE(limits.choices, choices);
    const auto r = checkValue(*def, limits, QStringLiteral("queue-depth"));
    QCOMPARE(r.ok(), choices.contains(QStringLiteral("queue-depth")));
    if (!r.ok())
        QVERIFY2(
            r.errorMessage().contains(QStringLiteral("not one of: numa, round-robin")), qPrintable(r.errorMessage()));
}

void TestParamCatalog::checkValues()
{
    QFETCH(QString, attribute);
    QFETCH(qint64, maxHwSectorsKb);
    QFETCH(QString, scheduler);
    QFETCH(QString, input);
    QFETCH(bool, ok);
    const TunableDef *def = catalog::find(attribute);
    QVERIFY2(def, qPrintable(attribute));
    DeviceContext ctx;
    ctx.name = QStringLiteral("sdb");
    ctx.maxHwSectorsKb = maxHwSectorsKb;
    ctx.nrTags = 128;
    ctx.canQueue = 64;
    ctx.schedulers = *parseSchedulerList(QStringLiteral("[mq-deadline] kyber bfq none"));
    ctx.kernelRelease = QStringLiteral("6.11.0-1-amd64"); // every value a current kernel takes (older ones below)
    const auto r = checkValue(*def, deviceLimits(*def, ctx, scheduler), input);
    QVERIFY2(r.ok() == ok, qPrintable(r.ok() ? r.value() : r.errorMessage()));
    if (ok)
        QTEST(r.value(), "written");
}

// The value a file holds passes whatever the grid says: a loop device reports
// discard_max_bytes 4294966784 (0xfffffe00) with a granularity of 4096, a value the kernel refuses to be written.
void TestParamCatalog::currentValuePasses_data()
{
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<QString>("current"); // as the kernel reports it; empty: not known
    QTest::addColumn<QString>("input");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("written");
    auto row = [](const char *name, const char *attr, const char *current, const char *in, bool ok, const char *out) {
        QTest::newRow(name) << QString::fromLatin1(attr) << QString::fromLatin1(current) << QString::fromLatin1(in)
                            << ok << QString::fromLatin1(out);
    };
    const char *discard = "queue/discard_max_bytes";
    row("discard_max_bytes: the current value off the grid", discard, "4294966784", "4294966784", true, "4294966784");
    row("discard_max_bytes: the same, with blanks", discard, "4294966784\n", " 4294966784 ", true, "4294966784");
    row("discard_max_bytes: off the grid, not current", discard, "4294963200", "4294966784", false, "");
    row("discard_max_bytes: off the grid, nothing current", discard, "", "4294966784", false, "");
    row("discard_max_bytes: below the current, off the grid", discard, "4294966784", "4294966783", false, "");
    row("discard_max_bytes: on the grid", discard, "4294966784", "1048576", true, "1048576");
    row("discard_max_bytes: above the hardware's", discard, "4294966784", "4294967296", false, "");
    row("nomerges: current 2", "queue/nomerges", "2", "2", true, "2");
    row("nomerges: 3 is not current", "queue/nomerges", "2", "3", false, "");
    row("add_random: y is the current 1", "queue/add_random", "1", "y", true, "1");
}

void TestParamCatalog::currentValuePasses()
{
    QFETCH(QString, attribute);
    QFETCH(QString, current);
    QFETCH(QString, input);
    QFETCH(bool, ok);
    const TunableDef *def = catalog::find(attribute);
    QVERIFY2(def, qPrintable(attribute));
    DeviceContext ctx;
    ctx.name = QStringLiteral("loop1");
    ctx.discardGranularity = 4096;
    ctx.discardMaxHwBytes = 4294966784;
    const auto r = checkValueFrom(*def, deviceLimits(*def, ctx, QString()), current, input);
    QVERIFY2(r.ok() == ok, qPrintable(r.ok() ? r.value() : r.errorMessage()));
    if (ok)
        QTEST(r.value(), "written");
}

void TestParamCatalog::catalogIsComplete()
{
    const QStringList required { QStringLiteral("queue/nr_requests"), QStringLiteral("queue/max_sectors_kb"),
        QStringLiteral("queue/scheduler"), QStringLiteral("queue/nomerges"), QStringLiteral("queue/rq_affinity"),
        QStringLiteral("queue/read_ahead_kb"), QStringLiteral("queue/add_random"), QStringLiteral("queue/iostats"),
        QStringLiteral("queue/wbt_lat_usec"), QStringLiteral("queue/rotational"), QStringLiteral("queue/write_cache"),
        QStringLiteral("queue/io_poll"), QStringLiteral("queue/io_poll_delay"), QStringLiteral("queue/stable_writes"),
        QStringLiteral("queue/discard_max_bytes"), QStringLiteral("device/queue_depth"),
        QStringLiteral("device/timeout"), QStringLiteral("device/eh_timeout"), QStringLiteral("nvme/iopolicy"),
        QStringLiteral("dm/rq_based_seq_io_merge_deadline") };
    for (const auto &a : required)
        QVERIFY2(catalog::find(a), qPrintable(a));
    QStringList keys;
    for (const auto &d : catalog::all()) {
        QVERIFY2(!keys.contains(d.attribute), qPrintable(d.attribute)); // keys are unique
        keys << d.attribute;
        QVERIFY2(!d.description.isEmpty(), qPrintable(d.attribute));
        QVERIFY2(d.type != TunableType::String, qPrintable(d.attribute)); // no free text is ever written
        if (d.location == TunableLocation::IoScheduler)
            QVERIFY(!d.scheduler.isEmpty());
        if (d.type == TunableType::Enum && d.limit != DynamicLimit::SchedulerList)
            QCOMPARE(d.choiceNotes.size(), d.choices.size());
    }
    QCOMPARE(catalog::schedulerAttributes(QStringLiteral("kyber")),
        (QStringList {
            QStringLiteral("queue/iosched/read_lat_nsec"), QStringLiteral("queue/iosched/write_lat_nsec") }));
    QVERIFY(catalog::schedulerAttributes(QStringLiteral("mq-deadline"))
                .contains(QStringLiteral("queue/iosched/prio_aging_expire")));
    QVERIFY(catalog::schedulerAttributes(QStringLiteral("bfq")).contains(QStringLiteral("queue/iosched/low_latency")));
    QVERIFY(!catalog::find(QStringLiteral("queue/logical_block_size")));
    QVERIFY(!catalog::find(QStringLiteral("../queue/nr_requests")));
}

void TestParamCatalog::ignoredKnobsAreFlagged()
{
    for (const char *a : { "dm/rq_based_seq_io_merge_deadline", "module/dm_mod/use_blk_mq", "queue/io_poll_delay" }) {
        const TunableDef *d = catalog::find(QString::fromLatin1(a));
        QVERIFY(d);
        QVERIFY2(d->ignored && !d->ignoredNote.isEmpty(), a);
    }
    const auto &knobs = catalog::ignoredTableKnobs();
    QVERIFY(std::any_of(knobs.begin(), knobs.end(),
        [](const IgnoredKnob &k) { return k.name.contains(QLatin1String("repeat_count")); }));
}

// Each key and every last part of it (after a '/') names that key wherever a user types one, unless another key
// ends the same way (then the name is refused, naming both); no key is also a read-only attribute.
void TestParamCatalog::everyUniqueLastPartResolves()
{
    QStringList keys;
    for (const auto &d : catalog::all())
        keys << d.attribute;
    int unique = 0;
    for (const QString &key : std::as_const(keys)) {
        QVERIFY2(!catalog::readOnlyAttributes().contains(key), qPrintable(key));
        const QStringList parts = key.split(QLatin1Char('/'));
        for (qsizetype i = 0; i < parts.size(); ++i) {
            const QString name = parts.mid(i).join(QLatin1Char('/'));
            QStringList owners;
            for (const QString &k : std::as_const(keys)) {
                if (k == name || k.endsWith(QLatin1Char('/') + name))
                    owners << k;
            }
            // One device attribute among module parameters is what the short name means.
            const QStringList onDevices = owners.filter(QRegularExpression(QStringLiteral("^(?!module/)")));
            if (owners.size() > 1 && onDevices.size() == 1 && !owners.contains(name))
                owners = onDevices;
            if (owners.size() == 1 && owners.first() != key)
                continue; // the name means another key
            const auto resolved = catalog::resolve(name);
            if (owners.size() == 1) {
                QVERIFY2(resolved, qPrintable(name + QStringLiteral(": ") + resolved.errorMessage()));
                QCOMPARE(resolved.value(), key);
                const auto assignment = parseAssignment(name + QStringLiteral("=1"));
                QVERIFY2(assignment, qPrintable(assignment.errorMessage()));
                QCOMPARE(assignment->attribute, key);
                ++unique;
            } else {
                QVERIFY2(!resolved, qPrintable(name));
                for (const QString &o : std::as_const(owners))
                    QVERIFY2(resolved.errorMessage().contains(o), qPrintable(resolved.errorMessage()));
            }
        }
    }
    QVERIFY(unique > keys.size()); // every key, and at least one short form each
}

void TestParamCatalog::names_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("key"); // empty: refused
    QTest::addColumn<QString>("error");
    const auto ok = [](const char *name, const char *key) {
        QTest::newRow(name) << QString::fromLatin1(name) << QString::fromLatin1(key) << QString();
    };
    const auto refused = [](const char *row, const QString &name, const QString &error) {
        QTest::newRow(row) << name << QString() << error;
    };
    ok("queue_depth", "device/queue_depth");
    ok("device/queue_depth", "device/queue_depth");
    ok("nr_requests", "queue/nr_requests");
    ok("read_expire", "queue/iosched/read_expire");
    ok("iosched/read_expire", "queue/iosched/read_expire");
    ok("dm_mq_queue_depth", "module/dm_mod/dm_mq_queue_depth");
    ok("dm_mod/swap_bios", "module/dm_mod/swap_bios");
    ok("iopolicy", "nvme/iopolicy"); // not nvme_core's default: a device attribute wins a short name
    ok("nvme_core/iopolicy", "module/nvme_core/iopolicy");
    ok(" nomerges ", "queue/nomerges");
    refused("read-only, short", QStringLiteral("logical_block_size"),
        QStringLiteral("queue/logical_block_size is read-only: the kernel reports it, nothing can set it"));
    refused("read-only, whole", QStringLiteral("queue/max_hw_sectors_kb"),
        QStringLiteral("queue/max_hw_sectors_kb is read-only: the kernel reports it, nothing can set it"));
    refused("read-only dm", QStringLiteral("uuid"),
        QStringLiteral("dm/uuid is read-only: the kernel reports it, nothing can set it"));
    refused("unknown", QStringLiteral("bogus"), QStringLiteral("unknown attribute 'bogus'"));
    refused("a directory", QStringLiteral("queue"), QStringLiteral("unknown attribute 'queue'"));
    refused("a part of a word", QStringLiteral("depth"), QStringLiteral("unknown attribute 'depth'"));
    refused("empty", QString(), QStringLiteral("unknown attribute ''"));
}

void TestParamCatalog::names()
{
    QFETCH(QString, name);
    QFETCH(QString, key);
    QFETCH(QString, error);
    const auto r = catalog::resolve(name);
    if (key.isEmpty()) {
        QVERIFY(!r);
        QCOMPARE(r.errorMessage(), error);
    } else {
        QVERIFY2(r, qPrintable(r.errorMessage()));
        QCOMPARE(r.value(), key);
    }
    // matching() over a device's own keys: the whole name first, a last part only when it names one alone.
    const QStringList own { QStringLiteral("queue/nr_requests"), QStringLiteral("dm/name"), QStringLiteral("x/name"),
        QStringLiteral("name") };
    QCOMPARE(
        catalog::matching(own, QStringLiteral("nr_requests")), QStringList { QStringLiteral("queue/nr_requests") });
    QCOMPARE(catalog::matching(own, QStringLiteral("name")), QStringList { QStringLiteral("name") });
    QCOMPARE(catalog::matching(own.mid(0, 3), QStringLiteral("name")),
        (QStringList { QStringLiteral("dm/name"), QStringLiteral("x/name") }));
    QCOMPARE(catalog::matching(own, QStringLiteral("requests")), QStringList());
}

void TestParamCatalog::fixtureTunables()
{
    FakeSysfs t;
    test::buildMultipathFixture(t);
    const SysfsRoot sysfs(t.root(), QString());
    const auto map = readTunables(sysfs, QStringLiteral("dm-0"));
    const auto get = [&](const QList<Tunable> &list, const QString &attr) {
        const auto it = std::find_if(list.begin(), list.end(), [&](const Tunable &x) { return x.attribute == attr; });
        return it == list.end() ? Tunable() : *it;
    };
    const Tunable sched = get(map, QStringLiteral("queue/scheduler"));
    QCOMPARE(sched.value, QStringLiteral("mq-deadline"));
    QCOMPARE(sched.rawValue, QStringLiteral("[mq-deadline] kyber bfq none"));
    QCOMPARE(sched.limits.choices.size(), 4);
    QVERIFY(sched.writable && sched.known && !sched.hasPending());
    QCOMPARE(get(map, QStringLiteral("queue/nr_requests")).value, QStringLiteral("128"));
    QCOMPARE(get(map, QStringLiteral("queue/iosched/read_expire")).value, QStringLiteral("500"));
    // Ignored knobs are shown, flagged, and not writable.
    const Tunable merge = get(map, QStringLiteral("dm/rq_based_seq_io_merge_deadline"));
    QVERIFY(merge.known && merge.ignored && !merge.writable && !merge.note.isEmpty());
    QVERIFY(!merge.check(QStringLiteral("0")));
    const Tunable useMq = get(map, QStringLiteral("module/dm_mod/use_blk_mq"));
    QVERIFY(useMq.ignored);
    QCOMPARE(useMq.value, QStringLiteral("Y"));
    QCOMPARE(get(map, QStringLiteral("module/dm_multipath/queue_if_no_path_timeout_secs")).value, QStringLiteral("0"));
    // Unknown attributes: raw, read-only.
    const Tunable lbs = get(map, QStringLiteral("queue/logical_block_size"));
    QVERIFY(!lbs.known && !lbs.writable && lbs.readable);
    QCOMPARE(lbs.value, QStringLiteral("512"));
    const Tunable dmName = get(map, QStringLiteral("dm/name"));
    QVERIFY(!dmName.known && !dmName.writable);
    // SCSI attributes only on the SCSI paths; module parameters only on dm devices.
    QVERIFY(get(map, QStringLiteral("device/queue_depth")).attribute.isEmpty());
    const auto path = readTunables(sysfs, QStringLiteral("sdb"));
    const Tunable qd = get(path, QStringLiteral("device/queue_depth"));
    QCOMPARE(qd.value, QStringLiteral("32"));
    QCOMPARE(qd.limits.maximum, 64); // the host's can_queue
    QVERIFY(get(path, QStringLiteral("module/dm_mod/dm_mq_queue_depth")).attribute.isEmpty());
    QVERIFY(readTunable(sysfs, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")));
    QVERIFY(!readTunable(sysfs, QStringLiteral("sdb"), QStringLiteral("queue/nope")));
    QVERIFY(readTunables(sysfs, QStringLiteral("../sdb")).isEmpty());
    // An editor's pending values become a change set.
    auto rows = path;
    for (auto &row : rows) {
        if (row.attribute == QLatin1String("queue/nomerges"))
            row.pending = QStringLiteral("2");
        if (row.attribute == QLatin1String("queue/rotational"))
            row.pending = row.value; // unchanged: not a change
    }
    QCOMPARE(pendingChanges(rows),
        (ChangeSet { Change { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } }));
}

// A remote host's capture is a link, `current`, repointed at each new capture and the old one removed: the
// confinement check must follow it (it once kept the first capture's real path per thread, and a later capture's
// attributes "left the sysfs device tree").
void TestParamCatalog::aRootThatIsRepointedIsResolvedAgain()
{
    QTemporaryDir base;
    QVERIFY(base.isValid());
    const QString current = base.path() + QStringLiteral("/current");
    const auto nomergesWritable = [&](const QString &device) {
        const auto row = readTunable(SysfsRoot(current, QString()), device, QStringLiteral("queue/nomerges"));
        return row && row->writable;
    };
    auto first = std::make_unique<FakeSysfs>();
    test::buildMultipathFixture(*first);
    QVERIFY(QFile::link(first->root(), current));
    QVERIFY(nomergesWritable(QStringLiteral("sdb")));
    FakeSysfs second;
    test::buildMultipathFixture(second);
    QVERIFY(QFile::remove(current) && QFile::link(second.root(), current));
    first.reset(); // the old capture is gone
    QVERIFY(nomergesWritable(QStringLiteral("sdc"))); // first seen in the new capture
    QVERIFY(nomergesWritable(QStringLiteral("sdb")));
}

void TestParamCatalog::dynamicLimits_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<QString>("limits");
    QTest::newRow("map max_sectors_kb <= max_hw_sectors_kb")
        << QStringLiteral("dm-0") << QStringLiteral("queue/max_sectors_kb") << QStringLiteral("4..4096");
    QTest::newRow("map nr_requests with mq-deadline")
        << QStringLiteral("dm-0") << QStringLiteral("queue/nr_requests") << QStringLiteral("0..2048");
    QTest::newRow("path scheduler list") << QStringLiteral("sda") << QStringLiteral("queue/scheduler")
                                         << QStringLiteral("mq-deadline|kyber|bfq|none");
    QTest::newRow("queue_depth 1..can_queue")
        << QStringLiteral("sdc") << QStringLiteral("device/queue_depth") << QStringLiteral("1..64");
    QTest::newRow("nomerges") << QStringLiteral("sdc") << QStringLiteral("queue/nomerges") << QStringLiteral("0|1|2");
}

void TestParamCatalog::dynamicLimits()
{
    QFETCH(QString, device);
    QFETCH(QString, attribute);
    FakeSysfs t;
    test::buildMultipathFixture(t);
    const auto r = readTunable(SysfsRoot(t.root(), QString()), device, attribute);
    QVERIFY2(r, qPrintable(r.errorMessage()));
    QTEST(r->limitsText(), "limits");
}

QTEST_GUILESS_MAIN(TestParamCatalog)
#include "tst_paramcatalog.moc"
