// The recording views offscreen: a recording replayed into a LiveStatsView (charts with points, markers, the
// iostat table), two recordings compared (both on every chart, the statistics table with deltas, the
// configuration diff), and the report written from them: its PDF pages on A4 and US Letter hold every chart
// whole inside the printable area, every recorded point inside its chart's axes. DMTUNE_SCREENSHOT_DIR=DIR saves
// grabs and the report's pages; DMTUNE_COMPARE_FILES="a.dmrec;b.dmrec" uses real recordings instead of the
// synthetic ones. Recordings with latency frames of known histograms: the recording view's Latency tab, the
// report's Latency section and the compare view's Latency tab show the percentiles and changes they must.
#include "app/dmtune/mainwindow.h"
#include "core/recordings/recordingsfolder.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/mustsucceed.h"
#include "tests/common/standardmachine.h"
#include "tests/unit/recordings/syntheticbatches.h"
#include "widgets/charts/chartpanel.h"
#include "widgets/charts/iostattablemodel.h"
#include "widgets/charts/latencydistribution.h"
#include "widgets/charts/latencyheatmap.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/messagebanner.h"
#include "widgets/reports/compareview.h"
#include "widgets/reports/recordingview.h"
#include "widgets/reports/report.h"
#include "widgets/reports/reportdialog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QJsonArray>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

using namespace dmtune;
using namespace dmtune::test;
using namespace Qt::StringLiterals;

class TestRecordingViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void replaysOneRecording();
    void comparesTwo();
    void writesReports();
    void printsEveryChartInsideThePage_data();
    void printsEveryChartInsideThePage();
    void reportEscapesEveryName();
    void exportDialogStartsBesideTheRecordings();
    void mainWindowOpensRecordings();
    void recordingViewShowsLatency();
    void reportShowsLatency_data();
    void reportShowsLatency();
    void comparesLatency();

private:
    void save(QWidget *w, const QString &name);
    static bool chartsDrawn(const QList<ChartPanel *> &panels);
    static void flushLayout();
    QTemporaryDir m_dir;
    QList<Recording> m_recordings;
    Recording m_multipath;
    QList<Recording> m_latency; // dm-0 and sdb with latency frames: #1 fast, #2 twice as slow at the median
    bool m_real = false;
};

namespace {

QJsonObject config(const QString &device, const QString &nomerges)
{
    return { { QStringLiteral("host"), QStringLiteral("lab") },
        { QStringLiteral("kernel"), QStringLiteral("6.1.0-27-amd64") },
        { QStringLiteral("devices"),
            QJsonArray { QJsonObject { { QStringLiteral("name"), device },
                { QStringLiteral("tunables"), QJsonObject { { QStringLiteral("queue/nomerges"), nomerges } } } } } } };
}

const QString fioCommandNote = QStringLiteral(
    "fio command: /usr/bin/fio --name=batched-write-4k --filename=/dev/dm-0 --rw=write --bs=4k --ioengine=libaio "
    "--iodepth=32 --numjobs=1 --direct=1 --time_based --runtime=30 --group_reporting --iodepth_batch_submit=16 "
    "--iodepth_batch_complete_min=8 --status-interval=1 --output-format=json+");

// What the report must print well: a map and four paths under round-robin (four equal lines), the fio command
// line as a note at the start, a parameter change with a long label, and fio's end at the recording's last
// sample (the right edge of every chart).
Recording writeMultipathRecording(const QString &path)
{
    SyntheticBatches gen;
    const QStringList devices { QStringLiteral("dm-0"), QStringLiteral("sdb"), QStringLiteral("sdc"),
        QStringLiteral("sdd"), QStringLiteral("sde") };
    RecordingMeta meta;
    meta.title = QStringLiteral("mpatha, 4 paths, round-robin");
    meta.host = QStringLiteral("lab");
    meta.kernel = QStringLiteral("6.1.0-27-amd64");
    meta.devices = devices;
    auto writer = RecordingWriter::create(path, meta);
    if (!writer)
        qFatal("%s", qPrintable(writer.errorMessage()));
    RecordingWriter &w = *writer.value();
    const auto idle = [](const QString &, DiskCounters &) {};
    for (int i = 0; i < 3; ++i)
        test::mustSucceed(w.addBatch(gen.next(devices, idle)));
    const double start = double(gen.wallMs()) / 1000.0;
    test::mustSucceed(w.addMarker(start, RecordingWriter::fioStartLabel()));
    test::mustSucceed(w.addNote(start, fioCommandNote));
    for (int i = 0; i < 24; ++i) {
        const quint64 perPath = 30000 + quint64(i % 5) * 2000;
        test::mustSucceed(w.addBatch(gen.next(devices, [&](const QString &name, DiskCounters &c) {
            const quint64 writes = name == QLatin1String("dm-0") ? 4 * perPath : perPath; // equal paths
            c[DiskField::WriteIos] += writes / 8;
            c[DiskField::WriteMerges] += name == QLatin1String("dm-0") ? writes * 7 / 8 : 0;
            c[DiskField::WriteSectors] += writes * 8;
            c[DiskField::WriteTicks] += writes / 40;
            c[DiskField::IoTicks] += 990;
            c[DiskField::TimeInQueue] += writes / 30;
        })));
        if (i == 9)
            test::mustSucceed(w.addMarker(
                double(gen.wallMs()) / 1000.0, QStringLiteral("sdb sdc sdd sde queue/scheduler none -> mq-deadline")));
    }
    test::mustSucceed(w.addMarker(double(gen.wallMs()) / 1000.0, RecordingWriter::fioEndLabel()));
    test::mustSucceed(w.finish());
    Result<Recording> rec = readRecording(path);
    if (!rec)
        qFatal("%s", qPrintable(rec.errorMessage()));
    return rec.value();
}

// Per workload interval of dm-0: 900 I/Os in bucket `bucket` and 100 in [1024, 1536) us; sdb the same two buckets
// (half the latency) lower. Before "fio start" and after "fio end" one interval each of 5000 slow I/Os
// ([16, 24) ms) that the workload window must leave out.
DeviceLatency workloadInterval(int bucket)
{
    DeviceLatency l;
    l.device.counts[size_t(bucket)] = 900;
    l.device.counts[21] = 100;
    const double mid = (latencybuckets::lowerUs(bucket) + latencybuckets::upperUs(bucket)) / 2;
    l.device.sumNs = quint64(900 * mid * 1000) + 100 * 1200000ULL;
    return l;
}

DeviceLatency outsideInterval()
{
    DeviceLatency l;
    l.device.counts[31] = 5000;
    l.device.sumNs = 5000 * 20000000ULL;
    return l;
}

Recording writeLatencyRecording(const QString &path, const QString &title, int bucket)
{
    SyntheticBatches gen;
    const QStringList devices { QStringLiteral("dm-0"), QStringLiteral("sdb") };
    RecordingMeta meta;
    meta.title = title;
    meta.host = QStringLiteral("lab");
    meta.kernel = QStringLiteral("6.1.0-27-amd64");
    meta.devices = devices;
    auto writer = RecordingWriter::create(path, meta);
    if (!writer)
        qFatal("%s", qPrintable(writer.errorMessage()));
    RecordingWriter &w = *writer.value();
    const auto writes = [](const QString &, DiskCounters &c) {
        c[DiskField::WriteIos] += 1000;
        c[DiskField::WriteSectors] += 8000;
        c[DiskField::WriteTicks] += 400;
        c[DiskField::IoTicks] += 900;
    };
    const auto add = [&](const DeviceLatency &map, const DeviceLatency &path) {
        test::mustSucceed(w.addBatch(gen.next(devices, writes)));
        test::mustSucceed(w.addLatency({ { devices[0], map }, { devices[1], path } }));
    };
    add(outsideInterval(), outsideInterval());
    test::mustSucceed(w.addMarker(double(gen.wallMs()) / 1000.0, RecordingWriter::fioStartLabel()));
    for (int i = 0; i < 10; ++i)
        add(workloadInterval(bucket), workloadInterval(bucket - 2));
    test::mustSucceed(w.addMarker(double(gen.wallMs()) / 1000.0, RecordingWriter::fioEndLabel()));
    add(outsideInterval(), outsideInterval());
    test::mustSucceed(w.finish());
    Result<Recording> rec = readRecording(path);
    if (!rec)
        qFatal("%s", qPrintable(rec.errorMessage()));
    return rec.value();
}

// What the tables must print for dm-0 of a recording written with `bucket`: the histogram summed here, apart
// from the code under test.
QStringList expectedLatencyCells(int bucket)
{
    LatencyHistogram h;
    for (int i = 0; i < 10; ++i)
        h += workloadInterval(bucket).device;
    QStringList cells { statText(double(h.total())), statText(h.meanUs()) };
    for (double p : ReportedPercentiles)
        cells.append(statText(h.percentileUs(p)));
    return cells;
}

QString partsText(const PrintedChart &chart)
{
    QStringList lines;
    for (const ChartPanel::Part &p : chart.parts) {
        const auto r = [](const QRectF &x) {
            return QStringLiteral("(%1,%2 %3x%4)")
                .arg(x.x(), 0, 'f', 1)
                .arg(x.y(), 0, 'f', 1)
                .arg(x.width(), 0, 'f', 1)
                .arg(x.height(), 0, 'f', 1);
        };
        lines.append(QStringLiteral("  %1 %2 in %3").arg(p.name, r(p.content), r(p.clip)));
    }
    return lines.join(u'\n');
}

// Pixels not white (a little tolerance for antialiasing) outside `inside`.
qint64 inkOutside(const QImage &page, const QRect &inside)
{
    qint64 n = 0;
    const QImage img = page.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < img.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(img.constScanLine(y));
        for (int x = 0; x < img.width(); ++x) {
            if (!inside.contains(x, y) && qRed(line[x]) + qGreen(line[x]) + qBlue(line[x]) < 3 * 245)
                ++n;
        }
    }
    return n;
}

} // namespace

