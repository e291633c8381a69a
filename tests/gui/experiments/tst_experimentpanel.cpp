// The Experiment panel without devices: the form refuses what the core refuses, in one line and without
// planning; a sweep's folder (sweep.json as the runner writes it, with the lab VM's numbers) reopens into the
// table (mean ±spread, read columns hidden for a write sweep, the device or a path chosen) and the chart (one
// line per workload, error bars of the spread); a folder that is no sweep's is refused and the shown results
// stay; the form holds the opened sweep; its report has the table's numbers; a captured system runs nothing; a
// remote host's form records nothing and takes its job files as full paths there.
// DMTUNE_EXPERIMENT_SCREENSHOT=FILE saves the panel.
#include "core/ops/hostcontext.h"
#include "widgets/charts/qcp_p.h"
#include "widgets/experiments/experimentpanel.h"
#include "widgets/experiments/sweepchart.h"
#include "widgets/experiments/sweepresultsmodel.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

DeviceSnapshot snapshotWith(const QStringList &names)
{
    DeviceSnapshot s;
    for (const QString &name : names) {
        BlockDevice d;
        d.name = name;
        d.sizeBytes = qint64(1) << 30;
        s.devices << d;
    }
    return s;
}

// Two repeats of queue_depth 2, 8, 32 on dm-0 and its path sdb (numbers of the lab VM's seed-002 sweep).
QJsonObject labManifest(const QString &recording = {})
{
    SweepRequest request;
    request.device = u"dm-0"_s;
    request.withPaths = true;
    request.parameters = { SweepParameter { u"device/queue_depth"_s, { u"2"_s, u"8"_s, u"32"_s } } };
    FioJob job;
    job.id = u"custom"_s;
    job.jobFile = u"/tmp/seq002.fio"_s;
    request.workloads = { job };
    request.repeats = 2;
    const QList<SweepPoint> points = sweepPoints(request);
    const double wrqm[3][2] = { { 72.0, 73.6 }, { 56.0, 57.0 }, { 8.0, 8.2 } };
    const double wareq[3][2] = { { 14.6, 15.0 }, { 9.0, 9.4 }, { 4.4, 4.4 } };
    QList<SweepMeasurement> runs;
    for (int p = 0; p < 3; ++p) {
        for (int r = 0; r < 2; ++r) {
            SweepMeasurement m;
            m.point = p;
            m.repeat = r + 1;
            m.recording = recording;
            m.fio = { { u"write_iops"_s, 3000.0 + 3000 * p + 100 * r }, { u"read_iops"_s, 0.0 },
                { u"clat_p50_us"_s, 900.0 - 200 * p } };
            m.devices = {
                { u"dm-0"_s,
                    QJsonObject { { u"w/s"_s, 3400.0 + 3000 * p }, { u"r/s"_s, 0.0 }, { u"wrqm"_s, wrqm[p][r] },
                        { u"rrqm"_s, 0.0 }, { u"wareq-sz"_s, wareq[p][r] }, { u"util"_s, 99.0 } } },
                { u"sdb"_s,
                    QJsonObject { { u"w/s"_s, 850.0 + 750 * p }, { u"r/s"_s, 0.0 }, { u"wrqm"_s, 0.0 },
                        { u"rrqm"_s, 0.0 }, { u"wareq-sz"_s, wareq[p][r] }, { u"util"_s, 60.0 } } },
            };
            runs << m;
        }
    }
    SweepOutcome outcome;
    outcome.results = summarizeSweep(points, runs);
    outcome.restored = { u"sdb device/queue_depth 32 -> 192"_s };
    return sweepManifest(request, runs, outcome);
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

int visibleColumn(const QTableView *view, const QString &header)
{
    for (int c = 0; c < view->model()->columnCount(); ++c) {
        if (view->model()->headerData(c, Qt::Horizontal).toString() == header)
            return view->isColumnHidden(c) ? -2 : c;
    }
    return -1;
}

} // namespace

class TestExperimentPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void formRefusesInOneLine_data();
    void formRefusesInOneLine();
    void reopensResultsIntoTableAndChart();
    void refusesAFolderThatIsNoSweeps();
    void reportReadsRecordingsInTheFolderOnly();
    void capturedSystemRunsNothing();
    void aRemoteHostsFormRecordsNothingAndTakesPathsThere();
};

void TestExperimentPanel::formRefusesInOneLine_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<QString>("param");
    QTest::addColumn<QStringList>("templates");
    QTest::addColumn<QString>("expected");
    const QStringList write { u"batched-write-4k"_s };
    QTest::newRow("no device") << QString() << u"nomerges=0,2"_s << write << u"Choose the device"_s;
    QTest::newRow("no parameter") << u"loop3"_s << QString() << write << u"Give a parameter"_s;
    QTest::newRow("unknown attribute") << u"loop3"_s << u"no_such_knob=1,2"_s << write << u"no_such_knob"_s;
    QTest::newRow("no '='") << u"loop3"_s << u"nomerges"_s << write << u"nomerges"_s;
    QTest::newRow("value twice") << u"loop3"_s << u"nomerges=0,0"_s << write << u"0"_s;
    QTest::newRow("no workload") << u"loop3"_s << u"nomerges=0,2"_s << QStringList() << u"workload"_s;
}

void TestExperimentPanel::formRefusesInOneLine()
{
    QFETCH(QString, device);
    QFETCH(QString, param);
    QFETCH(QStringList, templates);
    QFETCH(QString, expected);
    ExperimentPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.setSnapshot(snapshotWith({ u"loop3"_s }));
    panel.selectDevice(device);
    panel.setParameters(param);
    panel.setWorkloads(templates);
    const auto request = panel.currentRequest();
    QVERIFY(!request);
    QVERIFY2(request.errorMessage().contains(expected), qPrintable(request.errorMessage()));
    QVERIFY(!request.errorMessage().contains(u'\n'));
    panel.run();
    // Refused before anything is planned: no job, no dialog, the same line in the status.
    QVERIFY(!panel.isBusy());
    QVERIFY(!panel.pendingConfirmation());
    QCOMPARE(panel.statusText(), request.errorMessage());
}

