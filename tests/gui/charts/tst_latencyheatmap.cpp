// The latency heat map over hand-made intervals: each column's cells are the shares of its I/O per bucket, the
// percentile lines sit where the histogram's percentiles are, the y range follows the populated buckets, and the
// chart draws whole at the window sizes the app is used at.
#include "core/latency/latencyhistogram.h"
#include "widgets/charts/latencyheatmap.h"

#include "widgets/charts/qcp_p.h"

#include <QImage>
#include <QTest>

#include <cmath>

using namespace dmtune;

namespace {

// 2 ms I/O with a tail: `fast` in [2048, 3072) us, `slow` in [6144, 8192) us.
DeviceLatency interval(quint64 fast, quint64 slow)
{
    DeviceLatency d;
    d.device.counts[23] = fast;
    d.device.counts[26] = slow;
    d.device.sumNs = fast * 2500000ULL + slow * 7000000ULL;
    return d;
}

} // namespace

class TestLatencyHeatMap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cellsAreSharesOfEachInterval();
    void percentileLinesFollowTheHistogram();
    void rangeFollowsTheData();
    void boundLabelsInPlainUnits_data();
    void boundLabelsInPlainUnits();
    void idleDrawsNoAxisRange();
    void keepsTheNewestIntervals();
    void marksChangesInsideTheIntervalsShown();
    void markerLabelsWholeAndApart();
    void drawsAtTheAppsSizes_data();
    void drawsAtTheAppsSizes();
};

void TestLatencyHeatMap::cellsAreSharesOfEachInterval()
{
    LatencyHeatMap map;
    map.appendInterval(1000, interval(90, 10));
    map.appendInterval(2000, interval(0, 0)); // an idle interval: no colour at all
    map.appendInterval(3000, interval(50, 50));
    QCOMPARE(map.intervalCount(), 3);
    QCOMPARE(map.cellShare(0, 23), 0.9);
    QCOMPARE(map.cellShare(0, 26), 0.1);
    QCOMPARE(map.cellShare(1, 23), 0.0);
    QCOMPARE(map.cellShare(2, 26), 0.5);
    for (int column = 0; column < 3; ++column) {
        double sum = 0;
        for (int b = 0; b < latencybuckets::Count; ++b)
            sum += map.cellShare(column, b);
        QVERIFY(qFuzzyCompare(1 + sum, column == 1 ? 1.0 : 2.0));
    }
}

void TestLatencyHeatMap::percentileLinesFollowTheHistogram()
{
    LatencyHeatMap map;
    map.appendInterval(1000, interval(90, 10));
    map.appendInterval(2000, interval(0, 0));
    QCOMPARE(map.percentileLineUs(0, 0.5), 2048 + 1024 * 50.0 / 90);
    QCOMPARE(map.percentileLineUs(0, 0.99), 6144 + 2048 * 0.9);
    QVERIFY(std::isnan(map.percentileLineUs(1, 0.5)));
    map.replot();
    // The lines are drawn in bucket coordinates: p50 inside bucket 23 (22.5 .. 23.5), p99 inside bucket 26.
    const QCPGraph *p50 = map.plotWidget()->graph(0);
    const QCPGraph *p99 = map.plotWidget()->graph(2);
    QCOMPARE(p50->dataCount(), 2);
    QVERIFY(p50->data()->at(0)->value > 22.5 && p50->data()->at(0)->value < 23.5);
    QVERIFY(p99->data()->at(0)->value > 25.5 && p99->data()->at(0)->value < 26.5);
    QVERIFY(std::isnan(p50->data()->at(1)->value)); // a gap, not a zero
    QCOMPARE(p50->data()->at(1)->key, 0.0); // the newest interval at 0
    QCOMPARE(p50->data()->at(0)->key, -1.0);
}

// The latency axis' labels read as numbers with a unit: "520 ms", never "5.2e+02 ms".
void TestLatencyHeatMap::boundLabelsInPlainUnits_data()
{
    QTest::addColumn<double>("us");
    QTest::addColumn<QString>("label");
    QTest::newRow("512 us") << 512.0 << QStringLiteral("512 µs");
    QTest::newRow("1 ms") << 1024.0 << QStringLiteral("1 ms");
    QTest::newRow("8.2 ms") << 8192.0 << QStringLiteral("8.2 ms");
    QTest::newRow("16 ms") << 16384.0 << QStringLiteral("16 ms");
    QTest::newRow("130 ms") << 131072.0 << QStringLiteral("130 ms");
    QTest::newRow("520 ms") << 524288.0 << QStringLiteral("520 ms");
    QTest::newRow("1 s") << 1048576.0 << QStringLiteral("1 s");
    QTest::newRow("1.2 s") << 1200000.0 << QStringLiteral("1.2 s");
    QTest::newRow("130 s") << 134217728.0 << QStringLiteral("130 s");
}