void TestRecordingViews::initTestCase()
{
    m_multipath = writeMultipathRecording(m_dir.filePath(QStringLiteral("mpatha.dmrec")));
    m_latency.append(
        writeLatencyRecording(m_dir.filePath(QStringLiteral("lat-a.dmrec")), QStringLiteral("mq-deadline"), 15));
    m_latency.append(writeLatencyRecording(m_dir.filePath(QStringLiteral("lat-b.dmrec")), QStringLiteral("none"), 17));
    // The expected numbers by hand, once: 900 I/Os in [128, 192) us and 100 in [1024, 1536) us per interval.
    QCOMPARE(expectedLatencyCells(15),
        QStringList({ QStringLiteral("10000"), QStringLiteral("264"), QStringLiteral("164"), QStringLiteral("192"),
            QStringLiteral("1485"), QStringLiteral("1531") }));
    const QString files = qEnvironmentVariable("DMTUNE_COMPARE_FILES");
    if (!files.isEmpty()) {
        for (const QString &f : files.split(QLatin1Char(';'))) {
            const Result<Recording> r = readRecording(f);
            QVERIFY2(r, qPrintable(r.errorMessage()));
            m_recordings.append(r.value());
        }
        m_real = true;
        return;
    }
    m_recordings.append(writeSyntheticRecording(m_dir.filePath(QStringLiteral("a.dmrec")), QStringLiteral("nomerges=0"),
        { QStringLiteral("loop0") }, 800, config(QStringLiteral("loop0"), QStringLiteral("0"))));
    m_recordings.append(writeSyntheticRecording(m_dir.filePath(QStringLiteral("b.dmrec")), QStringLiteral("nomerges=2"),
        { QStringLiteral("loop0") }, 0, config(QStringLiteral("loop0"), QStringLiteral("2"))));
}