void TestExperimentPanel::reopensResultsIntoTableAndChart()
{
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(u"sweep.json"_s), QJsonDocument(labManifest()).toJson()));
    ExperimentPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.resize(1280, 660); // the Experiment tab of a 1280x720 window (the picture in docs/experiments.md)
    panel.show();
    panel.setSnapshot(snapshotWith({ u"dm-0"_s, u"sdb"_s }));
    QVERIFY(panel.openResults(dir.path()));
    QVERIFY2(panel.statusText().contains(u"3 points of a sweep on dm-0"_s), qPrintable(panel.statusText()));
    // The form holds the sweep again, ready to run once more.
    const auto again = panel.currentRequest();
    QVERIFY2(again, qPrintable(again.errorMessage()));
    QCOMPARE(again->device, u"dm-0"_s);
    QCOMPARE(again->parameters.first().values, QStringList({ u"2"_s, u"8"_s, u"32"_s }));
    QVERIFY(again->withPaths);
    QCOMPARE(again->workloads.size(), 1);
    QCOMPARE(again->workloads.first().jobFile, u"/tmp/seq002.fio"_s);
    QCOMPARE(again->repeats, 2);

    // The table: one row per point, "mean ±spread" of the map's numbers; read columns, all zero, hidden.
    const QTableView *view = panel.resultsView();
    QCOMPARE(view->model()->rowCount(), 3);
    QCOMPARE(panel.deviceCombo()->count(), 2);
    QCOMPARE(panel.deviceCombo()->currentText(), u"dm-0"_s);
    const int wrqm = visibleColumn(view, u"%wrqm (%)"_s);
    QVERIFY(wrqm >= 0);
    QCOMPARE(view->model()->index(0, wrqm).data().toString(), u"72.8 ±1.1"_s);
    QCOMPARE(view->model()->index(2, wrqm).data().toString(), u"8.1 ±0.1"_s);
    QCOMPARE(visibleColumn(view, u"%rrqm (%)"_s), -2);
    QCOMPARE(visibleColumn(view, u"fio read IOPS (1/s)"_s), -2);
    QCOMPARE(view->model()->index(1, 1).data().toString(), u"8"_s);

    // The chart: %wrqm of the map against queue_depth, the spread as error bars.
    QCustomPlot *plot = panel.chart()->plot();
    QCOMPARE(plot->graphCount(), 1);
    QCOMPARE(plot->graph(0)->data()->size(), 3);
    QCOMPARE(plot->graph(0)->data()->at(0)->value, 72.8);
    auto *bars = qobject_cast<QCPErrorBars *>(plot->plottable(1));
    QVERIFY(bars);
    QVERIFY(qAbs(bars->data()->at(0).errorPlus - 1.13) < 0.01);
    QCOMPARE(plot->xAxis->label(), u"queue_depth"_s);
    QCOMPARE(plot->yAxis->label(), u"%wrqm (%) of dm-0"_s);
    QVERIFY(plot->yAxis->range().upper > 72.8 + 1.13);

    // A path: its numbers in the table and the chart.
    panel.deviceCombo()->setCurrentIndex(panel.deviceCombo()->findText(u"sdb"_s));
    QCOMPARE(view->model()->index(0, wrqm).data().toString(), u"0.0"_s);
    QCOMPARE(plot->yAxis->label(), u"%wrqm (%) of sdb"_s);
    panel.metricCombo()->setCurrentIndex(panel.metricCombo()->findData(u"wareq-sz"_s));
    QCOMPARE(plot->graph(0)->data()->at(2)->value, 4.4);
    panel.metricCombo()->setCurrentIndex(panel.metricCombo()->findData(u"write_iops"_s));
    QCOMPARE(plot->yAxis->label(), u"fio write IOPS (1/s)"_s);
    QCOMPARE(plot->graph(0)->data()->at(1)->value, 6050.0);

    // The report of a sweep without recordings: its section alone, the table's numbers in it.
    const QString html = dir.filePath(u"report.html"_s);
    const Status written = panel.writeReport(html);
    QVERIFY2(written, qPrintable(written.errorMessage()));
    QFile file(html);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY(text.contains(u"dmtune sweep report: dm-0, queue_depth 2, 8, 32"_s));
    QVERIFY(text.contains(u"<td align=\"right\">72.8 ±1.1</td>"_s));
    QVERIFY(text.contains(u"<td>sdb</td>"_s));
    QCOMPARE(text.count(u"<img src=\"data:image/png;base64,"_s), 4);
    QVERIFY(text.contains(u"sdb device/queue_depth 32 -&gt; 192"_s));
    QVERIFY(!text.contains(u"fio read IOPS"_s)); // a write sweep: no read columns

    if (const QString shot = qEnvironmentVariable("DMTUNE_EXPERIMENT_SCREENSHOT"); !shot.isEmpty()) {
        QSignalSpy replotted(plot, &QCustomPlot::afterReplot); // the chart replots on a queued replot
        panel.deviceCombo()->setCurrentIndex(0);
        panel.metricCombo()->setCurrentIndex(panel.metricCombo()->findData(u"wrqm"_s));
        QTRY_VERIFY(replotted.count() > 0);
        QCoreApplication::sendPostedEvents(); // and the panel is laid out
        QCoreApplication::processEvents();
        QVERIFY(panel.grab().save(shot));
    }
}