void TestLatencyHeatMap::boundLabelsInPlainUnits()
{
    QFETCH(double, us);
    QFETCH(QString, label);
    QCOMPARE(latencyaxis::boundLabel(us), label);
}

// Nothing measured: a line in the plot instead of an x axis from -1.5 to 0.5 s and a latency scale over no I/O.
void TestLatencyHeatMap::idleDrawsNoAxisRange()
{
    LatencyHeatMap map;
    map.resize(600, 300);
    map.replot();
    QCustomPlot *plot = map.plotWidget();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QCOMPARE(map.idleText(), QStringLiteral("No interval measured yet"));
    QVERIFY(!plot->xAxis->tickLabels());
    QVERIFY(!plot->yAxis->tickLabels());
    QVERIFY(plot->xAxis->label().isEmpty());
    // Intervals without I/O: their time is drawn, no latency scale.
    map.appendInterval(1000, interval(0, 0));
    map.appendInterval(2000, interval(0, 0));
    map.replot();
    QVERIFY(map.idleText().contains(QLatin1String("No I/O")));
    QVERIFY(plot->xAxis->tickLabels());
    QVERIFY(!plot->yAxis->tickLabels());
    // I/O: everything drawn, no line over it.
    map.appendInterval(3000, interval(5, 1));
    map.replot();
    QVERIFY(map.idleText().isEmpty());
    QVERIFY(plot->xAxis->tickLabels() && plot->yAxis->tickLabels());
}

void TestLatencyHeatMap::rangeFollowsTheData()
{
    LatencyHeatMap map;
    QCOMPARE(map.bucketRange(), std::make_pair(1, 21)); // empty: 1 us to 1 ms
    map.appendInterval(1000, interval(5, 1));
    QCOMPARE(map.bucketRange(), std::make_pair(22, 27));
    map.replot();
    const QCPRange y = map.plotWidget()->yAxis->range();
    QCOMPARE(y.lower, 21.5);
    QCOMPARE(y.upper, 27.5);
    // Its ticks name latencies, not bucket numbers.
    const auto ticker = map.plotWidget()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QVERIFY(!ticker->ticks().isEmpty());
    for (const QString &label : ticker->ticks())
        QVERIFY2(label.endsWith(QLatin1String("ms")) || label.endsWith(QStringLiteral("µs")), qPrintable(label));
}

void TestLatencyHeatMap::keepsTheNewestIntervals()
{
    LatencyHeatMap map;
    for (int i = 0; i < LatencyHeatMap::MaxIntervals + 5; ++i)
        map.appendInterval(1000 * i, interval(quint64(i + 1), 0));
    QCOMPARE(map.intervalCount(), LatencyHeatMap::MaxIntervals);
    map.clear();
    QCOMPARE(map.intervalCount(), 0);
}

void TestLatencyHeatMap::marksChangesInsideTheIntervalsShown()
{
    LatencyHeatMap map;
    for (int i = 0; i < 10; ++i)
        map.appendInterval(100000 + 1000 * i, interval(10, 1)); // 100 s .. 109 s since the epoch
    ChartMarker change { 1, 105.0, QStringLiteral("sdb queue_depth 192 -> 2"), MarkerKind::ParameterChange };
    ChartMarker old { 2, 50.0, QStringLiteral("long ago"), MarkerKind::Note };
    map.setMarkers({ change, old });
    map.replot();
    // 105 s is 4 s before the newest interval; 50 s is before the first one shown.
    QCOMPARE(map.drawnMarkerKeys(), QList<double>({ -4.0 }));
    QCOMPARE(map.plotWidget()->itemCount(), 2); // its line and its label
    const auto *label = qobject_cast<QCPItemText *>(map.plotWidget()->item(1));
    QVERIFY(label);
    QCOMPARE(label->text(), change.shortLabel());
    // The axis moves on: the line moves with it.
    map.appendInterval(110000, interval(10, 1));
    map.replot();
    QCOMPARE(map.drawnMarkerKeys(), QList<double>({ -5.0 }));
    map.setMarkers({});
    map.replot();
    QCOMPARE(map.plotWidget()->itemCount(), 0);
}