void TestRecordingViews::save(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("DMTUNE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        w->grab().save(dir + QLatin1Char('/') + name);
}

// Every chart shown has been replotted at its laid-out size (a resize replots at once, the rest is queued).
bool TestRecordingViews::chartsDrawn(const QList<ChartPanel *> &panels)
{
    for (const ChartPanel *panel : panels) {
        if (panel->isVisible() && (panel->replotCount() == 0 || panel->plotArea().isEmpty()))
            return false;
    }
    return true;
}

// A tab just made current is laid out on posted events; nothing asynchronous is involved.
void TestRecordingViews::flushLayout()
{
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
}

void TestRecordingViews::replaysOneRecording()
{
    RecordingView view(m_recordings.first());
    view.resize(1280, 720); // a laptop's screen (the pictures in docs/recordings.md)
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(chartsDrawn(view.statsView()->panels()));
    LiveStatsView *stats = view.statsView();
    QVERIFY(stats->isPaused());
    // A replay: no live controls, and it cannot be "resumed" into scrolling towards now.
    QVERIFY(stats->isReplay());
    QVERIFY(!stats->findChild<QWidget *>(QStringLiteral("intervalCombo"))->isVisible());
    QVERIFY(!stats->findChild<QWidget *>(QStringLiteral("pauseButton"))->isVisible());
    QVERIFY(stats->statusText().contains(QLatin1String("Recorded")));
    stats->setPaused(false);
    QVERIFY(stats->isPaused());
    const QString device = m_recordings.first().deviceNames().first();
    QCOMPARE(stats->devices(), m_recordings.first().deviceNames());
    ChartPanel *iops = stats->panel(ChartPanelKind::Iops);
    QVERIFY(iops->pointCount(device, 1) >= 10); // w/s, every replayed interval
    QVERIFY(iops->markerCount() >= 2); // fio start, fio end
    // The whole recording is in view, not the last minute of a live window.
    QVERIFY(iops->visibleLower() <= m_recordings.first().startSeconds());
    QVERIFY(iops->visibleUpper() >= m_recordings.first().endSeconds());
    QVERIFY(stats->tableModel()->rowCount() >= 1);
    QVERIFY(view.summaryText().contains(m_recordings.first().meta.kernel));
    save(&view, QStringLiteral("recording-view.png"));
}

void TestRecordingViews::comparesTwo()
{
    CompareView view;
    view.resize(1280, 720);
    view.setRecordings(m_recordings);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(chartsDrawn(view.panels()));
    const QString a = QStringLiteral("1:") + m_recordings[0].deviceNames().first();
    const QString b = QStringLiteral("2:") + m_recordings[1].deviceNames().first();
    QCOMPARE(view.panels().size(), ChartPanelCount);
    for (ChartPanel *panel : view.panels()) {
        QVERIFY2(panel->pointCount(a, 0) >= 10 && panel->pointCount(b, 0) >= 10, qPrintable(panel->spec().title));
        QVERIFY(panel->visibleLower() < 0 && panel->visibleUpper() > 0); // aligned: the workload starts at 0
    }
    // Merges: both recordings' wrqm/s; at x > 0 (the workload) the first merges, the second does not.
    ChartPanel *merges = view.panels()[int(ChartPanelKind::Merges)];
    QVERIFY(merges->lastValue(a, 1) >= 0);
    save(&view, QStringLiteral("compare-charts.png"));

    QTableWidget *stats = view.statsTable();
    int wrqmRow = -1;
    for (int r = 0; r < stats->rowCount(); ++r) {
        if (stats->item(r, 1)->text().startsWith(QStringLiteral("wrqm/s")))
            wrqmRow = r;
    }
    QVERIFY(wrqmRow >= 0);
    QVERIFY(stats->item(wrqmRow, 2)->text().toDouble() > 0); // 1 mean
    QCOMPARE(stats->item(wrqmRow, 6)->text(), QStringLiteral("0.00")); // 2 mean
    QCOMPARE(stats->item(wrqmRow, 10)->text(), QStringLiteral("-100 %")); // Δ mean
    view.tabs()->setCurrentIndex(1);
    QTRY_VERIFY(view.statsTable()->isVisible());
    flushLayout();
    save(&view, QStringLiteral("compare-stats.png"));

    QTableWidget *diff = view.diffTable();
    bool nomerges = false;
    for (int r = 0; r < diff->rowCount(); ++r)
        nomerges = nomerges || diff->item(r, 0)->text().endsWith(QStringLiteral("tunable queue/nomerges"));
    QVERIFY(nomerges);
    view.tabs()->setCurrentIndex(2);
    QTRY_VERIFY(view.diffTable()->isVisible());
    flushLayout();
    save(&view, QStringLiteral("compare-diff.png"));

    // Export report… says what it did in this window, not in the main window behind it.
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("fileDialogs"));
    auto *banner = view.findChild<MessageBanner *>(QStringLiteral("exportMessage"));
    QVERIFY(banner && !banner->isVisible());
    QPushButton *exportButton = nullptr;
    for (QPushButton *button : view.findChildren<QPushButton *>()) {
        if (button->text() == QString::fromUtf8("Export report…"))
            exportButton = button;
    }
    QVERIFY(exportButton);
    QSignalSpy exported(&view, &CompareView::reportExported);
    exportButton->click();
    auto *dialog = view.findChild<QFileDialog *>();
    QVERIFY(dialog);
    const QString out = m_dir.filePath(QStringLiteral("compare-export.html"));
    Q_EMIT dialog->fileSelected(out);
    QCOMPARE(exported.count(), 1);
    QVERIFY(banner->isVisible());
    QCOMPARE(banner->tone(), MessageTone::Positive);
    QVERIFY2(banner->text().contains(out), qPrintable(banner->text()));
    dialog->close();
    QFile::remove(out);
}

void TestRecordingViews::writesReports()
{
    const Result<Report> report = buildReport(m_recordings);
    QVERIFY2(report, qPrintable(report.errorMessage()));
    QCOMPARE(report->charts.size(), ChartPanelCount);
    for (const ReportChart &c : report->charts)
        QVERIFY(!c.image.isNull() && c.image.width() == 960);
    const QString html = m_dir.filePath(QStringLiteral("r.html"));
    const QString pdf = m_dir.filePath(QStringLiteral("r.pdf"));
    QVERIFY(writeReport(report.value(), html));
    QVERIFY(writeReport(report.value(), pdf));
    QVERIFY(!writeReport(report.value(), m_dir.filePath(QStringLiteral("r.txt"))));
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.read(5) == QByteArrayLiteral("%PDF-"));
    QVERIFY(QFileInfo(html).size() > 20000);
}

