// New from selection's default choice: the attributes changed through dmtune on the device (the
// tuning history) or differing from the first-seen values are checked, with the reason; only savable tunables
// (known, readable, writable, per device) are listed. FirstSeenValues keeps the first value per stable identity.
#include "core/params/catalog.h"
#include "core/params/valueparsers.h"
#include "core/presets/presetselection.h"

#include <QTest>

using namespace dmtune;

namespace {

QStringList list(std::initializer_list<const char *> items)
{
    QStringList l;
    for (const char *item : items)
        l << QString::fromUtf8(item);
    return l;
}

Tunable tunable(const QString &attribute, const QString &value, bool writable = true)
{
    Tunable t;
    t.device = QStringLiteral("sdb");
    t.attribute = attribute;
    t.value = value;
    t.known = true;
    t.readable = true;
    t.writable = writable;
    // As a device reports them: a value off these limits is one the kernel would refuse back, never saved.
    if (const TunableDef *def = catalog::find(attribute))
        t.limits = staticLimits(*def);
    if (attribute == QLatin1String("queue/scheduler"))
        t.limits.choices
            = { QStringLiteral("mq-deadline"), QStringLiteral("kyber"), QStringLiteral("bfq"), QStringLiteral("none") };
    return t;
}

// sdb's tunables: four savable ones, a read-only one and a module parameter (global: never saved).
QList<Tunable> sdbTunables(const QString &nomerges, const QString &scheduler, const QString &nrRequests)
{
    return { tunable(QStringLiteral("queue/nomerges"), nomerges),
        tunable(QStringLiteral("queue/read_ahead_kb"), QStringLiteral("128")),
        tunable(QStringLiteral("queue/scheduler"), scheduler), tunable(QStringLiteral("queue/nr_requests"), nrRequests),
        tunable(QStringLiteral("queue/rotational"), QStringLiteral("1"), false),
        tunable(QStringLiteral("module/dm_mod/swap_bios"), QStringLiteral("8192")) };
}

// "DEV ATTR OLD NEW[ side][ rolledback]", one transaction each.
QList<ApplyResult> history(const QStringList &lines)
{
    QList<ApplyResult> results;
    for (const QString &line : lines) {
        const QStringList f = line.split(u' ');
        ApplyResult r;
        ChangeOutcome c;
        c.device = f[0];
        c.attribute = f[1];
        c.oldValue = f[2];
        c.newValue = f[3];
        c.sideEffect = f.contains(QStringLiteral("side"));
        c.written = !c.sideEffect;
        r.rolledBack = f.contains(QStringLiteral("rolledback"));
        r.changes << c;
        results << r;
    }
    return results;
}

} // namespace

class TestPresetSelection : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaultChoice_data();
    void defaultChoice();
    void firstSeenKeptPerIdentity();
};

void TestPresetSelection::defaultChoice_data()
{
    QTest::addColumn<QStringList>("now"); // nomerges, scheduler, nr_requests
    QTest::addColumn<QStringList>("changes");
    QTest::addColumn<QStringList>("firstSeen"); // attribute=value
    QTest::addColumn<QStringList>("checked"); // attribute: reason

    const QStringList same = list({ "0", "mq-deadline", "64" });
    QTest::newRow("nothing changed, nothing seen") << same << QStringList() << QStringList() << QStringList();
    QTest::newRow("as first seen") << same << QStringList() << list({ "queue/nomerges=0", "queue/read_ahead_kb=128" })
                                   << QStringList();
    QTest::newRow("changed through dmtune") << list({ "2", "mq-deadline", "64" }) << list({ "sdb queue/nomerges 0 2" })
                                            << QStringList() << list({ "queue/nomerges: changed in dmtune: 0 -> 2" });
    QTest::newRow("changed and changed back: still dmtune's")
        << same << list({ "sdb queue/nomerges 0 2", "sdb queue/nomerges 2 0" }) << list({ "queue/nomerges=0" })
        << list({ "queue/nomerges: changed in dmtune: 0 -> 2 -> 0" });
    QTest::newRow("another device's change")
        << same << list({ "sdc queue/nomerges 0 2" }) << QStringList() << QStringList();
    QTest::newRow("differs from first seen")
        << same << QStringList() << list({ "queue/read_ahead_kb=4096", "queue/nomerges=0" })
        << list({ "queue/read_ahead_kb: first seen 4096" });
    QTest::newRow("scheduler change resets nr_requests")
        << list({ "0", "none", "256" })
        << list({ "sdb queue/scheduler mq-deadline none", "sdb queue/nr_requests 64 256 side" })
        << list({ "queue/scheduler=mq-deadline", "queue/nr_requests=64" })
        << list({ "queue/scheduler: changed in dmtune: mq-deadline -> none",
               "queue/nr_requests: changed in dmtune: 64 -> 256" });
    QTest::newRow("rolled back") << same << list({ "sdb queue/nomerges 0 0 rolledback" }) << QStringList()
                                 << QStringList();
    QTest::newRow("written, unchanged") << same << list({ "sdb queue/nomerges 0 0" }) << QStringList() << QStringList();
    QTest::newRow("dmtune's change wins over first seen")
        << list({ "2", "mq-deadline", "64" }) << list({ "sdb queue/nomerges 1 2" }) << list({ "queue/nomerges=0" })
        << list({ "queue/nomerges: changed in dmtune: 1 -> 2" });
    QTest::newRow("read-only and module parameters never listed")
        << same << list({ "sdb queue/rotational 0 1", "sdb module/dm_mod/swap_bios 1 8192" })
        << list({ "queue/rotational=0" }) << QStringList();
}