void TestExperimentPanel::refusesAFolderThatIsNoSweeps()
{
    QTemporaryDir good, bad, empty;
    QVERIFY(writeFile(good.filePath(u"sweep.json"_s), QJsonDocument(labManifest()).toJson()));
    QVERIFY(writeFile(bad.filePath(u"sweep.json"_s), R"({"points": []})"));
    ExperimentPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    QVERIFY(panel.openResults(good.path()));
    QVERIFY(!panel.openResults(bad.path()));
    QVERIFY2(panel.statusText().contains(u"not a dmtune sweep"_s), qPrintable(panel.statusText()));
    QVERIFY(!panel.openResults(empty.path()));
    QVERIFY2(panel.statusText().startsWith(u"cannot read "_s), qPrintable(panel.statusText()));
    QCOMPARE(panel.resultsModel()->rowCount(), 3); // what was shown stays
}

// A sweep.json naming recordings elsewhere (sent, or crafted): the report looks for them by name in its folder.
void TestExperimentPanel::reportReadsRecordingsInTheFolderOnly()
{
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(u"sweep.json"_s), QJsonDocument(labManifest(u"/etc/passwd"_s)).toJson()));
    ExperimentPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    QVERIFY(panel.openResults(dir.path()));
    const Status written = panel.writeReport(dir.filePath(u"report.html"_s));
    QVERIFY(!written);
    QVERIFY2(written.errorMessage().contains(dir.filePath(u"passwd"_s)), qPrintable(written.errorMessage()));
    QVERIFY(!QFileInfo::exists(dir.filePath(u"report.html"_s)));
}

void TestExperimentPanel::capturedSystemRunsNothing()
{
    QTemporaryDir capture;
    ExperimentPanel panel(std::make_shared<const HostContext>(SysfsRoot(capture.path())));
    panel.setSnapshot(snapshotWith({ u"loop3"_s }));
    panel.selectDevice(u"loop3"_s);
    panel.setParameters(u"nomerges=0,2"_s);
    panel.setWorkloads({ u"batched-write-4k"_s });
    QVERIFY(panel.currentRequest());
    panel.run();
    QVERIFY(!panel.isBusy());
    QVERIFY(panel.statusText().contains(u"captured system is read-only"_s));
}

void TestExperimentPanel::aRemoteHostsFormRecordsNothingAndTakesPathsThere()
{
    QTemporaryDir capture; // a remote window's tree is the host's capture
    ExperimentPanel panel(std::make_shared<const HostContext>(SysfsRoot(capture.path())));
    panel.setOperationService(nullptr, u"db1"_s); // its agent's service, gone (the window closing)
    QCOMPARE(panel.hostName(), u"db1"_s);
    panel.setSnapshot(snapshotWith({ u"loop3"_s }));
    QVERIFY(panel.selectDevice(u"loop3"_s));
    panel.setParameters(u"nomerges=0,2"_s);
    panel.setWorkloads({ u"batched-write-4k"_s }, { u"/srv/jobs/oltp.fio"_s });
    panel.setRecordDirectory(u"/tmp/sweep"_s);
    const auto request = panel.currentRequest();
    QVERIFY2(request, qPrintable(request.errorMessage()));
    QVERIFY(request->recordDir.isEmpty()); // a folder here would name nothing there
    QCOMPARE(request->workloads.size(), 2);
    QCOMPARE(request->workloads.at(1).jobFile, u"/srv/jobs/oltp.fio"_s); // the host's path, as typed

    panel.setWorkloads({}, { u"jobs/oltp.fio"_s }); // relative to which folder there?
    const auto relative = panel.currentRequest();
    QVERIFY(!relative);
    QCOMPARE(relative.errorMessage(), u"A job file on db1 is given by its full path: jobs/oltp.fio"_s);

    panel.setWorkloads({ u"batched-write-4k"_s });
    panel.run(); // nothing to plan with: one line, nothing started
    QVERIFY(!panel.isBusy());
    QCOMPARE(panel.statusText(), u"Not connected to db1: nothing was planned"_s);
}

QTEST_MAIN(TestExperimentPanel)
#include "tst_experimentpanel.moc"