void TestRecordingViews::printsEveryChartInsideThePage_data()
{
    QTest::addColumn<ReportPaper>("paper");
    QTest::addColumn<bool>("multipath");
    QTest::addColumn<bool>("latency");
    QTest::newRow("A4, two recordings") << ReportPaper::A4 << false << false;
    QTest::newRow("Letter, two recordings") << ReportPaper::Letter << false << false;
    QTest::newRow("A4, a map and its paths") << ReportPaper::A4 << true << false;
    QTest::newRow("Letter, a map and its paths") << ReportPaper::Letter << true << false;
    QTest::newRow("A4, two recordings with latency") << ReportPaper::A4 << false << true;
    QTest::newRow("Letter, one recording with latency") << ReportPaper::Letter << true << true;
}

void TestRecordingViews::printsEveryChartInsideThePage()
{
    QFETCH(ReportPaper, paper);
    QFETCH(bool, multipath);
    QFETCH(bool, latency);
    const QList<Recording> recordings = latency ? (multipath ? QList<Recording> { m_latency.first() } : m_latency)
                                                : (multipath ? QList<Recording> { m_multipath } : m_recordings);
    const Result<Report> report = buildReport(recordings);
    QVERIFY2(report, qPrintable(report.errorMessage()));

    // The pages as the PDF has them, at 72 dpi: a pixel is a point.
    PrintedReport printed;
    const QList<QImage> pages = renderReportPages(report.value(), paper, 72, &printed);
    const QRectF page = printed.layout.fullRect(QPageLayout::Point);
    const QRectF printable = printed.layout.paintRect(QPageLayout::Point);
    QCOMPARE(printed.layout.pageSize().id(), paper == ReportPaper::A4 ? QPageSize::A4 : QPageSize::Letter);
    QCOMPARE(pages.size(), printed.pageCount);
    QVERIFY(printed.pageCount >= 3);
    const QString dir = qEnvironmentVariable("DMTUNE_SCREENSHOT_DIR");
    const QString tag = QString::fromLatin1(QTest::currentDataTag())
                            .replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("-"));
    for (qsizetype i = 0; i < pages.size(); ++i) {
        QCOMPARE(pages[i].size(), page.size().toSize());
        if (!dir.isEmpty())
            pages[i].save(QStringLiteral("%1/report-%2-page%3.png").arg(dir, tag).arg(i + 1));
        // Nothing at all in the margins: no chart, table or line of text runs past the printable area.
        const QRect inside = printable.toAlignedRect().adjusted(-1, -1, 1, 1);
        const qint64 ink = inkOutside(pages[i], inside);
        QVERIFY2(
            ink == 0, qPrintable(QStringLiteral("page %1: %2 pixels outside the printable area").arg(i + 1).arg(ink)));
    }

    // Every chart once, whole on one page, inside the printable area, and every drawn part of it (title, legend
    // entries, tick labels, axis titles, marker tags) whole: inside what it is clipped to and inside the chart.
    QCOMPARE(printed.charts.size(), qsizetype(ChartPanelCount));
    QSet<QString> ids;
    for (const PrintedChart &chart : printed.charts) {
        ids.insert(chart.id);
        const QString what = QStringLiteral("%1 on page %2 at (%3,%4 %5x%6), printable (%7,%8 %9x%10):\n%11")
                                 .arg(chart.id)
                                 .arg(chart.page + 1)
                                 .arg(chart.rect.x())
                                 .arg(chart.rect.y())
                                 .arg(chart.rect.width())
                                 .arg(chart.rect.height())
                                 .arg(printable.x())
                                 .arg(printable.y())
                                 .arg(printable.width())
                                 .arg(printable.height())
                                 .arg(partsText(chart));
        QVERIFY2(printable.contains(chart.rect), qPrintable(what));
        QVERIFY2(chart.rect.width() > printable.width() - 2, qPrintable(what)); // laid out for the page's width
        QStringList names;
        const QRectF bounds = chart.rect.adjusted(-0.01, -0.01, 0.01, 0.01);
        for (const ChartPanel::Part &part : chart.parts) {
            names.append(part.name);
            const bool whole
                = part.clip.adjusted(-0.01, -0.01, 0.01, 0.01).contains(part.content) && bounds.contains(part.content);
            QVERIFY2(whole, qPrintable(part.name + QStringLiteral(" is cut: ") + what));
            // Markers are numbered tags: no label (the fio command note) is drawn over the data.
            if (part.name.startsWith(QLatin1String("marker: ")))
                QVERIFY2(QRegularExpression(QStringLiteral("^marker: [0-9,]+$")).match(part.name).hasMatch(),
                    qPrintable(part.name));
        }
        const ChartPanelSpec &spec = ChartPanelSpec::of(chart.kind);
        for (const QString &expected :
            { QStringLiteral("title"), QStringLiteral("bottom axis title"), QStringLiteral("left axis title") })
            QVERIFY2(names.contains(expected), qPrintable(expected + QStringLiteral(" missing: ") + what));
        QCOMPARE(names.contains(QStringLiteral("right axis title")), !spec.rightLabel.isEmpty());
        for (const ChartDevice &d : report->aligned.devices)
            QVERIFY2(names.contains(QStringLiteral("legend: ") + d.displayName()), qPrintable(what));
        QVERIFY2(names.filter(QRegularExpression(QStringLiteral("^marker: "))).size() >= 1, qPrintable(what));
        // Titles are whole, not shortened: the page is wide enough.
        // Every recorded point inside the axes' ranges: nothing is drawn off the plot.
        const ChartPanel::Ranges &r = chart.ranges;
        for (const ChartDevice &d : report->aligned.devices) {
            for (const TimedMetrics &tm : report->aligned.histories.value(d.name)) {
                QVERIFY2(tm.time >= r.xLower && tm.time <= r.xUpper, qPrintable(what));
                for (const ChartSeriesSpec &series : spec.series) {
                    const double v = series.value(tm.metrics);
                    const double lower = series.rightAxis ? r.rightLower : r.leftLower;
                    const double upper = series.rightAxis ? r.rightUpper : r.leftUpper;
                    QVERIFY2(v >= lower && v <= upper,
                        qPrintable(QStringLiteral("%1 %2 %3 = %4 outside %5..%6")
                                       .arg(chart.id, d.name, series.name)
                                       .arg(v)
                                       .arg(lower)
                                       .arg(upper)));
                }
            }
        }
        for (const ChartMarker &m : report->aligned.markers)
            QVERIFY2(m.time > r.xLower && m.time < r.xUpper, qPrintable(m.label)); // not on the frame
    }
    QCOMPARE(ids.size(), qsizetype(ChartPanelCount));
    // Charts on the same page do not overlap.
    for (qsizetype i = 0; i < printed.charts.size(); ++i) {
        for (qsizetype j = i + 1; j < printed.charts.size(); ++j) {
            if (printed.charts[i].page == printed.charts[j].page)
                QVERIFY(!printed.charts[i].rect.intersects(printed.charts[j].rect));
        }
    }
    // Every section is there, laid out and on a page (QTextDocument's lazy layout once left the blocks after a
    // long table without lines: "Metric formulas" vanished).
    QStringList headings;
    for (const PrintedHeading &h : printed.headings) {
        headings.append(h.text);
        QVERIFY2(h.lines > 0 && h.height > 0 && h.page >= 0 && h.page < printed.pageCount, qPrintable(h.text));
    }
    for (const QString &section : { QStringLiteral("Recordings"), QStringLiteral("Charts"),
             QStringLiteral("Summary statistics"), QStringLiteral("Configuration"), QStringLiteral("Metric formulas") })
        QVERIFY2(headings.contains(section), qPrintable(headings.join(u'|')));
    if (latency)
        QVERIFY(!report->latency.isEmpty());
    QCOMPARE(headings.contains(QStringLiteral("Latency")), !report->latency.isEmpty());
    // A table that fits on a page is not split over two (the Summary statistics broke after 2 rows).
    QVERIFY(!printed.tables.isEmpty());
    for (const PrintedTable &t : printed.tables) {
        if (t.height < printable.height() - 4)
            QVERIFY2(t.firstPage == t.lastPage,
                qPrintable(QStringLiteral("table under \"%1\": pages %2 to %3")
                               .arg(t.heading)
                               .arg(t.firstPage + 1)
                               .arg(t.lastPage + 1)));
    }

    // The PDF itself: the same layout, on pages of that size.
    const QString pdf = m_dir.filePath(tag + QStringLiteral(".pdf"));
    PrintedReport written;
    QVERIFY(writePdfReport(report.value(), pdf, paper, &written));
    QCOMPARE(written.pageCount, printed.pageCount);
    QCOMPARE(written.charts.size(), printed.charts.size());
    for (qsizetype i = 0; i < written.charts.size(); ++i) {
        QCOMPARE(written.charts[i].page, printed.charts[i].page);
        QCOMPARE(written.charts[i].rect, printed.charts[i].rect);
    }
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    const QByteArray mediaBox = paper == ReportPaper::A4 ? QByteArrayLiteral("/MediaBox [0 0 595.000000 842.000000]")
                                                         : QByteArrayLiteral("/MediaBox [0 0 612.000000 792.000000]");
    QVERIFY2(bytes.count(mediaBox) == printed.pageCount, bytes.left(2000).constData());
    if (!dir.isEmpty())
        QFile::copy(pdf, QStringLiteral("%1/report-%2.pdf").arg(dir, tag));
}

