// The control logic over FakeDeviceMapper: which way each operation goes (multipathd or a dm
// message), what the kernel state is afterwards, errors, risks as warnings, safe reloads,
// MultipathControl's queued hand-back and DmEventWatcher's events.
#include "core/dm/backend/dmeventwatcher.h"
#include "core/dm/multipathchange.h"
#include "core/dm/multipathd/multipathdclient.h"
#include "core/dm/pathdevice.h"
#include "tests/common/fakedevicemapper.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathcontrol.h"
#include "tests/common/multipathfixture.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace dmtune;

namespace {
// tests/common's multipath fixture: mpatha over sda..sdd in two groups, in the fake and in the tree.
const QString mapName = test::fixtureMap;
const QString labTable = test::fixtureTableLine();
const QString labStatus = test::fixtureStatusLine();

// Stands in for multipathd: answers like multipath-tools 0.9.4 and changes the kernel (the fake)
// the way its handlers do.
struct FakeDaemon {
    DeviceMapper *dm = nullptr;
    QStringList managed { mapName };
    QHash<QString, QString> devnums { { QStringLiteral("sda"), QStringLiteral("8:0") },
        { QStringLiteral("sdb"), QStringLiteral("8:16") }, { QStringLiteral("sdc"), QStringLiteral("8:32") },
        { QStringLiteral("sdd"), QStringLiteral("8:48") } };
    bool noPathRetryFail = false; // restorequeueing then leaves queueing off
    QStringList commands;

    Result<QString> operator()(const QString &command)
    {
        commands.append(command);
        const QStringList w = command.split(QLatin1Char(' '));
        QString message;
        QString map = mapName;
        if (command == QLatin1String("show maps raw format \"%n\""))
            return managed.join(QLatin1Char('\n')) + QLatin1Char('\n');
        if (w.size() == 3 && w.at(1) == QLatin1String("path") && devnums.contains(w.at(2)))
            message
                = (w.at(0) == QLatin1String("fail") ? QStringLiteral("fail_path ") : QStringLiteral("reinstate_path "))
                + devnums.value(w.at(2));
        else if (w.size() == 5 && w.at(0) == QLatin1String("switchgroup"))
            map = w.at(2), message = QStringLiteral("switch_group ") + w.at(4);
        else if (w.size() == 3 && w.at(0) == QLatin1String("disablequeueing"))
            map = w.at(2), message = QStringLiteral("fail_if_no_path");
        else if (w.size() == 3 && w.at(0) == QLatin1String("restorequeueing"))
            map = w.at(2), message = noPathRetryFail ? QString() : QStringLiteral("queue_if_no_path");
        else
            return parseMultipathdReply(command, QStringLiteral("fail\n"));
        if (!managed.contains(map) || (!message.isEmpty() && !dm->message(map, message)))
            return parseMultipathdReply(command, QStringLiteral("fail\n"));
        return QStringLiteral("ok\n");
    }
};

QString statusParams(DeviceMapper &dm)
{
    const auto lines = dm.status(mapName);
    return lines && lines->size() == 1 ? lines->first().params : QString();
}

QString tableParams(DeviceMapper &dm)
{
    const auto lines = dm.table(mapName);
    return lines && lines->size() == 1 ? lines->first().params : QString();
}

MultipathTable table(const QString &params)
{
    return parseMultipathTable(params).value();
}
} // namespace

Q_DECLARE_METATYPE(dmtune::MultipathMessageKind)
Q_DECLARE_METATYPE(dmtune::MultipathMessage)

class TestMultipathControl : public QObject {
    Q_OBJECT

    std::unique_ptr<FakeDeviceMapper> m_dm;
    std::unique_ptr<test::FakeSysfs> m_sysfs;
    FakeDaemon m_daemon;

