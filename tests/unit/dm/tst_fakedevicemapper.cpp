// FakeDeviceMapper: the lab's 2 x 2 round-robin map driven with the messages of
// lab/guest/selftest.sh; the status must change the way the kernel's does.
#include "core/dm/grammar/multipathmessages.h"
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"
#include "tests/common/fakedevicemapper.h"

#include <QTest>

#include <future>

using namespace dmtune;

namespace {
const QString mapName = QStringLiteral("mpatha");
const QString labTable
    = QStringLiteral("0 131072 multipath 0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1");
// After the first I/O: group 1 in use.
const QString labStatus
    = QStringLiteral("0 131072 multipath 2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 A 0 E 0 2 0 8:32 A 0 8:48 A 0");

QString statusParams(DeviceMapper &dm, const QString &name = mapName)
{
    const auto lines = dm.status(name);
    return lines && lines->size() == 1 ? lines->first().params : QString();
}

QString tableParams(DeviceMapper &dm, const QString &name = mapName)
{
    const auto lines = dm.table(name);
    return lines && lines->size() == 1 ? lines->first().params : QString();
}

quint32 eventNr(DeviceMapper &dm, const QString &name = mapName)
{
    return dm.info(name)->eventNr;
}
} // namespace

class TestFakeDeviceMapper : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void listAndInfo();
    void failAndReinstatePath();
    void switchGroupThenIo();
    void failoverOnIo();
    void disableAndEnableGroup();
    void queueIfNoPath();
    void rejectedMessages_data();
    void rejectedMessages();
    void suspendedMapRefusesMessages();
    void reload();
    void reloadFailureKeepsOldTable();
    void freshMapStatus();
    void waitEvent();
    void replaysKernelSequence();

private:
    std::unique_ptr<FakeDeviceMapper> m_dm;
};

void TestFakeDeviceMapper::init()
{
    m_dm = std::make_unique<FakeDeviceMapper>();
    m_dm->setWaitTimeout(5000);
    const Status added = m_dm->addMap(mapName, labTable, labStatus, QStringLiteral("mpath-33333330000007d0"));
    QVERIFY2(added, qPrintable(added.errorMessage()));
}

void TestFakeDeviceMapper::listAndInfo()
{
    QVERIFY(m_dm->addMap(QStringLiteral("lin0"), QStringLiteral("0 2048 linear 8:0 0")));
    const auto maps = m_dm->listMaps();
    QVERIFY(maps.ok());
    QCOMPARE(maps->size(), 2);
    QCOMPARE(maps->at(1), (DmMapName { mapName, 253, 0 }));
    QCOMPARE(maps->at(0).name, QStringLiteral("lin0"));

    const auto info = m_dm->info(mapName);
    QVERIFY(info.ok());
    QVERIFY(info->exists);
    QVERIFY(!info->suspended);
    QCOMPARE(info->targetCount, 1);
    QCOMPARE(info->uuid, QStringLiteral("mpath-33333330000007d0"));
    QCOMPARE(info->eventNr, 0u);

    const auto missing = m_dm->info(QStringLiteral("mpathz"));
    QVERIFY(missing.ok());
    QVERIFY(!missing->exists);
    QVERIFY(!m_dm->table(QStringLiteral("mpathz")).ok());
    QVERIFY(!m_dm->info(QStringLiteral("a/b")).ok());
    QVERIFY(!m_dm->addMap(mapName, labTable));

    QCOMPARE(tableParams(*m_dm), labTable.section(QLatin1Char(' '), 3));
    QCOMPARE(statusParams(*m_dm), labStatus.section(QLatin1Char(' '), 3));
}

void TestFakeDeviceMapper::failAndReinstatePath()
{
    DeviceMapper &dm = *m_dm;
    QVERIFY(dm.message(mapName, failPathMessage(QStringLiteral("8:16")).value()));
    QCOMPARE(statusParams(dm), QStringLiteral("2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 F 1 E 0 2 0 8:32 A 0 8:48 A 0"));
    QCOMPARE(eventNr(dm), 1u);

    // Failing a failed path changes nothing and raises no event (fail_path() returns early).
    QVERIFY(dm.message(mapName, QStringLiteral("fail_path 8:16")));
    QCOMPARE(statusParams(dm), QStringLiteral("2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 F 1 E 0 2 0 8:32 A 0 8:48 A 0"));
    QCOMPARE(eventNr(dm), 1u);

    QVERIFY(dm.message(mapName, QStringLiteral("reinstate_path 8:16")));
    QCOMPARE(statusParams(dm), QStringLiteral("2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 A 1 E 0 2 0 8:32 A 0 8:48 A 0"));
    QCOMPARE(eventNr(dm), 2u);
    QCOMPARE(m_dm->receivedMessages(mapName),
        (QStringList { QStringLiteral("fail_path 8:16"), QStringLiteral("fail_path 8:16"),
            QStringLiteral("reinstate_path 8:16") }));
}