void TestRecordingViews::reportEscapesEveryName()
{
    // A recording is a file someone sends: its name, title, device names, markers, notes and fio's job names
    // are text from outside and must reach the HTML as text, never as markup.
    const QString evil = QStringLiteral("<img src=x onerror=alert(1)>");
    const QString path = m_dir.filePath(evil + QStringLiteral(".dmrec"));
    QJsonObject configuration = config(QStringLiteral("<svg onload=1>"), QStringLiteral("<blink>0</blink>"));
    Recording rec = writeSyntheticRecording(
        path, QStringLiteral("<script>alert(2)</script>"), { QStringLiteral("<svg onload=1>") }, 800, configuration);
    rec.markers.append({ rec.startSeconds() + 1, QStringLiteral("<marquee>marker</marquee>") });
    rec.notes.append({ rec.startSeconds() + 2, QStringLiteral("<marquee>note</marquee>") });
    rec.fioResults.append({ { QStringLiteral("fio"), QStringLiteral("--name=<marquee>job</marquee>") },
        QJsonObject { { QStringLiteral("jobs"),
            QJsonArray { QJsonObject { { QStringLiteral("jobname"), QStringLiteral("<marquee>job</marquee>") },
                { QStringLiteral("write"),
                    QJsonObject { { QStringLiteral("iops"), 100 }, { QStringLiteral("total_ios"), 400 } } } } } } } });
    rec.truncated = true;
    rec.truncation = QStringLiteral("<marquee>cut</marquee> %1 %2");
    const Result<Report> report = buildReport({ rec, m_recordings.first() });
    QVERIFY2(report, qPrintable(report.errorMessage()));
    for (const bool forPrint : { false, true }) {
        const QString html = reportHtml(
            report.value(), [](const ReportChart &) { return QStringLiteral("x.png"); }, forPrint);
        QVERIFY2(!html.contains(QStringLiteral("<img src=x")), qPrintable(html.left(3000)));
        QVERIFY(!html.contains(QStringLiteral("<script>")));
        QVERIFY(!html.contains(QStringLiteral("<svg")));
        QVERIFY(!html.contains(QStringLiteral("<blink>")));
        QVERIFY(!html.contains(QStringLiteral("<marquee>")));
        QVERIFY(html.contains(QStringLiteral("&lt;svg onload=1&gt;")));
        QVERIFY(html.contains(QStringLiteral("&lt;marquee&gt;job&lt;/marquee&gt;")));
        QVERIFY(html.contains(QStringLiteral("&lt;img src=x onerror=alert(1)&gt;.dmrec")));
        QVERIFY(html.contains(QStringLiteral("&lt;script&gt;alert(2)&lt;/script&gt;")));
        QVERIFY(html.contains(QStringLiteral("&lt;marquee&gt;cut&lt;/marquee&gt; %1 %2"))); // placeholders kept as text
    }
    // Written to the file the same way.
    const QString out = m_dir.filePath(QStringLiteral("evil.html"));
    QVERIFY(writeReport(report.value(), out));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(!f.readAll().contains("<img src=x"));
    // Reports are written whole and never through a symbolic link planted at the name (HTML and PDF).
    const QString victim = m_dir.filePath(QStringLiteral("victim"));
    QFile v(victim);
    QVERIFY(v.open(QIODevice::WriteOnly));
    v.write("precious");
    v.close();
    for (const QString &name : { QStringLiteral("link.html"), QStringLiteral("link.pdf") }) {
        const QString link = m_dir.filePath(name);
        QVERIFY(QFile::link(victim, link));
        const Status s = writeReport(report.value(), link);
        QVERIFY(!s);
        QVERIFY2(s.errorMessage().contains(QStringLiteral("symbolic link")), qPrintable(s.errorMessage()));
        QCOMPARE(QFileInfo(victim).size(), qint64(8));
    }
    QVERIFY(!writeReport(report.value(), out)); // an existing report is kept unless the user asked
    QVERIFY(writeReport(report.value(), out, defaultReportPaper(), ExistingFile::Replace)); // replaced when asked
    QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral("*.part") }, QDir::Files), QStringList());
}

