// Changes to a charted device by others, on a loop device made here (root): the charted values
// read again by ExternalChangeWatcher, and who made each change told from the host's change log:
//   * `dmtunectl set` in another process: its line in the log, the marker "(dmtunectl, pid N)";
//   * a write straight into sysfs: "(changed outside dmtune)";
//   * this process's own transaction (as the GUI's in-process applier writes): logged, and no marker.
#include "core/params/changelog.h"
#include "core/params/externalchanges.h"
#include "core/params/transaction.h"
#include "tests/live/scratchloop.h"
#include "tests/live/workloads/livesupport.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace dmtune;
using namespace dmtune::live;
using namespace Qt::StringLiterals;

class TestLiveExternalChanges : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    SysfsRoot m_sys;

    QString nomerges(const ScratchLoop &loop) const
    {
        return m_sys.readOr(u"block/%1/queue/nomerges"_s.arg(loop.name())).trimmed();
    }
    // One read taken in; the markers it gave.
    static QStringList readOnce(ExternalChangeWatcher &watcher)
    {
        QSignalSpy done(&watcher, &ExternalChangeWatcher::readDone);
        QSignalSpy changed(&watcher, &ExternalChangeWatcher::changed);
        watcher.readNow();
        if (!done.wait(15000))
            return { u"no read"_s };
        QStringList labels;
        for (const QList<QVariant> &args : std::as_const(changed))
            labels << args.at(1).toString();
        return labels;
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString reason = ScratchLoop::unavailableReason({ u"losetup"_s });
        if (!reason.isEmpty())
            QSKIP(qPrintable(reason));
        // This test's own log, for it and for the dmtunectl it runs.
        qputenv("DMTUNE_CHANGE_LOG", QFile::encodeName(m_dir.filePath(u"changes.jsonl"_s)));
    }

    void othersChangesBecomeMarkersWithWhoMadeThem()
    {
        ScratchLoop loop;
        QVERIFY2(loop.create(16LL << 20), qPrintable(loop.error()));
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, nomerges(loop))); // remembered: put back when the test ends
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"0"_s));
        ExternalChangeWatcher watcher(m_sys);
        watcher.setDevices({ loop.name() });
        QCOMPARE(readOnce(watcher), QStringList()); // the baseline

        const ProgramRun set = runProgram(dmtunectl, { u"set"_s, loop.name(), u"queue/nomerges=2"_s });
        QVERIFY2(set.exitCode == 0, qPrintable(set.err));
        const auto logged = readChangeLog(changeLogPath());
        QVERIFY(logged && !logged->isEmpty());
        QCOMPARE(logged->last().tool, u"dmtunectl"_s);
        QCOMPARE(logged->last().device, loop.name());
        QCOMPARE(logged->last().newValue, u"2"_s);
        const qint64 pid = logged->last().pid;
        QVERIFY(pid > 0 && pid != ::getpid());
        QCOMPARE(
            readOnce(watcher), QStringList { u"%1 nomerges 0 -> 2 (dmtunectl, pid %2)"_s.arg(loop.name()).arg(pid) });
        QCOMPARE(readOnce(watcher), QStringList()); // said once

        QFile direct(u"/sys/block/%1/queue/nomerges"_s.arg(loop.name()));
        QVERIFY(direct.open(QIODevice::WriteOnly));
        QVERIFY(direct.write("1") == 1);
        direct.close();
        QCOMPARE(readOnce(watcher), QStringList { u"%1 nomerges 2 -> 1 (changed outside dmtune)"_s.arg(loop.name()) });

        // This process's own transaction is logged, and is no marker: the window that made it has its own.
        const ApplyResult own
            = applyChanges(m_sys, ChangeSet { { loop.name(), u"queue/nomerges"_s, u"0"_s } }, false, RiskConsent::None);
        QVERIFY2(own.ok() && own.anyWritten(), qPrintable(own.errorMessage()));
        QCOMPARE(readChangeLog(changeLogPath())->last().pid, qint64(::getpid()));
        QCOMPARE(readOnce(watcher), QStringList());
        QCOMPARE(nomerges(loop), u"0"_s);
    }
};

QTEST_GUILESS_MAIN(TestLiveExternalChanges)
#include "tst_live_externalchanges.moc"
