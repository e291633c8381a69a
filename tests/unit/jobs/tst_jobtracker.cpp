// JobTracker: hand-back on the owner's thread, order of serial jobs, superseded results dropped,
// cancellation before and during work, and an owner that goes away while a job blocks.
#include "core/jobs/jobtracker.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <semaphore>

using namespace dmtune;

class TstJobTracker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void resultOnOwnerThread()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QThread *workThread = nullptr;
        QThread *doneThread = nullptr;
        int got = 0;
        QSignalSpy finished(&jobs, &JobTracker::finished);
        const JobId id = jobs.start(
            QStringLiteral("answer"),
            [&workThread](JobContext &) {
                workThread = QThread::currentThread();
                return 42;
            },
            [&](int value) {
                doneThread = QThread::currentThread();
                got = value;
            });
        QVERIFY(id > 0);
        QVERIFY(finished.wait(5000));
        QCOMPARE(got, 42);
        QCOMPARE(doneThread, QThread::currentThread());
        QVERIFY(workThread != QThread::currentThread());
        QCOMPARE(finished.first().at(0).value<JobId>(), id);
        QCOMPARE(finished.first().at(1).toBool(), false);
        QVERIFY(jobs.isIdle());
    }

    void serialKeepsOrder()
    {
        QObject owner;
        JobTracker jobs(&owner, JobTracker::Order::Serial);
        QStringList ran, delivered;
        QMutex mutex;
        QSignalSpy idle(&jobs, &JobTracker::idle);
        for (const QString &step : { QStringLiteral("fail"), QStringLiteral("reinstate"), QStringLiteral("switch") }) {
            jobs.start(
                step,
                [&, step](JobContext &) {
                    QThread::msleep(step == QLatin1String("fail") ? 50 : 0);
                    QMutexLocker lock(&mutex);
                    ran.append(step);
                    return step;
                },
                [&](const QString &s) { delivered.append(s); });
        }
        QVERIFY(idle.wait(5000));
        const QStringList expected { QStringLiteral("fail"), QStringLiteral("reinstate"), QStringLiteral("switch") };
        QCOMPARE(ran, expected);
        QCOMPARE(delivered, expected);
    }

    void latestSupersedes()
    {
        QObject owner;
        JobTracker jobs(&owner);
        std::binary_semaphore release(0);
        QList<int> delivered;
        QSignalSpy idle(&jobs, &JobTracker::idle);
        const JobId first = jobs.startLatest(
            QStringLiteral("poll"), QStringLiteral("poll"),
            [&release](JobContext &c) {
                release.acquire();
                return c.isCancelled() ? -1 : 1;
            },
            [&](int v) { delivered.append(v); });
        const JobId second = jobs.startLatest(
            QStringLiteral("poll"), QStringLiteral("poll"), [](JobContext &) { return 2; },
            [&](int v) { delivered.append(v); });
        QVERIFY(second > first);
        QTRY_VERIFY(!jobs.isRunning(second));
        release.release(); // the first job, superseded before or while it ran, ends
        QTRY_VERIFY(jobs.isIdle());
        QCOMPARE(delivered, QList<int> { 2 }); // the older answer is dropped
        QVERIFY(!idle.isEmpty());
    }

    void cancelBeforeStartSkipsWork()
    {
        QObject owner;
        JobTracker jobs(&owner, JobTracker::Order::Serial);
        std::binary_semaphore release(0);
        std::atomic<int> runs { 0 };
        QSignalSpy finished(&jobs, &JobTracker::finished);
        jobs.start(
            QStringLiteral("blocker"),
            [&release](JobContext &) {
                release.acquire();
                return 0;
            },
            [](int) {});
        const JobId queued = jobs.start(
            QStringLiteral("queued"), [&runs](JobContext &) { return ++runs; }, [](int) {});
        jobs.cancel(queued);
        release.release();
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(runs.load(), 0);
        QCOMPARE(finished.at(1).at(0).value<JobId>(), queued);
        QCOMPARE(finished.at(1).at(1).toBool(), true);
    }

    void progressAndCancelBetweenSteps()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QSignalSpy progress(&jobs, &JobTracker::progress);
        std::atomic<bool> stepOneDone { false };
        int stoppedAt = -1;
        const JobId id = jobs.start(
            QStringLiteral("steps"),
            [&stepOneDone](JobContext &c) {
                int step = 0;
                for (; step < 100; ++step) {
                    if (c.isCancelled())
                        break;
                    c.setProgress(step, 100, QStringLiteral("step %1").arg(step));
                    if (step == 1)
                        stepOneDone = true;
                    QThread::msleep(5);
                }
                return step;
            },
            [&stoppedAt](int step) { stoppedAt = step; });
        QTRY_VERIFY(stepOneDone.load());
        jobs.cancel(id);
        QTRY_VERIFY(jobs.isIdle());
        QVERIFY(stoppedAt > 1 && stoppedAt < 100);
        QVERIFY(progress.size() >= 2);
        QCOMPARE(progress.first().at(3).toString(), QStringLiteral("step 0"));
    }

    // A job that reports more than once (a watcher): posts arrive on the owner's thread, in order, before the
    // final hand-back; none after the tracker closed.
    void postDeliversWhileRunning()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QStringList seen;
        QList<QThread *> threads;
        std::binary_semaphore release(0);
        QSignalSpy idle(&jobs, &JobTracker::idle);
        jobs.start(
            QStringLiteral("watch"),
            [&](JobContext &c) {
                for (int i = 0; i < 3; ++i) {
                    // Only the posted function touches `seen`, on the owner's thread.
                    c.post([&seen, &threads, i] {
                        seen.append(QStringLiteral("event %1").arg(i));
                        threads.append(QThread::currentThread());
                    });
                }
                release.acquire();
                return 3;
            },
            [&seen](int n) { seen.append(QStringLiteral("done %1").arg(n)); });
        QTRY_COMPARE(seen.size(), 3); // delivered while the job still runs
        release.release();
        QVERIFY(idle.wait(5000));
        const QStringList expected { QStringLiteral("event 0"), QStringLiteral("event 1"), QStringLiteral("event 2"),
            QStringLiteral("done 3") };
        QCOMPARE(seen, expected);
        for (QThread *thread : std::as_const(threads))
            QCOMPARE(thread, QThread::currentThread());

        auto *closing = new JobTracker(&owner);
        bool late = false;
        std::binary_semaphore started(0);
        closing->start(
            QStringLiteral("late"),
            [&late, &started](JobContext &c) {
                started.release();
                while (!c.isCancelled())
                    QThread::msleep(1);
                c.post([&late] { late = true; }); // posted while the tracker closes
                return 0;
            },
            [](int) {});
        started.acquire();
        delete closing;
        QCoreApplication::processEvents();
        QVERIFY(!late);
    }

    // Blocking: every job gets its own thread at once; under Parallel the ninth of nine jobs that each wait for the
    // others would never start.
    void blockingStartsAllAtOnce()
    {
        QObject owner;
        JobTracker jobs(&owner, JobTracker::Order::Blocking);
        constexpr int count = 12;
        std::atomic<int> running { 0 };
        std::atomic<bool> allSeen { false };
        for (int i = 0; i < count; ++i) {
            jobs.start(
                QStringLiteral("wait %1").arg(i),
                [&](JobContext &c) {
                    ++running;
                    while (!c.isCancelled() && running.load() < count)
                        QThread::msleep(1);
                    if (running.load() == count)
                        allSeen = true;
                    return 0;
                },
                [](int) {});
        }
        QTRY_VERIFY_WITH_TIMEOUT(allSeen.load(), 5000);
        jobs.cancelAll();
        QTRY_VERIFY(jobs.isIdle());
    }

    // The owner goes away while a job blocks: the tracker's destructor cancels and waits, and the
    // hand-back never runs on the destroyed owner.
    void ownerGoneWaitsAndDrops()
    {
        auto *owner = new QObject;
        auto *jobs = new JobTracker(owner);
        std::atomic<bool> sawCancel { false };
        std::atomic<bool> workEnded { false };
        bool delivered = false;
        std::binary_semaphore started(0);
        jobs->start(
            QStringLiteral("slow"),
            [&](JobContext &c) {
                started.release();
                while (!c.isCancelled())
                    QThread::msleep(2);
                sawCancel = true;
                QThread::msleep(50); // a step that has begun is finished
                workEnded = true;
                return 1;
            },
            [&delivered](int) { delivered = true; });
        started.acquire();
        delete owner; // deletes the tracker: cancel, wait
        QVERIFY(sawCancel.load());
        QVERIFY(workEnded.load());
        QCoreApplication::processEvents();
        QVERIFY(!delivered);
    }
};

QTEST_GUILESS_MAIN(TstJobTracker)
#include "tst_jobtracker.moc"
