// The recording views offscreen: a recording replayed into a LiveStatsView (charts with points, markers, the
// iostat table), two recordings compared (both on every chart, the statistics table with deltas, the
// configuration diff), and the report written from them. DMTUNE_SCREENSHOT_DIR=DIR saves grabs;
// DMTUNE_COMPARE_FILES="a.dmrec;b.dmrec" uses real recordings instead of the synthetic ones.
#include "charts/chartpanel.h"
#include "charts/iostattablemodel.h"
#include "charts/livestatsview.h"
#include "fakesysfs.h"
#include "mainwindow.h"
#include "reports/compareview.h"
#include "reports/recordingview.h"
#include "reports/report.h"
#include "standardmachine.h"
#include "syntheticbatches.h"

#include <QDir>
#include <QJsonArray>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

using namespace dmtune;
using namespace dmtune::test;

class TestRecordingViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void replaysOneRecording();
    void comparesTwo();
    void writesReports();
    void reportEscapesEveryName();
    void mainWindowOpensRecordings();

private:
    void save(QWidget *w, const QString &name);
    QTemporaryDir m_dir;
    QList<Recording> m_recordings;
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

} // namespace

void TestRecordingViews::initTestCase()
{
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

void TestRecordingViews::replaysOneRecording()
{
    RecordingView view(m_recordings.first());
    view.resize(1300, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTest::qWait(200);
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
    view.resize(1300, 900);
    view.setRecordings(m_recordings);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTest::qWait(200);
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
    QTest::qWait(100);
    save(&view, QStringLiteral("compare-stats.png"));

    QTableWidget *diff = view.diffTable();
    bool nomerges = false;
    for (int r = 0; r < diff->rowCount(); ++r)
        nomerges = nomerges || diff->item(r, 0)->text().endsWith(QStringLiteral("tunable queue/nomerges"));
    QVERIFY(nomerges);
    view.tabs()->setCurrentIndex(2);
    QTest::qWait(100);
    save(&view, QStringLiteral("compare-diff.png"));
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
        QVERIFY2(s.errorMessage.contains(QStringLiteral("symbolic link")), qPrintable(s.errorMessage));
        QCOMPARE(QFileInfo(victim).size(), qint64(8));
    }
    QVERIFY(writeReport(report.value(), out)); // an existing report is replaced
    QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral("*.part") }, QDir::Files), QStringList());
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

QTEST_MAIN(TestRecordingViews)
#include "tst_recordingviews.moc"
