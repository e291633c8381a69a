// LiveStatsView and its charts on the offscreen platform: batches built by hand (and from a Sampler over a
// temporary sys/proc tree) reach every chart, the window trims and rebuilds from the store, gaps, pause,
// zoom, markers on every chart, the readout and the exports (PNG, PDF, SVG, CSV).
// DMTUNE_CHART_EXPORT_DIR=/some/dir keeps a set of exports there to look at.
#include "batchmaker.h"

#include "core/stats/iostatformat.h"
#include "core/stats/sampler.h"
#include "core/stats/seriesstore.h"
#include "widgets/charts/chartpanel.h"
#include "widgets/charts/iostattablemodel.h"
#include "widgets/charts/livestatsview.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

using namespace dmtune;
using dmtune::test::BatchMaker;

namespace {

const QStringList mapAndPaths { QStringLiteral("dm-0"), QStringLiteral("sdb"), QStringLiteral("sdc") };

// Feeds the store first, then the view: what the main window's two connections do.
void feed(
    SeriesStore &store, LiveStatsView &view, BatchMaker &maker, int count, const QStringList &devices = mapAndPaths)
{
    for (int i = 0; i < count; ++i) {
        const SampleBatch b = maker.next(devices);
        store.append(b);
        view.onBatch(b);
    }
}

// A batch with every device idle: the charts' value axes stay at their idle scale.
SampleBatch idleBatch(BatchMaker &maker, const QStringList &devices)
{
    SampleBatch b = maker.next(devices);
    for (DeviceSample &d : b.devices) {
        d.deltas = CounterDeltas {};
        d.inflight = { 0, 0 };
    }
    return b;
}

// Every drawn part of a chart whole: inside what it is clipped to and inside the chart (title, legend entries,
// tick labels, axis titles, marker labels, the readout).
QString cutParts(const ChartPanel *panel)
{
    QStringList cut;
    const QRectF viewport(panel->viewportRect());
    for (const ChartPanel::Part &p : panel->drawnParts()) {
        const QRectF slack = p.content.adjusted(0.01, 0.01, -0.01, -0.01);
        if (!p.clip.contains(slack) || !viewport.contains(slack))
            cut.append(QStringLiteral("%1: (%2,%3 %4x%5) in (%6,%7 %8x%9)")
                           .arg(p.name)
                           .arg(p.content.x())
                           .arg(p.content.y())
                           .arg(p.content.width())
                           .arg(p.content.height())
                           .arg(p.clip.x())
                           .arg(p.clip.y())
                           .arg(p.clip.width())
                           .arg(p.clip.height()));
    }
    return cut.isEmpty() ? QString() : panel->spec().title + QStringLiteral(": ") + cut.join(QStringLiteral("; "));
}

qint64 countPixelsNear(const QImage &image, QColor color, int tolerance = 40)
{
    qint64 n = 0;
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < img.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(img.constScanLine(y));
        for (int x = 0; x < img.width(); ++x) {
            if (std::abs(qRed(line[x]) - color.red()) + std::abs(qGreen(line[x]) - color.green())
                    + std::abs(qBlue(line[x]) - color.blue())
                < tolerance)
                ++n;
        }
    }
    return n;
}

} // namespace