    SysfsRoot sysfs() const { return SysfsRoot(m_sysfs->root(), QString()); }
    MultipathdCommand daemon()
    {
        return [this](const QString &c) { return m_daemon(c); };
    }

private Q_SLOTS:
    void init()
    {
        m_dm = std::make_unique<FakeDeviceMapper>();
        QVERIFY(test::addFixtureMap(*m_dm));
        m_sysfs = std::make_unique<test::FakeSysfs>();
        test::buildMultipathFixture(*m_sysfs);
        m_daemon = FakeDaemon();
        m_daemon.dm = m_dm.get();
    }

    void resolvePaths_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("devnum"); // empty: an error
        QTest::addColumn<QString>("name");
        QTest::newRow("devnum") << QStringLiteral("8:16") << QStringLiteral("8:16") << QStringLiteral("sdb");
        QTest::newRow("padded devnum") << QStringLiteral("008:016") << QStringLiteral("8:16") << QStringLiteral("sdb");
        QTest::newRow("name") << QStringLiteral("sdc") << QStringLiteral("8:32") << QStringLiteral("sdc");
        QTest::newRow("/dev path") << QStringLiteral("/dev/sdd") << QStringLiteral("8:48") << QStringLiteral("sdd");
        QTest::newRow("gone devnum") << QStringLiteral("8:64") << QStringLiteral("8:64") << QString();
        QTest::newRow("unknown name") << QStringLiteral("sdz") << QString() << QString();
        QTest::newRow("traversal") << QStringLiteral("../sda") << QString() << QString();
        QTest::newRow("by-id on a captured tree") << QStringLiteral("/dev/disk/by-id/x") << QString() << QString();
    }

    void resolvePaths()
    {
        QFETCH(QString, spec);
        QFETCH(QString, devnum);
        QFETCH(QString, name);
        const auto resolved = resolvePathDevice(sysfs(), spec);
        QCOMPARE(resolved.ok(), !devnum.isEmpty());
        if (resolved)
            QCOMPARE(resolved.value(), (PathDevice { devnum, name }));
    }

    void operations_data()
    {
        QTest::addColumn<MultipathMessageKind>("kind");
        QTest::addColumn<QString>("device");
        QTest::addColumn<int>("group");
        QTest::addColumn<bool>("withDaemon");
        QTest::addColumn<QString>("via");
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("status"); // expected status params afterwards (table for queueing)
        QTest::addColumn<int>("warnings");

        const QString failed16 = QStringLiteral("2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 F 1 E 0 2 0 8:32 A 0 8:48 A 0");
        const QString switched = QStringLiteral("2 0 0 0 2 2 E 0 2 0 8:0 A 0 8:16 A 0 E 0 2 0 8:32 A 0 8:48 A 0");
        const QString disabled2 = QStringLiteral("2 0 0 0 2 1 E 0 2 0 8:0 A 0 8:16 A 0 D 0 2 0 8:32 A 0 8:48 A 0");
        const QString queueing
            = QStringLiteral("1 queue_if_no_path 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1");
        using K = MultipathMessageKind;
        for (const bool d : { false, true }) {
            const QString suffix = d ? QStringLiteral(", multipathd") : QStringLiteral(", dm");
            const QString via = d ? QStringLiteral("multipathd") : QStringLiteral("device-mapper");
            QTest::newRow(qPrintable(QStringLiteral("fail by name") + suffix))
                << K::FailPath << QStringLiteral("sdb") << 0 << d << via
                << (d ? QStringLiteral("fail path sdb") : QStringLiteral("fail_path 8:16")) << failed16 << 0;
            QTest::newRow(qPrintable(QStringLiteral("fail by devnum") + suffix))
                << K::FailPath << QStringLiteral("8:16") << 0 << d << via
                << (d ? QStringLiteral("fail path sdb") : QStringLiteral("fail_path 8:16")) << failed16 << 0;
            QTest::newRow(qPrintable(QStringLiteral("switch") + suffix))
                << K::SwitchGroup << QString() << 2 << d << via
                << (d ? QStringLiteral("switchgroup map mpatha group 2") : QStringLiteral("switch_group 2")) << switched
                << 0;
            // multipathd has no enable/disable: a dm message plus a warning saying so
            QTest::newRow(qPrintable(QStringLiteral("disable other group") + suffix))
                << K::DisableGroup << QString() << 2 << d << QStringLiteral("device-mapper")
                << QStringLiteral("disable_group 2") << disabled2 << (d ? 1 : 0);
            QTest::newRow(qPrintable(QStringLiteral("queueing on") + suffix))
                << K::QueueIfNoPath << QString() << 0 << d << via
                << (d ? QStringLiteral("restorequeueing map mpatha") : QStringLiteral("queue_if_no_path")) << queueing
                << 0;
        }
        // risky: disabling the active group goes ahead (the GUI asked), the risk is a warning
        QTest::newRow("disable active group")
            << K::DisableGroup << QString() << 1 << false << QStringLiteral("device-mapper")
            << QStringLiteral("disable_group 1")
            << QStringLiteral("2 0 0 0 2 1 D 0 2 0 8:0 A 0 8:16 A 0 E 0 2 0 8:32 A 0 8:48 A 0") << 1;
    }

    void operations()
    {
        QFETCH(MultipathMessageKind, kind);
        QFETCH(QString, device);
        QFETCH(int, group);
        QFETCH(bool, withDaemon);
        QFETCH(QString, via);
        QFETCH(QString, command);
        QFETCH(QString, status);
        QFETCH(int, warnings);
        const MultipathOperationResult r = runMultipathOperation(
            *m_dm, sysfs(), mapName, { kind, device, group }, withDaemon ? daemon() : MultipathdCommand());
        QVERIFY2(r.status.ok(), qPrintable(r.status.errorMessage()));
        QCOMPARE(r.map, mapName);
        QCOMPARE(r.via, via);
        QCOMPARE(r.command, command);
        QCOMPARE(r.warnings.size(), warnings);
        if (kind == MultipathMessageKind::QueueIfNoPath)
            QCOMPARE(tableParams(*m_dm), status);
        else
            QCOMPARE(statusParams(*m_dm), status);
        if (withDaemon && via == QLatin1String("multipathd"))
            QCOMPARE(m_daemon.commands, (QStringList { QStringLiteral("show maps raw format \"%n\""), command }));
    }

    void unmanagedMapGoesToDeviceMapper()
    {
        m_daemon.managed = { QStringLiteral("mpathb") };
        const auto r = runMultipathOperation(
            *m_dm, sysfs(), mapName, { MultipathMessageKind::FailPath, QStringLiteral("sdb"), 0 }, daemon());
        QVERIFY(r.status.ok());
        QCOMPARE(r.via, QStringLiteral("device-mapper"));
        QCOMPARE(r.warnings.size(), 1);
        QVERIFY(r.warnings.first().contains(QStringLiteral("does not manage mpatha")));
        QCOMPARE(m_dm->receivedMessages(mapName), QStringList { QStringLiteral("fail_path 8:16") });
    }

    void multipathdRefuses()
    {
        m_daemon.devnums.remove(QStringLiteral("sdb")); // multipathd does not know the path: "fail"
        const auto r = runMultipathOperation(
            *m_dm, sysfs(), mapName, { MultipathMessageKind::FailPath, QStringLiteral("sdb"), 0 }, daemon());
        QVERIFY(!r.status.ok());
        QCOMPARE(r.via, QStringLiteral("multipathd"));
        QVERIFY2(r.status.errorMessage().contains(QStringLiteral("\"fail path sdb\" failed")),
            qPrintable(r.status.errorMessage()));
        QVERIFY(m_dm->receivedMessages(mapName).isEmpty());
    }

    void restoreQueueingRefusedByConfig()
    {
        m_daemon.noPathRetryFail = true;
        const auto r
            = runMultipathOperation(*m_dm, sysfs(), mapName, { MultipathMessageKind::QueueIfNoPath, {}, 0 }, daemon());
        QVERIFY(r.status.ok());
        QCOMPARE(r.via, QStringLiteral("device-mapper"));
        QCOMPARE(r.warnings.size(), 1);
        QVERIFY(r.warnings.first().contains(QStringLiteral("restorequeueing left queueing off")));
        QVERIFY(table(tableParams(*m_dm)).queueIfNoPath());
    }

    void refusals_data()
    {
        QTest::addColumn<MultipathMessage>("message");
        QTest::addColumn<QString>("map");
        QTest::addColumn<QString>("error");
        QTest::newRow("path of another map")
            << MultipathMessage { MultipathMessageKind::FailPath, QStringLiteral("8:64"), 0 } << mapName
            << QStringLiteral("8:64 is not a path of this map (its paths: 8:0 8:16 8:32 8:48)");
        QTest::newRow("unknown device") << MultipathMessage { MultipathMessageKind::FailPath, QStringLiteral("sdz"), 0 }
                                        << mapName << QStringLiteral("sdz: no such block device");
        QTest::newRow("group 3 of 2") << MultipathMessage { MultipathMessageKind::SwitchGroup, {}, 3 } << mapName
                                      << QStringLiteral("group 3 out of range 1-2");
        QTest::newRow("no such map") << MultipathMessage { MultipathMessageKind::SwitchGroup, {}, 1 }
                                     << QStringLiteral("mpathz") << QStringLiteral("mpathz: no such map");
    }

    void refusals()
    {
        QFETCH(MultipathMessage, message);
        QFETCH(QString, map);
        QFETCH(QString, error);
        const auto r = runMultipathOperation(*m_dm, sysfs(), map, message, daemon());
        QVERIFY(!r.status.ok());
        QVERIFY2(r.status.errorMessage().contains(error), qPrintable(r.status.errorMessage()));
        QVERIFY(m_daemon.commands.isEmpty());
        QVERIFY(m_dm->receivedMessages(mapName).isEmpty());
    }

    void prepareComputesRisks()
    {
        QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:0")));
        const auto prepared = prepareMultipathOperation(
            *m_dm, sysfs(), mapName, { MultipathMessageKind::FailPath, QStringLiteral("/dev/sdb"), 0 });
        QVERIFY2(prepared, qPrintable(prepared.errorMessage()));
        QCOMPARE(prepared->message.device, QStringLiteral("8:16"));
        QCOMPARE(prepared->pathName, QStringLiteral("sdb"));
        QCOMPARE(prepared->risks.size(), 1);
        QVERIFY(prepared->risks.first().contains(QStringLiteral("leaves group 1 without an active path")));
    }

    void reload()
    {
        const MultipathTable st
            = table(QStringLiteral("0 0 2 1 service-time 0 2 2 8:0 1 1 8:16 1 1 service-time 0 2 2 8:32 1 1 8:48 1 1"));
        const auto prepared = prepareMultipathReload(*m_dm, mapName, st);
        QVERIFY2(prepared, qPrintable(prepared.errorMessage()));
        QCOMPARE(formatTargetLine(prepared->line), QStringLiteral("0 2097152 multipath ") + formatMultipathTable(st));
        QVERIFY(prepared->diff.contains(QStringLiteral("group 1: selector round-robin 0 -> service-time 0")));
        QVERIFY(prepared->risks.isEmpty());
        const auto r = executeMultipathReload(*m_dm, prepared.value(), true);
        QVERIFY2(r.status.ok(), qPrintable(r.status.errorMessage()));
        QCOMPARE(r.operation, QStringLiteral("reload"));
        QCOMPARE(r.via, QStringLiteral("device-mapper"));
        QCOMPARE(r.warnings.size(), 1); // multipathd may reload the map from multipath.conf
        QVERIFY(r.warnings.first().contains(QStringLiteral("multipath.conf")));
        QCOMPARE(table(tableParams(*m_dm)), st);
    }

    // A path of another LUN added by a reload: a risk that names both LUNs, from the
    // same code the GUI's worker and dmtunectl run; the map's own paths regrouped are not.
    void reloadOfAnotherLunIsARisk()
    {
        m_sysfs->scsiDisk(QStringLiteral("sde"), QStringLiteral("8:64"), QStringLiteral("4:0:0:1"),
            QStringLiteral("LIO-ORG"), QStringLiteral("disk1"), QStringLiteral("naa.6001405bbbbbbbbb"));
        const MultipathTable foreign = table(QStringLiteral("0 0 1 1 round-robin 0 2 1 8:0 1 8:64 1"));
        MultipathControl control(m_dm.get());
        control.setSysfsRoot(sysfs());
        control.setMultipathdProvider([] { return MultipathdCommand(); });
        QSignalSpy spy(&control, &MultipathControl::finished);
        control.reload(mapName, foreign);
        QVERIFY(spy.wait(5000));
        const auto r = spy.first().first().value<MultipathOperationResult>();
        QVERIFY2(r.status.ok(),
            qPrintable(r.status.errorMessage())); // the caller asked first; the risk comes back as a warning
        const QString warnings = r.warnings.join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("sde (8:64) is LUN naa.6001405bbbbbbbbb, not LUN "
                                                  "naa.6001405aaaaaaaaa of mpatha")),
            qPrintable(warnings));

        const auto prepared = prepareMultipathReload(*m_dm, mapName, table(parseTargetLine(labTable)->params), sysfs());
        QVERIFY2(prepared, qPrintable(prepared.errorMessage()));
        QVERIFY2(prepared->risks.isEmpty(), qPrintable(prepared->risks.join(QLatin1Char('\n')))); // back: own paths
        const auto regroup = prepareMultipathReload(
            *m_dm, mapName, table(QStringLiteral("0 0 1 1 round-robin 0 4 1 8:0 1 8:16 1 8:32 1 8:48 1")), sysfs());
        QVERIFY2(regroup && regroup->risks.isEmpty(), qPrintable(regroup->risks.join(QLatin1Char('\n'))));
    }

    void reloadFailureKeepsTheOldTable()
    {
        m_dm->failNextLoad(mapName, QStringLiteral("Invalid argument"));
        const auto r
            = runMultipathReload(*m_dm, mapName, table(QStringLiteral("0 0 1 1 round-robin 0 1 1 8:0 1")), false);
        QVERIFY(!r.status.ok());
        QVERIFY2(r.status.errorMessage().contains(QStringLiteral("the old table stays live")),
            qPrintable(r.status.errorMessage()));
        QCOMPARE(tableParams(*m_dm), parseTargetLine(labTable)->params);
        QVERIFY(!m_dm->info(mapName)->suspended);
    }

    void reloadRejectsAnInvalidTable()
    {
        MultipathTable bad = table(QStringLiteral("0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1"));
        bad.groups.first().paths.last().args.clear(); // fewer args than perPathArgCount
        const auto r = runMultipathReload(*m_dm, mapName, bad, false);
        QVERIFY(!r.status.ok());
        QVERIFY2(
            r.status.errorMessage().contains(QStringLiteral("invalid table")), qPrintable(r.status.errorMessage()));
    }

    void controlHandsBackInOrder()
    {
        MultipathControl control(m_dm.get());
        control.setSysfsRoot(sysfs());
        control.setMultipathdProvider([] { return MultipathdCommand(); });
        QVERIFY(!control.multipathdRunning());
        QSignalSpy spy(&control, &MultipathControl::finished);
        control.failPath(mapName, QStringLiteral("sdb"));
        control.reinstatePath(mapName, QStringLiteral("sdb"));
        control.switchGroup(mapName, 2);
        control.setQueueIfNoPath(mapName, true);
        control.reload(
            mapName, table(QStringLiteral("1 queue_if_no_path 0 1 1 round-robin 0 4 1 8:0 1 8:16 1 8:32 1 8:48 1")));
        control.failPath(mapName, QStringLiteral("sdz"));
        QVERIFY(spy.isEmpty()); // queued: nothing arrives before the event loop runs
        QTRY_COMPARE(spy.size(), 6);
        const QStringList expected { QStringLiteral("fail_path 8:16"), QStringLiteral("reinstate_path 8:16"),
            QStringLiteral("switch_group 2"), QStringLiteral("queue_if_no_path"), QStringLiteral("reload"),
            QStringLiteral("fail_path sdz") };
        for (int i = 0; i < 6; ++i) {
            const auto r = spy.at(i).first().value<MultipathOperationResult>();
            QCOMPARE(r.operation, expected.at(i));
            QCOMPARE(r.status.ok(), i < 5);
        }
        QCOMPARE(m_dm->receivedMessages(mapName), expected.mid(0, 4));
    }

    // Both ways the watcher waits: one job for all maps where the kernel (the fake) has DM_DEV_ARM_POLL, one
    // DM_DEVICE_WAITEVENT job per map where it has not.
    void watcherReportsEventsAtOnce_data() { watcherModes(); }
    void watcherReportsEventsAtOnce()
    {
        QFETCH(bool, armPoll);
        QFETCH(DmEventWatcher::Mode, mode);
        m_dm->setEventPollSupported(armPoll);
        m_dm->setWaitTimeout(2000); // the fake's wait ignores signals: let it wake to see `stop`
        FakeDeviceMapper *fake = m_dm.get();
        auto watcher
            = std::make_unique<DmEventWatcher>([fake] { return std::make_unique<FakeDeviceMapperHandle>(fake); });
        QSignalSpy started(watcher.get(), &DmEventWatcher::watchStarted);
        QSignalSpy events(watcher.get(), &DmEventWatcher::mapEvent);
        QSignalSpy stopped(watcher.get(), &DmEventWatcher::watchStopped);
        watcher->watch({ mapName });
        QCOMPARE(watcher->watchedMaps(), QStringList { mapName });
        QTRY_COMPARE(started.size(), 1); // the first event number read; events after it are reported
        QCOMPARE(watcher->mode(), mode);
        QCOMPARE(started.first().at(1).toUInt(), m_dm->info(mapName)->eventNr);
        QElapsedTimer clock;
        qint64 deliveredAfter = -1;
        connect(watcher.get(), &DmEventWatcher::mapEvent, this, [&] { deliveredAfter = clock.elapsed(); });
        clock.start();
        QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:16")));
        QTRY_COMPARE_WITH_TIMEOUT(events.size(), 1, 5000);
        // Woken by the event, not by the next timeout of the fake's wait (2 s): a margin no load reaches.
        QVERIFY2(deliveredAfter >= 0 && deliveredAfter < 1500, qPrintable(QString::number(deliveredAfter)));
        QCOMPARE(events.first().at(0).toString(), mapName);
        QCOMPARE(events.first().at(1).toUInt(), m_dm->info(mapName)->eventNr);

        m_dm->removeMap(mapName);
        QTRY_COMPARE(stopped.size(), 1);
        QVERIFY(stopped.first().at(1).toString().contains(QStringLiteral("went away")));
        watcher.reset(); // returns: the job saw `stop` at its next wake-up
    }

    void watcherStopsCleanly_data() { watcherModes(); }
    void watcherStopsCleanly()
    {
        QFETCH(bool, armPoll);
        m_dm->setEventPollSupported(armPoll);
        m_dm->setWaitTimeout(100);
        FakeDeviceMapper *fake = m_dm.get();
        QVERIFY(m_dm->addMap(QStringLiteral("mpathb"), labTable));
        DmEventWatcher watcher([fake] { return std::make_unique<FakeDeviceMapperHandle>(fake); });
        QSignalSpy started(&watcher, &DmEventWatcher::watchStarted);
        watcher.watch({ mapName, QStringLiteral("mpathb") });
        QTRY_COMPARE(started.size(), 2);
        watcher.watch({ QStringLiteral("mpathb") });
        QCOMPARE(watcher.watchedMaps(), QStringList { QStringLiteral("mpathb") });
        QSignalSpy events(&watcher, &DmEventWatcher::mapEvent);
        QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:16"))); // no longer watched
        QVERIFY(m_dm->message(QStringLiteral("mpathb"), QStringLiteral("fail_path 8:0")));
        QTRY_COMPARE(events.size(), 1);
        QCOMPARE(events.first().at(0).toString(), QStringLiteral("mpathb"));
        QTest::qWait(50); // deliberately time-based: gives a stray event for the unwatched map time to (not) come
        QCOMPARE(events.size(), 1);
    }

    // ArmPoll: one job (one thread) for every map; the fallback needs one per map. Neither reads device-mapper on
    // the caller's (UI) thread: watch() only hands the set over.
    void watcherJobsOffTheCallerThread_data() { watcherModes(); }
    void watcherJobsOffTheCallerThread()
    {
        QFETCH(bool, armPoll);
        QFETCH(DmEventWatcher::Mode, mode);
        m_dm->setEventPollSupported(armPoll);
        m_dm->setWaitTimeout(100);
        QStringList maps;
        for (int i = 0; i < 10; ++i) {
            maps.append(QStringLiteral("mpath%1").arg(QChar(char16_t(u'c' + i))));
            QVERIFY(m_dm->addMap(maps.last(), labTable));
        }
        FakeDeviceMapper *fake = m_dm.get();
        QThread *const caller = QThread::currentThread();
        std::atomic<int> callsOnCaller { 0 };
        // Records the thread of every call into device-mapper, the factory's included.
        struct Recording final : DeviceMapper {
            FakeDeviceMapperHandle fake;
            QThread *caller;
            std::atomic<int> *onCaller;
            Recording(FakeDeviceMapper *f, QThread *c, std::atomic<int> *n)
                : fake(f)
                , caller(c)
                , onCaller(n)
            {
            }
            void note() const
            {
                if (QThread::currentThread() == caller)
                    ++*onCaller;
            }
            Result<QList<DmMapName>> listMaps() override { return note(), fake.listMaps(); }
            Result<DmInfo> info(const QString &n) override { return note(), fake.info(n); }
            Result<QList<DmTargetLine>> table(const QString &n) override { return note(), fake.table(n); }
            Result<QList<DmTargetLine>> status(const QString &n) override { return note(), fake.status(n); }
            Status message(const QString &n, const QString &t) override { return note(), fake.message(n, t); }
            Status reload(const QString &n, const QList<DmTargetLine> &t) override { return note(), fake.reload(n, t); }
            Result<quint32> waitEvent(const QString &n, quint32 e) override { return note(), fake.waitEvent(n, e); }
            Result<std::shared_ptr<DmEventPoll>> openEventPoll() override { return note(), fake.openEventPoll(); }
        };
        DmEventWatcher watcher([=, &callsOnCaller]() -> std::unique_ptr<DeviceMapper> {
            if (QThread::currentThread() == caller)
                ++callsOnCaller;
            return std::make_unique<Recording>(fake, caller, &callsOnCaller);
        });
        QSignalSpy started(&watcher, &DmEventWatcher::watchStarted);
        QSignalSpy events(&watcher, &DmEventWatcher::mapEvent);
        watcher.watch(maps);
        QTRY_COMPARE(started.size(), maps.size());
        QCOMPARE(watcher.mode(), mode);
        QCOMPARE(watcher.jobs().jobs().size(), armPoll ? 1 : int(maps.size()));
        QVERIFY(m_dm->message(maps.last(), QStringLiteral("fail_path 8:16")));
        QTRY_COMPARE(events.size(), 1);
        QCOMPARE(events.first().at(0).toString(), maps.last());
        QCOMPARE(callsOnCaller.load(), 0);
    }

private:
    static void watcherModes()
    {
        QTest::addColumn<bool>("armPoll");
        QTest::addColumn<DmEventWatcher::Mode>("mode");
        QTest::newRow("DM_DEV_ARM_POLL") << true << DmEventWatcher::Mode::ArmPoll;
        QTest::newRow("DM_DEVICE_WAITEVENT per map") << false << DmEventWatcher::Mode::WaitPerMap;
    }
};

QTEST_GUILESS_MAIN(TestMultipathControl)
#include "tst_multipathcontrol.moc"