void TestRecordingViews::exportDialogStartsBesideTheRecordings()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("fileDialogs"));
    QWidget parent;
    QString writtenPath;
    QString error = QStringLiteral("not called");
    QFileDialog *dialog = exportReportWithDialog(&parent, m_recordings, [&](const QString &path, const QString &e) {
        writtenPath = path;
        error = e;
    });
    QVERIFY(dialog);
    // Not the process's current directory: the recordings' own folder, with a name made from the first.
    const QString folder = QFileInfo(m_recordings.first().path).absolutePath();
    QVERIFY(folder != QDir::currentPath());
    QCOMPARE(dialog->directory().absolutePath(), folder);
    const QString base = QFileInfo(m_recordings.first().path).completeBaseName();
    QCOMPARE(dialog->selectedFiles().value(0), QDir(folder).filePath(base + QStringLiteral("-report.html")));
    // Both papers offered for the PDF; the Letter filter writes a Letter PDF.
    const QStringList filters = dialog->nameFilters();
    QVERIFY2(filters.contains(QStringLiteral("PDF report, A4 (*.pdf)")), qPrintable(filters.join(u'|')));
    QVERIFY2(filters.contains(QStringLiteral("PDF report, US Letter (*.pdf)")), qPrintable(filters.join(u'|')));
    dialog->selectNameFilter(QStringLiteral("PDF report, US Letter (*.pdf)"));
    Q_EMIT dialog->filterSelected(QStringLiteral("PDF report, US Letter (*.pdf)"));
    QCOMPARE(dialog->defaultSuffix(), QStringLiteral("pdf"));
    QCOMPARE(dialog->selectedFiles().value(0), QDir(folder).filePath(base + QStringLiteral("-report.pdf")));
    const QString exports = m_dir.filePath(QStringLiteral("exports"));
    QVERIFY(QDir().mkpath(exports));
    const QString out = QDir(exports).filePath(QStringLiteral("letter.pdf"));
    Q_EMIT dialog->fileSelected(out);
    QCOMPARE(error, QString());
    QCOMPARE(writtenPath, out);
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("/MediaBox [0 0 612.000000 792.000000]"));
    dialog->close();

    // The next report starts where this one went, whatever the recordings' folder.
    QFileDialog *next = exportReportWithDialog(&parent, m_recordings, [](const QString &, const QString &) {});
    QCOMPARE(next->directory().absolutePath(), exports);
    QCOMPARE(next->selectedFiles().value(0), QDir(exports).filePath(base + QStringLiteral("-report.html")));
    next->close();

    // A recording without a folder of its own (read from bytes), nothing remembered: the recordings folder.
    QSettings().remove(QStringLiteral("fileDialogs"));
    Recording orphan = m_recordings.first();
    orphan.path.clear();
    QFileDialog *second = exportReportWithDialog(&parent, { orphan }, [](const QString &, const QString &) {});
    QCOMPARE(second->directory().absolutePath(), recordingsDirectory());
    second->close();

    // The recordings folder: $XDG_DATA_HOME/dmtune/recordings, "dmtune" once.
    const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    QCOMPARE(recordingsDirectory(), data + QStringLiteral("/dmtune/recordings"));
    QVERIFY(!recordingsDirectory().contains(QStringLiteral("dmtune/dmtune")));
    // The folder of earlier versions is where dialogs start only while it alone holds recordings.
    QDir(recordingsDirectory()).removeRecursively();
    QDir(legacyRecordingsDirectory()).removeRecursively();
    QCOMPARE(recordingsBrowseDirectory(), recordingsDirectory());
    QVERIFY(QFileInfo(recordingsDirectory()).isDir()); // made, so that a dialog can start there
    QVERIFY(QDir().mkpath(legacyRecordingsDirectory()));
    QVERIFY(QFile::copy(m_recordings.first().path, legacyRecordingsDirectory() + QStringLiteral("/old.dmrec")));
    QCOMPARE(recordingsBrowseDirectory(), legacyRecordingsDirectory());
    QVERIFY(QFile::copy(m_recordings.first().path, recordingsDirectory() + QStringLiteral("/new.dmrec")));
    QCOMPARE(recordingsBrowseDirectory(), recordingsDirectory());
    QDir(recordingsDirectory()).removeRecursively();
    QDir(QFileInfo(legacyRecordingsDirectory()).absolutePath()).removeRecursively();
}