// Labels at both ends of the plot and two markers half a second apart: every label whole inside the plot area
// ("fio end" at the newest interval is not cut to "fio er"), none over another.
void TestLatencyHeatMap::markerLabelsWholeAndApart()
{
    LatencyHeatMap map;
    for (int i = 0; i < 30; ++i)
        map.appendInterval(100000 + 1000 * i, interval(90, 3)); // 100 s .. 129 s
    map.setMarkers({ { 1, 100.5, QStringLiteral("fio start"), MarkerKind::WorkloadStart },
        { 2, 114.0, QStringLiteral("sdb queue_depth 192 -> 2"), MarkerKind::ParameterChange },
        { 3, 114.5, QStringLiteral("sdc queue_depth 192 -> 2"), MarkerKind::ParameterChange },
        { 4, 129.0, QStringLiteral("fio end"), MarkerKind::WorkloadStop } });
    map.resize(820, 300);
    map.show();
    QVERIFY(QTest::qWaitForWindowExposed(&map));
    QCustomPlot *plot = map.plotWidget();
    map.replot();
    plot->replot(QCustomPlot::rpImmediateRefresh); // laid out: the labels are placed against the plot's width
    map.replot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QRectF area = QRectF(plot->axisRect()->rect()).adjusted(-1, -1, 1, 1);
    QList<QPair<QString, QRectF>> labels;
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *label = qobject_cast<QCPItemText *>(plot->item(i));
        if (!label || label->objectName() != QLatin1String("markerLabel"))
            continue;
        // Every line was made before any label: no line is drawn over a label.
        for (int j = i + 1; j < plot->itemCount(); ++j)
            QVERIFY2(!qobject_cast<QCPItemStraightLine *>(plot->item(j)), "a marker line drawn after a label");
        const QRectF box(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition());
        QVERIFY2(area.contains(box),
            qPrintable(QStringLiteral("%1 at %2,%3 %4x%5 outside the plot area")
                           .arg(label->text())
                           .arg(box.x())
                           .arg(box.y())
                           .arg(box.width())
                           .arg(box.height())));
        labels.append({ label->text(), box });
    }
    QCOMPARE(labels.size(), 4);
    for (qsizetype a = 0; a < labels.size(); ++a) {
        for (qsizetype b = a + 1; b < labels.size(); ++b)
            QVERIFY2(!labels[a].second.intersects(labels[b].second),
                qPrintable(labels[a].first + QStringLiteral(" over ") + labels[b].first));
    }
}

void TestLatencyHeatMap::drawsAtTheAppsSizes_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("half of 1280x720") << QSize(820, 300);
    QTest::newRow("1400x900") << QSize(950, 420);
    QTest::newRow("1920x1080") << QSize(1400, 520);
}

void TestLatencyHeatMap::drawsAtTheAppsSizes()
{
    QFETCH(QSize, size);
    LatencyHeatMap map;
    map.setTitle(QStringLiteral("mpatha (dm-0)"));
    for (int i = 0; i < 30; ++i)
        map.appendInterval(1000 * i, interval(90, quint64(i % 7)));
    map.resize(size);
    map.show();
    QVERIFY(QTest::qWaitForWindowExposed(&map));
    map.replot();
    QCustomPlot *plot = map.plotWidget();
    plot->replot();
    // The plot area keeps most of the widget: the legend and the colour scale do not crowd it out.
    const QRect area = plot->axisRect()->rect();
    QVERIFY2(area.width() > size.width() / 2 && area.height() > size.height() / 3,
        qPrintable(QStringLiteral("%1x%2").arg(area.width()).arg(area.height())));
    // The legend's four entries are inside the widget.
    QVERIFY(plot->legend->visible());
    QCOMPARE(plot->legend->itemCount(), 4);
    QVERIFY(plot->rect().contains(plot->legend->outerRect()));
    // The cells are drawn: the 90 % bucket is the darkest colour in the plot area.
    const QImage image = plot->toPixmap(size.width(), size.height()).toImage();
    const int y = int(plot->yAxis->coordToPixel(23));
    const int x = int(plot->xAxis->coordToPixel(-5));
    const QColor cell = image.pixelColor(x, y);
    QVERIFY2(cell.lightness() < 140, qPrintable(cell.name()));
    // Bucket 25 had no I/O: the background shows (between grid lines: half a second and a bucket off them).
    const QColor empty = image.pixelColor(int(plot->xAxis->coordToPixel(-4.4)), int(plot->yAxis->coordToPixel(25.2)));
    QVERIFY2(empty.lightness() > 200, qPrintable(empty.name())); // no I/O there: background
}

QTEST_MAIN(TestLatencyHeatMap)
#include "tst_latencyheatmap.moc"