void TestFakeDeviceMapper::switchGroupThenIo()
{
    QVERIFY(m_dm->message(mapName, QStringLiteral("switch_group 2")));
    // No group in use until the next I/O; the status shows the group it will use.
    QCOMPARE(statusParams(*m_dm), QStringLiteral("2 0 0 0 2 2 E 0 2 0 8:0 A 0 8:16 A 0 E 0 2 0 8:32 A 0 8:48 A 0"));
    QCOMPARE(eventNr(*m_dm), 1u);
    QVERIFY(m_dm->simulateIo(mapName));
    QCOMPARE(statusParams(*m_dm), QStringLiteral("2 0 0 0 2 2 E 0 2 0 8:0 A 0 8:16 A 0 A 0 2 0 8:32 A 0 8:48 A 0"));
}

void TestFakeDeviceMapper::failoverOnIo()
{
    QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:0")));
    QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:16")));
    QVERIFY(m_dm->simulateIo(mapName));
    // The selftest's "I/O still works (fails over to group 2)".
    QCOMPARE(statusParams(*m_dm), QStringLiteral("2 0 0 0 2 2 E 0 2 0 8:0 F 1 8:16 F 1 A 0 2 0 8:32 A 0 8:48 A 0"));

    QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:32")));
    QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:48")));
    QVERIFY(m_dm->simulateIo(mapName));
    const auto status = parseMultipathStatus(statusParams(*m_dm));
    QVERIFY(status.ok());
    QCOMPARE(status->activeGroup(), 0);
    QCOMPARE(status->queueIo(), 0);
}

void TestFakeDeviceMapper::disableAndEnableGroup()
{
    QVERIFY(m_dm->message(mapName, QStringLiteral("disable_group 2")));
    QCOMPARE(statusParams(*m_dm), QStringLiteral("2 0 0 0 2 1 E 0 2 0 8:0 A 0 8:16 A 0 D 0 2 0 8:32 A 0 8:48 A 0"));
    QVERIFY(m_dm->message(mapName, QStringLiteral("enable_group 2")));
    QCOMPARE(statusParams(*m_dm), QStringLiteral("2 0 0 0 2 1 E 0 2 0 8:0 A 0 8:16 A 0 E 0 2 0 8:32 A 0 8:48 A 0"));
    QCOMPARE(eventNr(*m_dm), 2u);

    // A disabled group is only used when no enabled group has a path.
    QVERIFY(m_dm->message(mapName, QStringLiteral("disable_group 1")));
    QVERIFY(m_dm->simulateIo(mapName));
    QCOMPARE(parseMultipathStatus(statusParams(*m_dm))->activeGroup(), 2);
}

void TestFakeDeviceMapper::queueIfNoPath()
{
    QVERIFY(m_dm->message(mapName, queueIfNoPathMessage()));
    QCOMPARE(tableParams(*m_dm),
        QStringLiteral("1 queue_if_no_path 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1"));
    QVERIFY(parseMultipathTable(tableParams(*m_dm))->queueIfNoPath());
    QVERIFY(m_dm->message(mapName, queueIfNoPathMessage())); // idempotent
    QCOMPARE(tableParams(*m_dm).left(20), QStringLiteral("1 queue_if_no_path 0"));
    QVERIFY(m_dm->message(mapName, failIfNoPathMessage()));
    QCOMPARE(tableParams(*m_dm), labTable.section(QLatin1Char(' '), 3));
    QCOMPARE(eventNr(*m_dm), 0u);
}

void TestFakeDeviceMapper::rejectedMessages_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown message") << "reset"
                                     << "unknown multipath message";
    QTest::newRow("path not in the map") << "fail_path 8:99"
                                         << "no path 8:99";
    QTest::newRow("group out of range") << "switch_group 3"
                                        << "invalid group number 3 (the map has 2)";
    QTest::newRow("missing argument") << "disable_group"
                                      << "takes 2 word(s)";
}