void TestRecordingViews::mainWindowOpensRecordings()
{
    QStandardPaths::setTestModeEnabled(true);
    test::FakeSysfs fake;
    QVERIFY(fake.isValid());
    buildStandardMachine(fake);
    MainWindow window(SysfsRoot(fake.root(), QString()));
    QMenu *file = nullptr;
    for (QAction *a : window.menuBar()->actions()) {
        if (a->text() == QStringLiteral("&File"))
            file = a->menu();
    }
    QVERIFY(file);
    QStringList entries;
    for (QAction *a : file->actions())
        entries.append(a->text());
    for (const char *entry : { "&Open recording…", "&Compare recordings…", "&Export report…", "&Quit" })
        QVERIFY2(entries.contains(QString::fromUtf8(entry)), qPrintable(entries.join(QLatin1Char('|'))));
    // Explain recording… is with the recording entries, above the separator and Quit, not below Quit.
    const qsizetype explain = entries.indexOf(QString::fromUtf8("Explain &recording…"));
    const qsizetype quit = entries.indexOf(QStringLiteral("&Quit"));
    QVERIFY2(explain >= 0 && explain < quit, qPrintable(entries.join(QLatin1Char('|'))));
    QVERIFY2(
        file->actions().at(quit - 1)->isSeparator() && explain == quit - 2, qPrintable(entries.join(QLatin1Char('|'))));
    // File > Export report… asks for the recordings first, in the recordings folder (not the current directory).
    for (QAction *a : file->actions()) {
        if (a->text() == QString::fromUtf8("&Export report…"))
            a->trigger();
    }
    auto *chooser = window.findChild<QFileDialog *>(QStringLiteral("chooseRecordings"));
    QVERIFY(chooser);
    QCOMPARE(chooser->directory().absolutePath(), recordingsDirectory());
    QVERIFY(!chooser->directory().absolutePath().contains(QStringLiteral("dmtune/dmtune")));
    chooser->close();

    QWidget *single = window.openRecordings({ m_recordings[0].path });
    QVERIFY(qobject_cast<RecordingView *>(single));
    QVERIFY(single->isWindow() && single->isVisible());
    QWidget *both = window.openRecordings({ m_recordings[0].path, m_recordings[1].path });
    auto *compare = qobject_cast<CompareView *>(both);
    QVERIFY(compare);
    QCOMPARE(compare->recordings().size(), 2);
    QString error;
    QVERIFY(!window.openRecordings({ m_dir.filePath(QStringLiteral("missing.dmrec")) }, &error));
    QVERIFY2(error.contains(QStringLiteral("missing.dmrec")), qPrintable(error));
    single->close();
    both->close();
}

void TestRecordingViews::recordingViewShowsLatency()
{
    // Without latency frames: the view as it was, no tabs, no latency table.
    {
        RecordingView plain(m_multipath);
        QVERIFY(!plain.tabs());
        QVERIFY(!plain.latencyTable());
        QVERIFY(!plain.latencyHeatMap(m_multipath.deviceNames().first()));
    }
    RecordingView view(m_latency.first());
    view.resize(1280, 720);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.tabs());
    QCOMPARE(view.tabs()->count(), 2);
    QCOMPARE(view.tabs()->tabText(1), QStringLiteral("Latency"));
    view.tabs()->setCurrentIndex(1);
    // The Latency page laid out: the table shown and each heat map at its height (not a hidden widget's default).
    const auto latencyPageLaidOut = [&view] {
        for (const QString &device : { QStringLiteral("dm-0"), QStringLiteral("sdb") }) {
            const LatencyHeatMap *map = view.latencyHeatMap(device);
            if (!map || !map->isVisible() || map->height() < 200)
                return false;
        }
        return view.latencyTable()->isVisible();
    };
    flushLayout();
    QTRY_VERIFY(latencyPageLaidOut());

    // The table: a row per device, the workload window's numbers (the slow intervals outside it left out).
    QTableWidget *table = view.latencyTable();
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("dm-0"));
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("sdb"));
    const QStringList expected = expectedLatencyCells(15);
    QCOMPARE(table->columnCount(), expected.size() + 1);
    for (int col = 0; col < expected.size(); ++col)
        QCOMPARE(table->item(0, col + 1)->text(), expected[col]);
    QCOMPARE(table->horizontalHeaderItem(3)->text(), QStringLiteral("p50 (µs)"));
    QCOMPARE(table->horizontalHeaderItem(6)->text(), QStringLiteral("p99.9 (µs)"));
    QVERIFY(table->isVisible()); // every row whole, not scrolled
    QVERIFY(table->rowViewportPosition(1) + table->rowHeight(1) <= table->viewport()->height());

    // A heat map per device over the whole recording: an interval per batch, x from the workload start.
    for (const QString &device : { QStringLiteral("dm-0"), QStringLiteral("sdb") }) {
        LatencyHeatMap *map = view.latencyHeatMap(device);
        QVERIFY(map);
        QVERIFY(map->isVisible() && map->height() >= 200);
        QCOMPARE(map->intervalCount(), 12);
        QCOMPARE(map->intervalIos(0), quint64(5000)); // before the start: drawn, not in the table
        QCOMPARE(map->intervalIos(1), quint64(1000));
        QCOMPARE(map->cellShare(1, device == QLatin1String("dm-0") ? 15 : 13), 0.9);
        QCOMPARE(map->cellShare(1, 21), 0.1);
        QCOMPARE(map->drawnMarkerKeys().size(), 2); // fio start and end
        QVERIFY(map->drawnMarkerKeys().contains(0.0)); // x = 0 at the workload start
    }
    save(&view, QStringLiteral("recording-view-latency.png"));

    // DMTUNE_COMPARE_FILES with latency frames (run --histogram): the same tab over a real recording.
    if (m_real && !latencyDevices(m_recordings.first()).isEmpty()) {
        RecordingView real(m_recordings.first());
        real.resize(1280, 720);
        real.show();
        QVERIFY(QTest::qWaitForWindowExposed(&real));
        real.tabs()->setCurrentIndex(1);
        QTRY_VERIFY(real.latencyTable()->isVisible());
        flushLayout();
        QVERIFY(real.latencyTable()->rowCount() >= 1);
        QVERIFY(real.latencyTable()->item(0, 1)->text().toDouble() > 0);
        save(&real, QStringLiteral("recording-view-latency-real.png"));
    }
}

void TestRecordingViews::reportShowsLatency_data()
{
    QTest::addColumn<bool>("forPrint");
    QTest::newRow("html") << false;
    QTest::newRow("print") << true;
}

