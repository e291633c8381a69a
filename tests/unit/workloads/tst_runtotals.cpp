// The run summary's device numbers (workloads/workloadsession.h DeviceRunTotals): the counters of the sampler
// intervals that overlap fio's I/O, divided by fio's own I/O time, so a device's rates compare with fio's.
#include "core/workloads/fiostream.h"
#include "core/workloads/workloadsession.h"
#include "tests/common/testpaths.h"

#include <QFile>
#include <QTest>

using namespace dmtune;

namespace {

// One second's interval ending at `endSeconds` (epoch) in which `device` completed `writes` writes.
SampleBatch interval(double endSeconds, quint64 writes, double elapsed = 1.0)
{
    SampleBatch b;
    b.wallMs = qint64(endSeconds * 1000);
    b.elapsedSeconds = elapsed;
    DeviceSample d;
    d.counters.name = QStringLiteral("loop0");
    d.deltas[DiskField::WriteIos] = writes;
    d.deltas[DiskField::WriteSectors] = writes * 8;
    b.devices << d;
    return b;
}

QJsonObject lastObject(const QString &fixture)
{
    QFile file(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/") + fixture);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(fixture));
    return splitFioStream(file.readAll()).objects.last();
}

} // namespace

class TestRunTotals : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // fio's final report of a real run (2 jobs of batched writes, --runtime=3): 3.001 s before its timestamp.
    void ioWindowOfAFioReport()
    {
        const auto [from, to] = fioIoWindow(lastObject(QStringLiteral("batchedwrite2jobs.json")));
        QCOMPARE(to, 1796017553.372);
        QVERIFY(qAbs(to - from - 3.001) < 1e-6);
        QCOMPARE(fioIoWindow(QJsonObject {}), std::make_pair(0.0, 0.0));
    }

    void window_data()
    {
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("sampled");
        QTest::addColumn<double>("writesPerSecond");
        // Intervals 100-101 .. 109-110 with 0, 500, 1000 x 6, 500, 0, 0 writes: 7,000 writes from 101.5 to 108.5.
        QTest::newRow("fio's 7 s of I/O") << 101.5 << 108.5 << 7.0 << 8.0 << 1000.0;
        QTest::newRow("no window: the intervals' 10 s") << 0.0 << 0.0 << 10.0 << 10.0 << 700.0;
        QTest::newRow("a window inside one interval") << 103.2 << 103.7 << 0.5 << 1.0 << 2000.0;
    }
    void window()
    {
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(double, seconds);
        QFETCH(double, sampled);
        QFETCH(double, writesPerSecond);
        DeviceRunTotals totals;
        const quint64 writes[10] = { 0, 500, 1000, 1000, 1000, 1000, 1000, 1000, 500, 0 };
        for (int i = 0; i < 10; ++i)
            totals.add(interval(101 + i, writes[i]));
        totals.setWindow(from, to);
        QCOMPARE(totals.hasWindow(), to > from);
        QCOMPARE(totals.seconds(), seconds);
        QCOMPARE(totals.sampledSeconds(), sampled);
        QCOMPARE(totals.devices(), QStringList { QStringLiteral("loop0") });
        QCOMPARE(totals.metrics(QStringLiteral("loop0"))[Metric::WritesPerSec], writesPerSecond);
        QCOMPARE(totals.metrics(QStringLiteral("loop0"))[Metric::WriteRequestSize], 4.0);
    }
};

QTEST_GUILESS_MAIN(TestRunTotals)
#include "tst_runtotals.moc"