void TestFakeDeviceMapper::rejectedMessages()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    const Status status = m_dm->message(mapName, text);
    QVERIFY(!status);
    QVERIFY2(status.errorMessage().contains(error), qPrintable(status.errorMessage()));
    QCOMPARE(statusParams(*m_dm), labStatus.section(QLatin1Char(' '), 3));
    QCOMPARE(eventNr(*m_dm), 0u);
    QVERIFY(m_dm->receivedMessages(mapName).isEmpty());
}

void TestFakeDeviceMapper::suspendedMapRefusesMessages()
{
    m_dm->setSuspended(mapName, true);
    QVERIFY(m_dm->info(mapName)->suspended);
    QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:0")).errorMessage().contains(QStringLiteral("busy")));
    QVERIFY(!m_dm->reload(mapName, m_dm->table(mapName).value()));
    m_dm->setSuspended(mapName, false);
    QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:0")));
    QVERIFY(m_dm->addMap(QStringLiteral("lin0"), QStringLiteral("0 2048 linear 8:0 0")));
    QVERIFY(m_dm->message(QStringLiteral("lin0"), QStringLiteral("fail_path 8:0"))
                .errorMessage()
                .contains(QStringLiteral("multipath")));
}

void TestFakeDeviceMapper::reload()
{
    // The selftest's reload to one service-time group with queue_if_no_path.
    const auto line = parseTargetLine(
        u"0 131072 multipath 1 queue_if_no_path 0 1 1 service-time 0 4 2 8:0 1 1 8:16 1 1 8:32 1 1 8:48 1 1");
    QVERIFY(line.ok());
    const Status reloaded = m_dm->reload(mapName, { line.value() });
    QVERIFY2(reloaded, qPrintable(reloaded.errorMessage()));
    QCOMPARE(m_dm->table(mapName).value(), QList<DmTargetLine> { line.value() });
    QCOMPARE(
        statusParams(*m_dm), QStringLiteral("2 1 0 0 1 1 E 0 4 2 8:0 A 0 0 1 8:16 A 0 0 1 8:32 A 0 0 1 8:48 A 0 0 1"));
    QCOMPARE(eventNr(*m_dm), 1u);
    QVERIFY(!m_dm->info(mapName)->suspended);
}

void TestFakeDeviceMapper::reloadFailureKeepsOldTable()
{
    const QList<DmTargetLine> before = m_dm->table(mapName).value();
    const auto bad = parseTargetLine(u"0 131072 multipath 0 0 1 1 round-robin 0 2 1 8:0 1");
    QVERIFY(bad.ok());
    const Status rejected = m_dm->reload(mapName, { bad.value() });
    QVERIFY(!rejected);
    QVERIFY2(rejected.errorMessage().contains(QStringLiteral("the old table stays live")),
        qPrintable(rejected.errorMessage()));
    QCOMPARE(m_dm->table(mapName).value(), before);
    QVERIFY(!m_dm->reload(mapName, {}));

    m_dm->failNextLoad(mapName, QStringLiteral("Device or resource busy"));
    const auto good = parseTargetLine(u"0 131072 multipath 0 0 1 1 queue-length 0 4 1 8:0 1 8:16 1 8:32 1 8:48 1");
    const Status busy = m_dm->reload(mapName, { good.value() });
    QVERIFY(busy.errorMessage().contains(QStringLiteral("Device or resource busy")));
    QCOMPARE(m_dm->table(mapName).value(), before);
    QCOMPARE(statusParams(*m_dm), labStatus.section(QLatin1Char(' '), 3));
    QVERIFY(!m_dm->info(mapName)->suspended);
    QVERIFY(m_dm->reload(mapName, { good.value() }));
    QCOMPARE(m_dm->table(mapName)->first(), good.value());
}

void TestFakeDeviceMapper::freshMapStatus()
{
    QVERIFY(m_dm->addMap(QStringLiteral("skd_mpath"),
        QStringLiteral("0 1563037696 multipath 0 0 1 1 service-time 0 1 2 /dev/skd0 1000 1")));
    QCOMPARE(statusParams(*m_dm, QStringLiteral("skd_mpath")), QStringLiteral("2 1 0 0 1 1 E 0 1 2 /dev/skd0 A 0 0 1"));
    QVERIFY(m_dm->simulateIo(QStringLiteral("skd_mpath")));
    QCOMPARE(statusParams(*m_dm, QStringLiteral("skd_mpath")), QStringLiteral("2 0 0 0 1 1 A 0 1 2 /dev/skd0 A 0 0 1"));
    QVERIFY(!m_dm->addMap(QStringLiteral("broken"), QStringLiteral("0 1024 multipath 0 0 1 1")));
}