void TestRecordingViews::reportShowsLatency()
{
    QFETCH(bool, forPrint);
    const auto html = [&](const Report &r) {
        return reportHtml(
            r, [](const ReportChart &c) { return c.id + QStringLiteral(".png"); }, forPrint);
    };
    const QString td = QStringLiteral("<td align=\"right\">%1</td>");

    // One recording: the devices' table with the window's numbers, a heat map per device.
    const Result<Report> one = buildReport({ m_latency.first() });
    QVERIFY2(one, qPrintable(one.errorMessage()));
    QCOMPARE(one->latency.size(), 2);
    QCOMPARE(one->latencyCharts.size(), 2);
    for (const ReportLatencyChart &c : one->latencyCharts)
        QVERIFY(!c.chart.image.isNull() && c.chart.image.width() == 960);
    QString text = html(one.value());
    QVERIFY(text.contains(QStringLiteral("<h2>Latency</h2>")));
    QString row = QStringLiteral("<tr><td>dm-0</td>");
    for (const QString &cell : expectedLatencyCells(15))
        row += td.arg(cell);
    QVERIFY2(text.contains(row + QStringLiteral("</tr>")), qPrintable(row));
    QVERIFY(text.contains(QStringLiteral("latency-1-1.png")) && text.contains(QStringLiteral("latency-1-2.png")));

    // Two: a table per slot with each recording's value and the change against #1, the distributions overlaid.
    const Result<Report> two = buildReport(m_latency);
    QVERIFY2(two, qPrintable(two.errorMessage()));
    QCOMPARE(two->latencyCharts.size(), 2 + 2 * 2);
    text = html(two.value());
    const QStringList a = expectedLatencyCells(15);
    const QStringList b = expectedLatencyCells(17);
    // p50 doubles (the same shape one octave up), p99 stays in the shared slow bucket.
    QVERIFY2(text.contains(QStringLiteral("<tr><td>p50 (µs)</td>") + td.arg(a[2]) + td.arg(b[2]) + td.arg(u"+164"_s)
                 + td.arg(u"+100 %"_s) + QStringLiteral("</tr>")),
        qPrintable(text.mid(text.indexOf(QStringLiteral("<h2>Latency")), 3000)));
    QVERIFY(text.contains(
        QStringLiteral("<tr><td>p99 (µs)</td>") + td.arg(a[4]) + td.arg(b[4]) + td.arg(u"0"_s) + td.arg(u"0.0 %"_s)));
    QVERIFY(text.contains(QStringLiteral("<tr><td>mean (µs)</td>") + td.arg(u"264"_s) + td.arg(u"408"_s)
        + td.arg(u"+144"_s) + td.arg(u"+55 %"_s)));
    QVERIFY(text.contains(QStringLiteral("latency-slot-1.png")));

    // Without latency frames: no section, no heading, no zeros.
    const Result<Report> none = buildReport({ m_multipath, m_multipath });
    QVERIFY(none);
    QVERIFY(none->latency.isEmpty() && none->latencyCharts.isEmpty());
    text = html(none.value());
    QVERIFY(!text.contains(QStringLiteral(">Latency<")));
    QVERIFY(!text.contains(QStringLiteral("p99.9")));
}

void TestRecordingViews::comparesLatency()
{
    CompareView view;
    view.resize(1280, 720);
    view.setRecordings({ m_multipath, m_multipath }); // no latency: no tab
    QCOMPARE(view.tabs()->count(), 3);
    view.setRecordings(m_latency);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.tabs()->count(), 4);
    QCOMPARE(view.tabs()->tabText(3), QStringLiteral("Latency"));
    view.tabs()->setCurrentIndex(3);
    // The Latency tab laid out: its first chart shown at its height (not a hidden widget's default).
    flushLayout();
    QTRY_VERIFY(!view.latencyCharts().isEmpty() && view.latencyCharts().first()->isVisible()
        && view.latencyCharts().first()->height() >= 200);

    QCOMPARE(view.latencyRows().size(), 2);
    QTableWidget *table = view.latencyTable();
    QCOMPARE(table->columnCount(), 6); // device, statistic, #1, #2, Δ #2, Δ #2 (%)
    QCOMPARE(table->rowCount(), 2 * 6);
    const auto rowOf = [&](const QString &device, const QString &statistic) {
        QString slot;
        for (int r = 0; r < table->rowCount(); ++r) {
            slot = table->item(r, 0)->text().isEmpty() ? slot : table->item(r, 0)->text();
            if (slot == device && table->item(r, 1)->text() == statistic)
                return r;
        }
        return -1;
    };
    const auto texts = [&](int r) {
        QStringList out;
        for (int c = 2; c < table->columnCount(); ++c)
            out.append(table->item(r, c)->text());
        return out;
    };
    const QStringList a = expectedLatencyCells(15);
    const QStringList b = expectedLatencyCells(17);
    QCOMPARE(texts(rowOf(u"dm-0"_s, u"p50 (µs)"_s)), QStringList({ a[2], b[2], u"+164"_s, u"+100 %"_s }));
    QCOMPARE(texts(rowOf(u"dm-0"_s, u"p90 (µs)"_s)), QStringList({ u"192"_s, u"384"_s, u"+192"_s, u"+100 %"_s }));
    QCOMPARE(texts(rowOf(u"dm-0"_s, u"p99 (µs)"_s)), QStringList({ a[4], b[4], u"0"_s, u"0.0 %"_s }));
    QCOMPARE(texts(rowOf(u"dm-0"_s, u"I/Os"_s)), QStringList({ u"10000"_s, u"10000"_s, u"0"_s, u"0.0 %"_s }));
    QVERIFY(rowOf(u"sdb"_s, u"mean (µs)"_s) >= 0);

    // Both distributions on one chart per slot, each its own share per bucket.
    QCOMPARE(view.latencyCharts().size(), 2);
    LatencyDistributionChart *chart = view.latencyCharts().first();
    QVERIFY(chart->isVisible() && chart->height() >= 200);
    QCOMPARE(chart->sharePercent(0, 15), 90.0);
    QCOMPARE(chart->sharePercent(1, 17), 90.0);
    QCOMPARE(chart->sharePercent(1, 21), 10.0);
    QCOMPARE(chart->bucketRange(), std::make_pair(14, 22));
    save(&view, QStringLiteral("compare-latency.png"));

    // Back to recordings without latency: the tab goes.
    view.setRecordings({ m_multipath, m_multipath });
    QCOMPARE(view.tabs()->count(), 3);
    // DMTUNE_COMPARE_FILES with latency frames: the tab over real recordings.
    view.setRecordings(m_recordings);
    if (m_real && view.tabs()->count() == 4) {
        view.tabs()->setCurrentIndex(3);
        QTRY_VERIFY(view.latencyTable()->isVisible());
        flushLayout();
        save(&view, QStringLiteral("compare-latency-real.png"));
    }
}

QTEST_MAIN(TestRecordingViews)
#include "tst_recordingviews.moc"