class TestLiveStatsView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void everyChartGetsEveryDevice()
    {
        SeriesStore store;
        LiveStatsView view(nullptr, &store);
        view.setDevices(mapAndPaths);
        BatchMaker maker;
        feed(store, view, maker, 30);

        QCOMPARE(view.panels().size(), ChartPanelCount);
        for (ChartPanel *panel : view.panels()) {
            const int series = int(panel->spec().series.size());
            QCOMPARE(panel->graphCount(), int(mapAndPaths.size()) * series);
            for (const QString &device : mapAndPaths) {
                for (int s = 0; s < series; ++s)
                    QCOMPARE(panel->pointCount(device, s), 30);
            }
        }
        // The values are the batch's iostat metrics (sums for the in-flight series).
        const ChartPanel *iops = view.panel(ChartPanelKind::Iops);
        QCOMPARE(iops->lastValue(QStringLiteral("sdb"), 0), 200.0 + 30.0); // r/s: 200 + ramp * sequence
        QCOMPARE(iops->lastValue(QStringLiteral("sdb"), 1), 100.0); // w/s
        QCOMPARE(view.panel(ChartPanelKind::QueueDepth)->lastValue(QStringLiteral("sdc"), 0), 9.0); // 6 + 3
        QCOMPARE(view.panel(ChartPanelKind::QueueDepth)->lastValue(QStringLiteral("dm-0"), 1), 1.5); // aqu-sz
        QCOMPARE(view.panel(ChartPanelKind::Merges)->lastValue(QStringLiteral("dm-0"), 3), 50.0); // %wrqm
        QCOMPARE(view.panel(ChartPanelKind::RequestSize)->lastValue(QStringLiteral("dm-0"), 1), 32.0);
        QCOMPARE(view.panel(ChartPanelKind::Latency)->lastValue(QStringLiteral("dm-0"), 1), 2.0);
        QCOMPARE(view.panel(ChartPanelKind::Utilization)->lastValue(QStringLiteral("sdb"), 0), 40.0);
        // Live: the newest point sits at the right edge of a window-wide range.
        for (ChartPanel *panel : view.panels()) {
            QCOMPARE(panel->visibleUpper(), view.now());
            QCOMPARE(panel->visibleUpper() - panel->visibleLower(), double(view.windowSeconds()));
        }
        // Percent axes are fixed, rate axes fit the data with headroom.
        QVERIFY(view.panel(ChartPanelKind::Utilization)->valueAxisUpper() >= 100);
        QVERIFY(view.panel(ChartPanelKind::Iops)->valueAxisUpper() > 330);
        // Colours: one per device, the same on every chart.
        QCOMPARE(QSet<QRgb>({ view.deviceColor(mapAndPaths[0]).rgb(), view.deviceColor(mapAndPaths[1]).rgb(),
                                view.deviceColor(mapAndPaths[2]).rgb() })
                     .size(),
            3);
    }

    void columnChoiceIsKept()
    {
        // The user's column set (the Columns combo) is there again in the next view, as in the next start.
        SeriesStore store;
        {
            LiveStatsView view(nullptr, &store);
            QCOMPARE(view.tableModel()->columnSet(), IostatTableModel::ColumnSet::FollowLoad);
            auto *combo = view.findChild<QComboBox *>(QStringLiteral("iostatColumns"));
            QVERIFY(combo);
            const int merges = combo->findData(int(IostatTableModel::ColumnSet::Merges));
            QVERIFY(merges >= 0);
            combo->setCurrentIndex(merges);
            Q_EMIT combo->activated(merges);
            QCOMPARE(view.tableModel()->columnSet(), IostatTableModel::ColumnSet::Merges);
        }
        {
            LiveStatsView view(nullptr, &store);
            QCOMPARE(view.tableModel()->columnSet(), IostatTableModel::ColumnSet::Merges);
            auto *combo = view.findChild<QComboBox *>(QStringLiteral("iostatColumns"));
            QCOMPARE(combo->currentData().toInt(), int(IostatTableModel::ColumnSet::Merges));
        }
        QSettings().remove(QStringLiteral("statistics/iostatColumns")); // the other cases start from the default
        LiveStatsView fresh(nullptr, &store);
        QCOMPARE(fresh.tableModel()->columnSet(), IostatTableModel::ColumnSet::FollowLoad);
    }

    void windowTrimsAndRebuildsFromTheStore()
    {
        SeriesStore store;
        BatchMaker maker;
        {
            LiveStatsView view(nullptr, &store);
            view.setWindowSeconds(60);
            view.setDevices(mapAndPaths);
            feed(store, view, maker, 200);
            const ChartPanel *iops = view.panel(ChartPanelKind::Iops);
            // removeBefore(now - window - margin): about a minute of points, not 200.
            QVERIFY2(
                iops->pointCount(QStringLiteral("sdb"), 0) >= 61 && iops->pointCount(QStringLiteral("sdb"), 0) <= 64,
                qPrintable(QString::number(iops->pointCount(QStringLiteral("sdb"), 0))));
        }
        // A new view over the same store starts with the history of its window...
        LiveStatsView view(nullptr, &store);
        view.setWindowSeconds(60);
        QSignalSpy windowSpy(&view, &LiveStatsView::windowSecondsChanged);
        view.setDevices(mapAndPaths);
        const ChartPanel *iops = view.panel(ChartPanelKind::Iops);
        const qsizetype minute = iops->pointCount(QStringLiteral("dm-0"), 0);
        QVERIFY(minute >= 61 && minute <= 64);
        // ... a wider window brings older samples back from the store ...
        view.setWindowSeconds(600);
        QCOMPARE(windowSpy.count(), 1);
        QCOMPARE(iops->pointCount(QStringLiteral("dm-0"), 0), 200);
        QCOMPARE(iops->lastValue(QStringLiteral("dm-0"), 0), 100.0 + 200.0);
        // ... and the next batch continues the rebuilt line (no duplicate, no gap).
        feed(store, view, maker, 1);
        QCOMPARE(iops->pointCount(QStringLiteral("dm-0"), 0), 201);
        // Out-of-range windows are clamped.
        view.setWindowSeconds(5);
        QCOMPARE(view.windowSeconds(), int(LiveStatsView::MinWindowSeconds));
        view.setWindowSeconds(86400);
        QCOMPARE(view.windowSeconds(), int(LiveStatsView::MaxWindowSeconds));
    }

    void missingDeviceLeavesAGap()
    {
        SeriesStore store;
        LiveStatsView view(nullptr, &store);
        view.setDevices(mapAndPaths);
        BatchMaker maker;
        feed(store, view, maker, 10);
        feed(store, view, maker, 5, { QStringLiteral("dm-0"), QStringLiteral("sdb") }); // sdc failed
        feed(store, view, maker, 10);
        const ChartPanel *iops = view.panel(ChartPanelKind::Iops);
        QCOMPARE(iops->pointCount(QStringLiteral("dm-0"), 0), 25);
        QCOMPARE(iops->pointCount(QStringLiteral("sdc"), 0), 20 + 1); // 20 samples and one NaN
        // The store's rebuild draws the same gap.
        view.setWindowSeconds(120);
        QCOMPARE(iops->pointCount(QStringLiteral("sdc"), 0), 21);
        QCOMPARE(iops->pointCount(QStringLiteral("dm-0"), 0), 25);
        // A restarted sampler (sequence 1 again) ends every line too.
        maker.restart();
        feed(store, view, maker, 3);
        QCOMPARE(iops->pointCount(QStringLiteral("dm-0"), 0), 25 + 1 + 3);
    }

    void markersOnEveryChart()
    {
        SeriesStore store;
        LiveStatsView view(nullptr, &store);
        view.setDevices(mapAndPaths);
        BatchMaker maker;
        feed(store, view, maker, 20);
        QSignalSpy added(&view, &LiveStatsView::markerAdded);
        const int a
            = view.addMarker(view.now() - 10, QStringLiteral("sdb nomerges 0 -> 2"), MarkerKind::ParameterChange);
        const int b = view.addMarker(view.now() - 15, QStringLiteral("fio start"), MarkerKind::WorkloadStart);
        QCOMPARE(added.count(), 2);
        QVERIFY(a != b);
        for (ChartPanel *panel : view.panels())
            QCOMPARE(panel->markerCount(), 2);
        // The events list is in time order, whatever the order of the calls.
        QCOMPARE(view.eventList()->topLevelItemCount(), 2);
        QCOMPARE(view.eventList()->topLevelItem(0)->text(2), QStringLiteral("fio start"));
        QCOMPARE(view.eventList()->topLevelItem(1)->text(2), QStringLiteral("sdb nomerges 0 -> 2"));
        QCOMPARE(view.eventList()->topLevelItem(1)->text(1), QStringLiteral("parameter"));
        // Markers survive a change of the device set.
        view.setDevices({ QStringLiteral("sdb") });
        QCOMPARE(view.panel(ChartPanelKind::Latency)->markerCount(), 2);
        view.removeMarker(a);
        for (ChartPanel *panel : view.panels())
            QCOMPARE(panel->markerCount(), 1);
        QCOMPARE(view.markers().size(), 1);
        view.clearMarkers();
        for (ChartPanel *panel : view.panels())
            QCOMPARE(panel->markerCount(), 0);
        QCOMPARE(view.eventList()->topLevelItemCount(), 0);
    }

    void pauseKeepsCollecting()
    {
        SeriesStore store;
        LiveStatsView view(nullptr, &store);
        view.setWindowSeconds(60);
        view.setDevices(mapAndPaths);
        BatchMaker maker;
        feed(store, view, maker, 120);
        const ChartPanel *iops = view.panel(ChartPanelKind::Iops);
        const auto rowOf = [&view](const QString &device) {
            for (int r = 0; r < view.tableModel()->rowCount(); ++r) {
                if (view.tableModel()->index(r, 0).data(IostatTableModel::DeviceRole).toString() == device)
                    return r;
            }
            return -1;
        };
        const QModelIndex readsOfSdb = view.tableModel()->index(rowOf(QStringLiteral("sdb")), 1);
        QCOMPARE(readsOfSdb.data().toString(), QStringLiteral("320.00"));

        QSignalSpy pausedSpy(&view, &LiveStatsView::pausedChanged);
        view.setPaused(true);
        QCOMPARE(pausedSpy.count(), 1);
        // Paused, the charts hold the retained hour to pan over, not only the window.
        QCOMPARE(iops->pointCount(QStringLiteral("sdb"), 0), 120);
        const double lower = iops->visibleLower();
        const double upper = iops->visibleUpper();
        feed(store, view, maker, 10);
        QCOMPARE(iops->visibleLower(), lower);
        QCOMPARE(iops->visibleUpper(), upper);
        QCOMPARE(iops->pointCount(QStringLiteral("sdb"), 0), 130); // still collecting
        QCOMPARE(readsOfSdb.data().toString(), QStringLiteral("320.00")); // the table stands still too
        QVERIFY(view.statusText().contains(QStringLiteral("Paused")));

        view.setPaused(false);
        QCOMPARE(iops->visibleUpper(), view.now());
        QCOMPARE(readsOfSdb.data().toString(), QStringLiteral("330.00"));
        QVERIFY(iops->pointCount(QStringLiteral("sdb"), 0) <= 64);
    }

    void oneReplotPerTickForChartsInView()
    {
        SeriesStore store;
        LiveStatsView view(nullptr, &store);
        view.setDevices(mapAndPaths);
        BatchMaker maker;
        feed(store, view, maker, 5); // hidden: nothing is drawn
        view.resize(1400, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto counts = [&view] {
            QList<int> c;
            for (ChartPanel *panel : view.panels())
                c.append(panel->replotCount());
            return c;
        };
        // Layout settled, resize replots done: every chart has replotted, and a pass over the pending events (layout
        // requests, queued replots) replots nothing more.
        QList<int> settled;
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QList<int> now = counts();
                const bool stable
                    = now == settled && std::all_of(now.cbegin(), now.cend(), [](int c) { return c > 0; });
                settled = now;
                return stable;
            },
            10000));
        const QList<int> before = counts();
        for (int c : before)
            QVERIFY(c > 0); // the catch-up replot when shown
        feed(store, view, maker, 1);
        QCoreApplication::processEvents();
        QList<int> after = counts();
        QList<int> scrolledOut;
        for (int i = 0; i < before.size(); ++i) {
            QVERIFY(after[i] - before[i] <= 1); // one replot for all graphs of a chart
            if (after[i] == before[i])
                scrolledOut.append(i);
        }
        // 700 px do not hold four rows of charts and the table: the last row is scrolled out, and is drawn
        // when it is scrolled in.
        QVERIFY(!scrolledOut.isEmpty());
        QVERIFY(scrolledOut.size() < before.size());
        QVERIFY(scrolledOut.contains(int(ChartPanelKind::Utilization)));
        auto *scroll = view.findChild<QScrollArea *>();
        QVERIFY(scroll);
        scroll->ensureWidgetVisible(view.panel(ChartPanelKind::Utilization));
        QCoreApplication::processEvents();
        QCOMPARE(view.panel(ChartPanelKind::Utilization)->replotCount(), after[int(ChartPanelKind::Utilization)] + 1);
    }

    void zoomPausesAndSyncsCharts()
    {
        SeriesStore store;
        LiveStatsView view(nullptr, &store);
        view.resize(1400, 1000);
        view.setDevices(mapAndPaths);
        BatchMaker maker;
        feed(store, view, maker, 120);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCoreApplication::processEvents(); // the queued replots lay the charts out

        ChartPanel *latency = view.panel(ChartPanelKind::Latency);
        QWidget *plot = latency->plotWidget();
        const QRect area = latency->plotArea();
        QVERIFY(area.width() > 200);
        const QPointF at = area.center();
        const double before = latency->visibleUpper() - latency->visibleLower();

        // A plain wheel scrolls the page, it does not zoom.
        QWheelEvent plain(at, plot->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(plot, &plain);
        QCOMPARE(latency->visibleUpper() - latency->visibleLower(), before);
        QVERIFY(!view.isPaused());

        // Ctrl+wheel zooms the time axis, pauses, and every chart follows.
        QWheelEvent zoom(at, plot->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
            Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(plot, &zoom);
        const double after = latency->visibleUpper() - latency->visibleLower();
        QVERIFY2(after < before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
        QVERIFY(view.isPaused());
        for (ChartPanel *panel : view.panels()) {
            QCOMPARE(panel->visibleLower(), latency->visibleLower());
            QCOMPARE(panel->visibleUpper(), latency->visibleUpper());
        }
        view.setPaused(false);
        QCOMPARE(latency->visibleUpper() - latency->visibleLower(), double(view.windowSeconds()));
    }

    void drawsReadoutAndTooltips()
    {
        SeriesStore store;
        LiveStatsView view(nullptr, &store);
        view.resize(1400, 1000);
        view.setDeviceLabels({ { QStringLiteral("dm-0"), QStringLiteral("mpatha (dm-0)") } });
        view.setDevices(mapAndPaths);
        BatchMaker maker;
        feed(store, view, maker, 60);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCoreApplication::processEvents();

        ChartPanel *iops = view.panel(ChartPanelKind::Iops);
        // The live path drew: the queued replot ran and the widget shows every device's line.
        const QImage shown = iops->plotWidget()->grab().toImage();
        for (const QString &device : mapAndPaths)
            QVERIFY2(countPixelsNear(shown, view.deviceColor(device)) > 200, qPrintable(device));

        const QString text = iops->showReadoutAt(view.now() - 10.2); // snaps to the sample 10 s ago
        // A table: the time and a column per series, then a row per device.
        const QStringList lines = text.split(u'\n');
        QCOMPARE(lines.size(), 4);
        QVERIFY2(
            QRegularExpression(QStringLiteral("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} +r/s +w/s$")).match(lines[0]).hasMatch(),
            qPrintable(text));
        QVERIFY2(
            QRegularExpression(QStringLiteral("^mpatha \\(dm-0\\) +150\\.00 +50\\.00$")).match(lines[1]).hasMatch(),
            qPrintable(text)); // r/s 100 + 50 (sequence 50)
        QVERIFY2(lines[3].startsWith(QStringLiteral("sdc ")), qPrintable(text));
        QVERIFY(iops->plotWidget()->rect().contains(iops->readoutRect()));
        iops->hideReadout();
        QVERIFY(iops->showReadoutAt(view.now() + 600).isEmpty()); // no data there

        // Formulas: the value axis names its series' formulas; the title area the panel's.
        const QRect area = iops->plotArea();
        const QString axisTip = iops->toolTipAt(QPoint(area.left() - 10, area.center().y()));
        QVERIFY2(axisTip.contains(QStringLiteral("Δ reads completed (f1) / Δt")), qPrintable(axisTip));
        QVERIFY(axisTip.contains(QStringLiteral("Δ writes completed (f5) / Δt")));
        ChartPanel *merges = view.panel(ChartPanelKind::Merges);
        const QString rightTip = merges->toolTipAt(QPoint(merges->plotArea().right() + 10, area.center().y()));
        QVERIFY2(rightTip.startsWith(QStringLiteral("%rrqm (%)")), qPrintable(rightTip));
        QVERIFY(!rightTip.contains(QStringLiteral("rrqm/s")));
        QVERIFY(iops->toolTipAt(area.center()).isEmpty()); // the readout speaks there
        QVERIFY(view.panel(ChartPanelKind::QueueDepth)->spec().tooltip().contains(QStringLiteral("inflight")));
        // The table's headers carry the formulas too.
        const QString header
            = view.tableProxy()
                  ->headerData(IostatTableModel::columnOf(Metric::Utilization), Qt::Horizontal, Qt::ToolTipRole)
                  .toString();
        QVERIFY2(header.contains(QStringLiteral("f10")), qPrintable(header));
    }

    // Nothing is cut at the window sizes people use: marker labels inside the plot (one scrolled out to the left,
    // one at the right edge, a note that is a whole fio command line), axis titles on idle scales, the legend of
    // a map and four paths, the readout, with the view as wide as the window and as wide as beside the tree.
    void labelsStayWhole_data()
    {
        QTest::addColumn<QSize>("window");
        QTest::addColumn<double>("share"); // of the window's width the view gets
        for (const QSize size : { QSize(1280, 720), QSize(1400, 900), QSize(1920, 1080) }) {
            for (const double share : { 1.0, 0.5 }) {
                const QByteArray tag = QByteArray::number(size.width()) + 'x' + QByteArray::number(size.height())
                    + (share < 1 ? " beside the tree" : " whole width");
                QTest::newRow(tag.constData()) << size << share;
            }
        }
    }

    void labelsStayWhole()
    {
        QFETCH(QSize, window);
        QFETCH(double, share);
        SeriesStore store;
        LiveStatsView view(nullptr, &store);
        view.resize(int(window.width() * share), window.height() - 60); // less the menu and status bars
        const QStringList devices { QStringLiteral("dm-0"), QStringLiteral("sdb"), QStringLiteral("sdc"),
            QStringLiteral("sdd"), QStringLiteral("sde") };
        view.setDeviceLabels({ { QStringLiteral("dm-0"), QStringLiteral("mpatha (dm-0)") } });
        view.setWindowSeconds(60);
        view.setDevices(devices);
        BatchMaker maker;
        // Idle at first (0..1 scales), busy later only on some charts' series.
        for (int i = 0; i < 40; ++i) {
            const SampleBatch b = idleBatch(maker, devices);
            store.append(b);
            view.onBatch(b);
        }
        feed(store, view, maker, 20, devices);
        view.addMarker(
            view.now() - 75, QStringLiteral("sdb queue/scheduler none -> mq-deadline"), MarkerKind::ParameterChange);
        view.addMarker(
            view.now() - 58, QStringLiteral("sdc queue/scheduler none -> mq-deadline"), MarkerKind::ParameterChange);
        view.addMarker(view.now() - 30, QStringLiteral("fio start"), MarkerKind::WorkloadStart);
        view.addMarker(view.now() - 30,
            QStringLiteral("fio command: /usr/bin/fio --name=batched-write-4k --filename=/dev/dm-0 --rw=write --bs=4k "
                           "--ioengine=libaio --iodepth=32 --numjobs=1 --direct=1 --time_based --runtime=30"),
            MarkerKind::Note);
        view.addMarker(view.now() - 0.5, QStringLiteral("fio end"), MarkerKind::WorkloadStop);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCoreApplication::processEvents();
        for (ChartPanel *panel : view.panels())
            panel->replotQueued();
        QCoreApplication::processEvents();

        const QString dir = qEnvironmentVariable("DMTUNE_SCREENSHOT_DIR");
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-');
        for (ChartPanel *panel : view.panels()) {
            // Laid out at the size it has on screen, as the replot drew it.
            panel->plotWidget()->repaint();
            QCOMPARE(panel->viewportRect(), panel->plotWidget()->rect());
            const QString cut = cutParts(panel);
            if (!dir.isEmpty() && !cut.isEmpty())
                panel->plotWidget()->grab().save(QStringLiteral("%1/cut-%2-%3.png").arg(dir, tag, panel->spec().id));
            QVERIFY2(cut.isEmpty(), qPrintable(cut));
            QStringList names;
            for (const ChartPanel::Part &p : panel->drawnParts())
                names.append(p.name);
            for (const QString &device : { QStringLiteral("mpatha (dm-0)"), QStringLiteral("sde") })
                QVERIFY2(names.contains(QStringLiteral("legend: ") + device), qPrintable(names.join(u'|')));
            QVERIFY2(names.contains(QStringLiteral("left axis title")), qPrintable(names.join(u'|')));
            // The scrolled-out marker has no label; the long note is named by its first words.
            QVERIFY(!names.contains(QStringLiteral("marker: sdb queue/scheduler none -> mq-deadline")));
            for (const QString &name : names)
                QVERIFY2(!name.contains(QStringLiteral("--name=")), qPrintable(name));
        }
        // The readout at the right edge, over five devices and four series, stays whole too.
        ChartPanel *merges = view.panel(ChartPanelKind::Merges);
        const QString text = merges->showReadoutAt(view.now() - 1);
        QVERIFY(!text.isEmpty());
        QVERIFY2(cutParts(merges).isEmpty(), qPrintable(cutParts(merges)));
        if (!dir.isEmpty())
            view.grab().save(QStringLiteral("%1/stats-%2.png").arg(dir, tag));
    }

    // Four paths of a map under round-robin carry the same load: their lines are drawn apart, each visible,
    // and the readout lists every device and every series at that time.
    void equalLinesStayApart()
    {
        SeriesStore store;
        LiveStatsView view(nullptr, &store);
        view.resize(1400, 1000);
        const QStringList paths { QStringLiteral("sdb"), QStringLiteral("sdc"), QStringLiteral("sdd"),
            QStringLiteral("sde") };
        view.setDeviceLabels({ { QStringLiteral("dm-0"), QStringLiteral("mpatha (dm-0)") } });
        view.setDevices(QStringList { QStringLiteral("dm-0") } + paths);
        BatchMaker maker;
        for (int i = 0; i < 60; ++i) {
            SampleBatch b = maker.next(QStringList { QStringLiteral("dm-0") } + paths);
            for (qsizetype d = 2; d < b.devices.size(); ++d) { // every path as the first one
                b.devices[d].deltas = b.devices[1].deltas;
                b.devices[d].inflight = b.devices[1].inflight;
            }
            store.append(b);
            view.onBatch(b);
        }
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCoreApplication::processEvents();

        ChartPanel *iops = view.panel(ChartPanelKind::Iops);
        QSet<double> offsets;
        for (int d = 0; d < 5; ++d)
            offsets.insert(iops->lineOffset(d));
        QCOMPARE(offsets.size(), 5);
        QVERIFY(std::abs(iops->lineOffset(0) - iops->lineOffset(4)) <= ChartPanel::MaxLineSpread);
        for (const QString &path : paths)
            QCOMPARE(iops->lastValue(path, 0), iops->lastValue(QStringLiteral("sdb"), 0)); // the same values
        iops->replotQueued();
        QCoreApplication::processEvents();
        // Each path's colour shows along the lines, not only in its legend swatch (22 x 2.5 pixels).
        const QImage shown = iops->plotWidget()->grab().toImage();
        for (const QString &path : paths) {
            const qint64 pixels = countPixelsNear(shown, view.deviceColor(path), 30);
            QVERIFY2(pixels > 150, qPrintable(QStringLiteral("%1: %2 px").arg(path).arg(pixels)));
        }
        // The readout: every device, every series, at that time.
        ChartPanel *merges = view.panel(ChartPanelKind::Merges);
        const QString text = merges->showReadoutAt(view.now() - 5);
        const QStringList lines = text.split(u'\n');
        QCOMPARE(lines.size(), 6); // the header, five devices
        for (const QString &series :
            { QStringLiteral("rrqm/s"), QStringLiteral("wrqm/s"), QStringLiteral("%rrqm"), QStringLiteral("%wrqm") })
            QVERIFY2(lines[0].contains(series), qPrintable(text));
        QVERIFY(lines[1].startsWith(QStringLiteral("mpatha (dm-0) ")));
        for (int i = 0; i < paths.size(); ++i) {
            QVERIFY2(lines[i + 2].startsWith(paths[i] + u' '), qPrintable(text));
            QCOMPARE(lines[i + 2].mid(paths[i].size()), lines[2].mid(3)); // equal values, all listed
        }
        QVERIFY(merges->plotWidget()->rect().contains(merges->readoutRect()));
    }

    void exportsChartsAndSamples()
    {
        SeriesStore store;
        LiveStatsView view(nullptr, &store);
        view.setWindowSeconds(120);
        view.setDeviceLabels({ { QStringLiteral("dm-0"), QStringLiteral("mpatha (dm-0)") } });
        view.setDevices(mapAndPaths);
        BatchMaker maker;
        feed(store, view, maker, 150);
        view.addMarker(view.now() - 90, QStringLiteral("fio randwrite start"), MarkerKind::WorkloadStart);
        view.addMarker(view.now() - 60, QStringLiteral("sdb nomerges 0 -> 2"), MarkerKind::ParameterChange);
        view.addMarker(view.now() - 20, QStringLiteral("fio stop"), MarkerKind::WorkloadStop);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto written = view.exportAll(dir.path(), 1000, 380);
        QVERIFY2(written, qPrintable(written.errorMessage()));
        QCOMPARE(written->size(), ChartPanelCount * 3 + 1);

        const QString keep = qEnvironmentVariable("DMTUNE_CHART_EXPORT_DIR");
        if (!keep.isEmpty()) {
            QVERIFY(view.exportAll(keep, 1000, 380));
            view.resize(1500, 1300);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QCoreApplication::processEvents();
            view.panel(ChartPanelKind::Throughput)->showReadoutAt(view.now() - 30);
            QCoreApplication::processEvents();
            QVERIFY(view.grab().save(keep + QStringLiteral("/view.png")));
        }

        for (ChartPanelKind kind : ChartPanelSpec::kinds()) {
            const QString id = ChartPanelSpec::of(kind).id;
            const QString png = dir.filePath(id + QStringLiteral(".png"));
            QImage image(png);
            QVERIFY2(!image.isNull(), qPrintable(png));
            QCOMPARE(image.size(), QSize(1000, 380));
            QVERIFY2(QFileInfo(png).size() > 15000, qPrintable(id));
            // Not an empty chart: every device's colour covers more than its legend swatch.
            for (const QString &device : mapAndPaths) {
                const qint64 pixels = countPixelsNear(image, view.deviceColor(device));
                QVERIFY2(pixels > 400, qPrintable(QStringLiteral("%1 %2: %3 px").arg(id, device).arg(pixels)));
            }

            QFile pdf(dir.filePath(id + QStringLiteral(".pdf")));
            QVERIFY(pdf.open(QIODevice::ReadOnly));
            QVERIFY(pdf.read(5) == "%PDF-");
            QVERIFY2(pdf.size() > 8000, qPrintable(QString::number(pdf.size())));

            QFile svg(dir.filePath(id + QStringLiteral(".svg")));
            QVERIFY(svg.open(QIODevice::ReadOnly));
            const QByteArray svgText = svg.readAll();
            QVERIFY(svgText.contains("<svg"));
            QVERIFY2(svgText.size() > 20000, qPrintable(QString::number(svgText.size())));
            QVERIFY(svgText.contains(ChartPanelSpec::of(kind).title.toUtf8()));
            QVERIFY(svgText.contains(ChartPanelSpec::of(kind).leftLabel.toHtmlEscaped().toUtf8()));
        }
        QVERIFY(!view.exportChart(ChartPanelKind::Iops, dir.filePath(QStringLiteral("iops.bmp"))));

        QFile csv(dir.filePath(QStringLiteral("samples.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first() + u'\n', iostatformat::csvHeader());
        QVERIFY(lines.first().startsWith(QStringLiteral("timestamp,Device,r/s,rkB/s,rrqm/s,%rrqm,r_await")));
        QCOMPARE(lines.size(), 1 + 150 * int(mapAndPaths.size()));
        const QStringList first = lines[1].split(u',');
        QCOMPARE(first[1], QStringLiteral("dm-0"));
        QCOMPARE(first[2], QStringLiteral("101.00")); // r/s of the first interval
        QCOMPARE(first.size(), lines.first().split(u',').size());
        QCOMPARE(lines[2].split(u',')[1], QStringLiteral("sdb"));
    }

    void samplerOverATemporaryTree();
};

// ---- a real Sampler over sys/block + proc/diskstats in a temporary directory

namespace {

class CounterTree {
public:
    CounterTree()
    {
        QDir(m_dir.path()).mkpath(QStringLiteral("sys/block"));
        QDir(m_dir.path()).mkpath(QStringLiteral("proc"));
    }
    SysfsRoot root() const
    {
        return SysfsRoot(m_dir.path() + QStringLiteral("/sys"), m_dir.path() + QStringLiteral("/proc"));
    }
    // reads, writes: cumulative counts; 4 kB each, 1 ms each.
    void set(const QString &name, const QString &devnum, quint64 reads, quint64 writes)
    {
        const QString counters = QStringLiteral("%1 0 %2 %3 %4 0 %5 %6 0 %7 %8 0 0 0 0 0 0")
                                     .arg(reads)
                                     .arg(reads * 8)
                                     .arg(reads)
                                     .arg(writes)
                                     .arg(writes * 8)
                                     .arg(writes)
                                     .arg(reads + writes)
                                     .arg(reads + writes);
        m_lines[name] = { devnum, counters };
        QDir(m_dir.path()).mkpath(QStringLiteral("sys/block/") + name);
        write(QStringLiteral("sys/block/%1/stat").arg(name), counters + u'\n');
        write(QStringLiteral("sys/block/%1/dev").arg(name), devnum + u'\n');
        QString text;
        for (auto it = m_lines.cbegin(); it != m_lines.cend(); ++it) {
            const QStringList mm = it->first.split(u':');
            text += QStringLiteral("%1 %2 %3 %4\n").arg(mm[0], 4).arg(mm[1], 7).arg(it.key(), it->second);
        }
        write(QStringLiteral("proc/diskstats"), text);
    }

private:
    void write(const QString &relative, const QString &text)
    {
        QFile f(m_dir.path() + u'/' + relative);
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(text.toUtf8());
    }
    QTemporaryDir m_dir;
    QMap<QString, std::pair<QString, QString>> m_lines;
};

} // namespace

void TestLiveStatsView::samplerOverATemporaryTree()
{
    CounterTree tree;
    tree.set(QStringLiteral("dm-0"), QStringLiteral("253:0"), 1000, 500);
    tree.set(QStringLiteral("sdb"), QStringLiteral("8:16"), 600, 250);
    tree.set(QStringLiteral("sdc"), QStringLiteral("8:32"), 400, 250);

    Sampler sampler(tree.root());
    sampler.setWatched(mapAndPaths);
    SeriesStore store;
    // The store's connection first, as the main window does; the view does not depend on it.
    connect(&sampler, &Sampler::samplesAvailable, this, [&store](const SampleBatch &b) { store.append(b); });
    LiveStatsView view(&sampler, &store);
    view.setDevices(mapAndPaths);

    sampler.sampleNow(); // baseline
    QTest::qWait(50); // deliberate: real time between samples (a batch is an interval, rates are per second of it)
    tree.set(QStringLiteral("dm-0"), QStringLiteral("253:0"), 1100, 520);
    tree.set(QStringLiteral("sdb"), QStringLiteral("8:16"), 660, 260);
    tree.set(QStringLiteral("sdc"), QStringLiteral("8:32"), 440, 260);
    sampler.sampleNow();
    QTest::qWait(50); // deliberate: the ~50 ms interval of the 200 reads below
    tree.set(QStringLiteral("dm-0"), QStringLiteral("253:0"), 1300, 520);
    sampler.sampleNow();

    QCOMPARE(store.sampleCount(QStringLiteral("dm-0")), 2);
    for (ChartPanel *panel : view.panels()) {
        for (const QString &device : mapAndPaths)
            QCOMPARE(panel->pointCount(device, 0), 2);
    }
    // 200 reads of 4 kB in ~50 ms: rates are per second of the real interval.
    const double rps = view.panel(ChartPanelKind::Iops)->lastValue(QStringLiteral("dm-0"), 0);
    QVERIFY2(rps > 200 && rps < 200 / 0.045, qPrintable(QString::number(rps)));
    QCOMPARE(view.panel(ChartPanelKind::RequestSize)->lastValue(QStringLiteral("dm-0"), 0), 4.0);
    QCOMPARE(view.tableModel()->rowCount(), 3);
    QCOMPARE(view.tableModel()->index(0, 0).data(IostatTableModel::DeviceRole).toString(), QStringLiteral("dm-0"));
    QCOMPARE(view.tableModel()->index(0, IostatTableModel::columnOf(Metric::ReadRequestSize)).data().toString(),
        QStringLiteral("4.00"));
    // A rebuild from the store gives the same points.
    view.setWindowSeconds(120);
    QCOMPARE(view.panel(ChartPanelKind::Iops)->pointCount(QStringLiteral("sdc"), 0), 2);
    QVERIFY(std::abs(view.panel(ChartPanelKind::Iops)->lastValue(QStringLiteral("dm-0"), 0) - rps) < 1e-3 * rps);

    // The interval combo sets the sampler's interval; the Keep combo asks the store's owner for a retention.
    auto *interval = view.findChild<QComboBox *>(QStringLiteral("intervalCombo"));
    QVERIFY(interval);
    QCOMPARE(interval->currentData().toInt(), sampler.interval());
    QSignalSpy intervalChosen(&view, &LiveStatsView::intervalChosen);
    interval->setFocus();
    const int fiveSeconds = interval->findData(5000);
    QVERIFY(fiveSeconds >= 0);
    while (interval->currentIndex() != fiveSeconds)
        QTest::keyClick(interval, interval->currentIndex() < fiveSeconds ? Qt::Key_Down : Qt::Key_Up);
    QCOMPARE(sampler.interval(), 5000);
    QCOMPARE(intervalChosen.last().first().toInt(), 5000);
    QVERIFY(view.statusText().contains(QStringLiteral("every 5 s")));

    auto *keep = view.findChild<QComboBox *>(QStringLiteral("retentionCombo"));
    QVERIFY(keep);
    QSignalSpy retentionChosen(&view, &LiveStatsView::retentionChosen);
    keep->setFocus();
    QTest::keyClick(keep, Qt::Key_Down);
    QCOMPARE(retentionChosen.size(), 1);
    QCOMPARE(retentionChosen.first().first().toInt(), 6 * 3600);
    view.setRetentionSeconds(1800);
    QCOMPARE(view.retentionSeconds(), 1800);
}

QTEST_MAIN(TestLiveStatsView)
#include "tst_livestatsview.moc"