void TestFakeDeviceMapper::waitEvent()
{
    // A changed counter returns at once.
    QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:0")));
    QCOMPARE(m_dm->waitEvent(mapName, 0).value(), 1u);

    // A worker blocks until the next event.
    auto waiter = std::async(std::launch::async, [this] { return m_dm->waitEvent(mapName, 1); });
    QCOMPARE(waiter.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
    QVERIFY(m_dm->message(mapName, QStringLiteral("switch_group 2")));
    const auto woken = waiter.get();
    QVERIFY2(woken.ok(), qPrintable(woken.errorMessage()));
    QCOMPARE(woken.value(), 2u);

    // Removing the map wakes its waiters with an error.
    auto orphan = std::async(std::launch::async, [this] { return m_dm->waitEvent(mapName, 2); });
    QCOMPARE(orphan.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
    m_dm->removeMap(mapName);
    QVERIFY(!orphan.get().ok());

    m_dm->setWaitTimeout(20);
    QVERIFY(m_dm->addMap(mapName, labTable));
    QVERIFY(m_dm->waitEvent(mapName, 0).errorMessage().contains(QStringLiteral("timeout")));
}

// The message sequence of lab/guest/selftest.sh as Debian's 6.1 kernel answered it in the lab VM
// (2026-11-30); the fake must give the same status after each step.
void TestFakeDeviceMapper::replaysKernelSequence()
{
    struct Step {
        const char *action; // a message, "io" (a read through the map) or "kernel-fail DEV"
        const char *status; // what `dmsetup status` printed after it
    };
    const Step steps[] = {
        { "fail_path 8:16", "2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 F 1 E 0 2 0 8:32 A 0 8:48 A 0" },
        { "fail_path 8:0", "2 0 0 0 2 1 A 0 2 0 8:0 F 1 8:16 F 1 E 0 2 0 8:32 A 0 8:48 A 0" },
        { "io", "2 0 0 0 2 2 E 0 2 0 8:0 F 1 8:16 F 1 A 0 2 0 8:32 A 0 8:48 A 0" },
        // The read went to 8:48 too, scsi_debug's standby ALUA port: the kernel failed it.
        { "kernel-fail 8:48", "2 0 0 0 2 2 E 0 2 0 8:0 F 1 8:16 F 1 A 0 2 0 8:32 A 0 8:48 F 1" },
        { "reinstate_path 8:0", "2 0 0 0 2 2 E 0 2 0 8:0 A 1 8:16 F 1 A 0 2 0 8:32 A 0 8:48 F 1" },
        { "reinstate_path 8:16", "2 0 0 0 2 2 E 0 2 0 8:0 A 1 8:16 A 1 A 0 2 0 8:32 A 0 8:48 F 1" },
        { "switch_group 2", "2 0 0 0 2 2 E 0 2 0 8:0 A 1 8:16 A 1 E 0 2 0 8:32 A 0 8:48 F 1" },
        { "io", "2 0 0 0 2 2 E 0 2 0 8:0 A 1 8:16 A 1 A 0 2 0 8:32 A 0 8:48 F 1" },
        { "disable_group 1", "2 0 0 0 2 1 D 0 2 0 8:0 A 1 8:16 A 1 E 0 2 0 8:32 A 0 8:48 F 1" },
        { "enable_group 1", "2 0 0 0 2 1 E 0 2 0 8:0 A 1 8:16 A 1 E 0 2 0 8:32 A 0 8:48 F 1" },
        { "queue_if_no_path", "2 0 0 0 2 1 E 0 2 0 8:0 A 1 8:16 A 1 E 0 2 0 8:32 A 0 8:48 F 1" },
        { "fail_if_no_path", "2 0 0 0 2 1 E 0 2 0 8:0 A 1 8:16 A 1 E 0 2 0 8:32 A 0 8:48 F 1" },
    };
    for (const Step &step : steps) {
        const QString action = QString::fromLatin1(step.action);
        if (action == QLatin1String("io"))
            QVERIFY(m_dm->simulateIo(mapName));
        else if (action.startsWith(QLatin1String("kernel-fail ")))
            QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path ") + action.section(QLatin1Char(' '), 1)));
        else
            QVERIFY2(m_dm->message(mapName, action), step.action);
        QCOMPARE(statusParams(*m_dm), QString::fromLatin1(step.status));
    }
}

QTEST_GUILESS_MAIN(TestFakeDeviceMapper)
#include "tst_fakedevicemapper.moc"
