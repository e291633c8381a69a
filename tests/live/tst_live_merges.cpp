// Live (root): the Sampler sees mq-deadline merge fio's batched 4K writes on a scratch loop device, and sees
// the merges stop when the queue's nomerges is set to 2.
#include "core/stats/sampler.h"
#include "scratchloop.h"

#include <QTest>

using namespace dmtune;
using namespace dmtune::live;

class TestLiveMerges : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void writesMergeUnderMqDeadline();
    void nomergesStopsMerging();

private:
    // Samples the loop device every 500 ms while fio runs; returns the batches whose interval saw writes.
    QList<IostatMetrics> sampleWhileWriting(int seconds);

    ScratchLoop m_loop;
    SysfsRoot m_root;
};

void TestLiveMerges::initTestCase()
{
    const QString reason = ScratchLoop::unavailableReason({ QStringLiteral("losetup"), QStringLiteral("fio") });
    if (!reason.isEmpty())
        QSKIP(qPrintable(reason));
    if (const QString why = m_loop.createWithMqDeadline(m_root, 256LL << 20); !why.isEmpty())
        QSKIP(qPrintable(why));
    QVERIFY(m_root.readOr(QStringLiteral("block/%1/queue/scheduler").arg(m_loop.name()))
                .contains(QStringLiteral("[mq-deadline]")));
}

void TestLiveMerges::cleanupTestCase()
{
    m_loop.release();
}

QList<IostatMetrics> TestLiveMerges::sampleWhileWriting(int seconds)
{
    Sampler sampler(m_root);
    sampler.setWatched({ m_loop.name() });
    sampler.setInterval(500);
    QList<IostatMetrics> busy;
    connect(&sampler, &Sampler::samplesAvailable, this, [&](const SampleBatch &batch) {
        const DeviceSample *d = batch.find(m_loop.name());
        const IostatMetrics m = d ? d->metrics(batch.elapsedSeconds) : IostatMetrics {};
        if (m[Metric::WritesPerSec] > 100)
            busy.append(m);
    });
    sampler.start();
    QProcess fio;
    fio.start(QStringLiteral("fio"), batchedWriteJob(m_loop.devicePath(), seconds));
    if (!fio.waitForStarted(10000))
        return {};
    // Until fio has finished; the sampler's timer keeps firing meanwhile.
    if (!QTest::qWaitFor([&] { return fio.state() == QProcess::NotRunning; }, (seconds + 30) * 1000))
        qWarning("fio still runs after %d s", seconds + 30);
    sampler.stop();
    if (fio.exitCode() != 0)
        qWarning("fio: %s", fio.readAllStandardError().constData());
    return busy;
}

void TestLiveMerges::writesMergeUnderMqDeadline()
{
    const QList<IostatMetrics> busy = sampleWhileWriting(3);
    QVERIFY2(busy.size() >= 4, qPrintable(QStringLiteral("%1 busy intervals").arg(busy.size())));
    for (const IostatMetrics &m : busy) {
        qInfo("w/s %.0f wrqm/s %.0f %%wrqm %.1f wareq-sz %.2f w_await %.2f aqu-sz %.2f", m[Metric::WritesPerSec],
            m[Metric::WriteMergesPerSec], m[Metric::WriteMergedPercent], m[Metric::WriteRequestSize],
            m[Metric::WriteAwait], m[Metric::AverageQueueSize]);
        QVERIFY(m[Metric::WriteMergesPerSec] > 0);
        QVERIFY(m[Metric::WriteRequestSize] > 4);
    }
}

void TestLiveMerges::nomergesStopsMerging()
{
    const Status set = m_loop.setQueue(m_root, QStringLiteral("nomerges"), QStringLiteral("2"));
    QVERIFY2(bool(set), qPrintable(set.errorMessage()));
    QCOMPARE(m_root.readOr(QStringLiteral("block/%1/queue/nomerges").arg(m_loop.name())), QStringLiteral("2"));
    const QList<IostatMetrics> busy = sampleWhileWriting(3);
    QVERIFY2(busy.size() >= 4, qPrintable(QStringLiteral("%1 busy intervals").arg(busy.size())));
    for (const IostatMetrics &m : busy) {
        qInfo("w/s %.0f wrqm/s %.0f wareq-sz %.2f", m[Metric::WritesPerSec], m[Metric::WriteMergesPerSec],
            m[Metric::WriteRequestSize]);
        QCOMPARE(m[Metric::WriteMergesPerSec], 0.0);
        QCOMPARE(m[Metric::WriteMergedPercent], 0.0);
        // Every 4K write issued on its own. Not exactly 4.00 in every interval: the kernel counts a request's
        // sectors when its data completes and the request itself just after, so one straddling the read
        // lands on both sides of it.
        QVERIFY2(
            qAbs(m[Metric::WriteRequestSize] - 4.0) < 0.01, qPrintable(QString::number(m[Metric::WriteRequestSize])));
    }
}

QTEST_GUILESS_MAIN(TestLiveMerges)
#include "tst_live_merges.moc"