void TestPresetSelection::defaultChoice()
{
    QFETCH(QStringList, now);
    QFETCH(QStringList, changes);
    QFETCH(QStringList, firstSeen);
    QFETCH(QStringList, checked);
    QHash<QString, QString> seen;
    for (const QString &s : firstSeen)
        seen.insert(s.section(u'=', 0, 0), s.section(u'=', 1));

    const QList<AttributeChoice> choices
        = defaultAttributeChoices(QStringLiteral("sdb"), sdbTunables(now[0], now[1], now[2]), history(changes), seen);
    QStringList listed, got;
    for (const AttributeChoice &c : choices) {
        QCOMPARE(c.device, QStringLiteral("sdb"));
        listed << c.attribute;
        if (c.checked)
            got << QStringLiteral("%1: %2").arg(c.attribute, c.reason);
        else
            QVERIFY2(c.reason.isEmpty(), qPrintable(c.reason));
    }
    QCOMPARE(listed, list({ "queue/nomerges", "queue/read_ahead_kb", "queue/scheduler", "queue/nr_requests" }));
    QCOMPARE(got, checked);
}

void TestPresetSelection::firstSeenKeptPerIdentity()
{
    BlockDevice sdb;
    sdb.name = QStringLiteral("sdb");
    sdb.devnum = QStringLiteral("8:16");
    sdb.wwid = QStringLiteral("naa.600a098038303053453f463045727142");
    FirstSeenValues seen;
    seen.record(sdb, sdbTunables(QStringLiteral("0"), QStringLiteral("mq-deadline"), QStringLiteral("64")));
    seen.record(sdb,
        sdbTunables(
            QStringLiteral("2"), QStringLiteral("none"), QStringLiteral("256"))); // a later read never overwrites
    seen.record(sdb, QStringLiteral("queue/nomerges"), QStringLiteral("1"));
    BlockDevice renamed = sdb; // the same disk as sdc after a rescan: the WWID is the key
    renamed.name = QStringLiteral("sdc");
    renamed.devnum = QStringLiteral("8:32");
    const QHash<QString, QString> values = seen.values(renamed);
    QCOMPARE(values.size(), 4); // not the read-only one, not the module parameter
    QCOMPARE(values.value(QStringLiteral("queue/nomerges")), QStringLiteral("0"));
    QCOMPARE(values.value(QStringLiteral("queue/scheduler")), QStringLiteral("mq-deadline"));
    BlockDevice loop; // no WWID, no DM UUID: MAJ:MIN
    loop.name = QStringLiteral("loop0");
    loop.devnum = QStringLiteral("7:0");
    QVERIFY(!seen.contains(loop));
    seen.record(loop, QStringLiteral("queue/nomerges"), QStringLiteral("2"));
    QCOMPARE(
        seen.values(loop), (QHash<QString, QString> { { QStringLiteral("queue/nomerges"), QStringLiteral("2") } }));
    QCOMPARE(firstSeenKey(loop), QStringLiteral("devnum:7:0"));
}

QTEST_GUILESS_MAIN(TestPresetSelection)
#include "tst_presetselection.moc"
