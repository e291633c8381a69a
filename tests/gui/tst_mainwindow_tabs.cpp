// The Experiment and Latency tabs and the Explain pane on the screens engineers use. CTest
// runs this program once per screen (1280x720, 1366x768, 1400x900, 1920x1080): the offscreen platform is given a
// screen of that size (tests/gui/CMakeLists.txt) and the window takes the whole of it. Every field of the
// Experiment form whole in view, every chart's plot area readable (>= 120 px, tick labels apart), the Latency tab
// saying what its probe does, the Explain pane leaving the tree its width. DMTUNE_SCREENSHOT_DIR=DIR saves each.
#include "testlocale.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"

#include "app/dmtune/mainwindow.h"
#include "widgets/charts/latencyheatmap.h"
#include "widgets/charts/latencyview.h"
#include "widgets/charts/qcp_p.h"
#include "widgets/diagnosis/explainpane.h"
#include "widgets/experiments/experimentpanel.h"
#include "widgets/experiments/sweepchart.h"
#include "widgets/windowfit.h"

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

QString describe(const QRect &r)
{
    return QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

QString nameOf(const QWidget *widget)
{
    QString name = QString::fromLatin1(widget->metaObject()->className());
    if (!widget->objectName().isEmpty())
        name += u' ' + widget->objectName();
    if (const auto *button = qobject_cast<const QAbstractButton *>(widget))
        name += QStringLiteral(" \"%1\"").arg(button->text());
    return name;
}

// Whether `widget` is shown whole inside every scroll area's viewport and every window it sits in (as
// tst_mainwindow_layout.cpp checks).
bool wholeOnScreen(const QWidget *widget, QString *why)
{
    if (!widget->isVisible()) {
        *why = QStringLiteral("%1 is hidden").arg(nameOf(widget));
        return false;
    }
    const QRect rect(widget->mapTo(widget->window(), QPoint(0, 0)), widget->size());
    for (const QWidget *w = widget->parentWidget(); w; w = w->parentWidget()) {
        const QRect clip(w->mapTo(widget->window(), QPoint(0, 0)), w->size());
        if (!clip.contains(rect)) {
            *why = QStringLiteral("%1 (%2 in the window) is cut off by %3 (%4)")
                       .arg(nameOf(widget), describe(rect), nameOf(w), describe(clip));
            return false;
        }
    }
    return true;
}

// The rectangles an axis draws its tick labels in, from the ticks' positions and the label font.
QList<QRect> tickLabelRects(QCPAxis *axis)
{
    QList<QRect> rects;
    if (!axis->visible() || !axis->tickLabels())
        return rects;
    const QFontMetrics metrics(axis->tickLabelFont());
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (!axis->range().contains(ticks[i]) || labels[i].isEmpty())
            continue;
        const double at = axis->coordToPixel(ticks[i]);
        const QSize size = metrics.size(0, labels[i]);
        if (axis->orientation() == Qt::Horizontal)
            rects.append(QRect(int(at - size.width() / 2.0), 0, size.width(), size.height()));
        else
            rects.append(QRect(0, int(at - size.height() / 2.0), size.width(), size.height()));
    }
    return rects;
}

// A chart worth reading: its plot area at least 120 px high, no two tick labels of an axis over each other.
bool readablePlot(QCustomPlot *plot, const QString &what, QString *why)
{
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QRect area = plot->axisRect()->rect();
    if (area.height() < 120) {
        *why = QStringLiteral("%1: a plot area of %2 px high (the chart %3)")
                   .arg(what)
                   .arg(area.height())
                   .arg(describe(plot->rect()));
        return false;
    }
    if (area.width() < plot->width() / 2) {
        *why = QStringLiteral("%1: a plot area of %2 px wide in %3").arg(what).arg(area.width()).arg(plot->width());
        return false;
    }
    for (QCPAxis *axis : plot->axisRect()->axes()) {
        const QList<QRect> rects = tickLabelRects(axis);
        for (int a = 0; a < rects.size(); ++a) {
            for (int b = a + 1; b < rects.size(); ++b) {
                if (rects[a].intersects(rects[b])) {
                    *why = QStringLiteral("%1: tick labels %2 and %3 overlap (%4, %5)")
                               .arg(what, axis->tickVectorLabels().value(a), axis->tickVectorLabels().value(b),
                                   describe(rects[a]), describe(rects[b]));
                    return false;
                }
            }
        }
    }
    return true;
}

QSize screenSize()
{
    return QGuiApplication::primaryScreen()->geometry().size();
}

QString sizeName(const QSize &size)
{
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

void saveScreenshot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("DMTUNE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        widget->grab().save(
            dir + u'/' + name + u'-' + sizeName(screenSize()) + test::testVariantSuffix() + QStringLiteral(".png"));
}

// The window over the standard machine, as large as the screen lets it be, its first scan in.
bool showWindow(MainWindow &window)
{
    QSignalSpy shown(&window, &MainWindow::snapshotShown);
    windowfit::resizeOnScreen(&window, screenSize());
    window.show();
    window.start();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    return shown.count() > 0 || shown.wait(10000);
}

// A sweep's chart as the panel draws it after a run: two workloads over five queue depths.
SweepChartData sampleChart()
{
    SweepChartData data;
    data.xTitle = QStringLiteral("nr_requests");
    data.xLabels = { QStringLiteral("16"), QStringLiteral("32"), QStringLiteral("64"), QStringLiteral("128"),
        QStringLiteral("256") };
    data.yTitle = QStringLiteral("%wrqm (%) of loop0");
    for (const QString &name : { QStringLiteral("seq-write-4k"), QStringLiteral("rand-write-4k") }) {
        SweepSeries series;
        series.name = name;
        for (int i = 0; i < data.xLabels.size(); ++i) {
            series.x << i;
            series.mean << 10.0 * (i + 1) + series.name.size();
            series.spread << 1.5;
        }
        data.series << series;
    }
    return data;
}

} // namespace

class TestMainWindowTabs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // The platform took the screen this run is for: else every check below would pass on a large default one.
        const QString wanted = qEnvironmentVariable("DMTUNE_TEST_SCREEN");
        QVERIFY2(!wanted.isEmpty(), "DMTUNE_TEST_SCREEN is not set: run through ctest");
        QCOMPARE(sizeName(screenSize()), wanted);
        const QString locale = test::installTestLocale();
        QVERIFY2(locale.isEmpty(), qPrintable(locale));
    }

    // Every field of the Experiment form whole in view, its chart readable, empty and with a sweep's results.
    void experimentFormAndChart()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QVERIFY(showWindow(window));
        QVERIFY(window.selectDevice(QStringLiteral("loop0")));
        QVERIFY(window.showTab(QStringLiteral("experiment")));
        ExperimentPanel *panel = window.experimentPanel();
        QCOMPARE(panel->currentDevice(), QStringLiteral("loop0"));
        QApplication::processEvents();
        saveScreenshot(&window, QStringLiteral("experiment"));

        // The form's page, then the results' page: every field of each whole in view.
        QCOMPARE(panel->currentPage(), ExperimentPanel::Page::Sweep);
        QList<QWidget *> fields;
        for (QWidget *w : panel->findChildren<QWidget *>()) {
            if (!w->isVisible())
                continue; // on the other page (checked below)
            if (qobject_cast<QLineEdit *>(w) || qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w)
                || qobject_cast<QAbstractButton *>(w) || qobject_cast<QListWidget *>(w)) {
                if (qobject_cast<QLineEdit *>(w) && qobject_cast<QComboBox *>(w->parentWidget()))
                    continue; // an editable combo's own line edit
                if (qobject_cast<QAbstractSpinBox *>(w->parentWidget()))
                    continue; // a spin box's line edit
                fields << w;
            }
        }
        QVERIFY2(fields.size() > 15, qPrintable(QString::number(fields.size())));
        for (QWidget *field : std::as_const(fields)) {
            QString why;
            QVERIFY2(wholeOnScreen(field, &why), qPrintable(why));
        }
        for (const char *name : { "sweepDevice", "sweepParam1", "sweepParam2", "sweepTemplates", "sweepRun" }) {
            auto *field = panel->findChild<QWidget *>(QString::fromLatin1(name));
            QString why;
            QVERIFY2(field && wholeOnScreen(field, &why), qPrintable(why));
        }

        panel->showPage(ExperimentPanel::Page::Results);
        QApplication::processEvents();
        saveScreenshot(&window, QStringLiteral("experiment-results-empty"));
        for (QWidget *field : { static_cast<QWidget *>(panel->metricCombo()),
                 static_cast<QWidget *>(panel->deviceCombo()), static_cast<QWidget *>(panel->resultsView()) }) {
            QString why;
            QVERIFY2(wholeOnScreen(field, &why), qPrintable(why));
        }
        SweepChart *chart = panel->chart();
        QVERIFY(!chart->idleText().isEmpty()); // says where results come from
        QString why;
        QVERIFY2(wholeOnScreen(chart, &why), qPrintable(why));
        QVERIFY2(readablePlot(chart->plot(), QStringLiteral("the empty sweep chart"), &why), qPrintable(why));
        SweepChartData one = sampleChart();
        one.series.removeLast();
        chart->setData(one);
        QVERIFY2(readablePlot(chart->plot(), QStringLiteral("the sweep chart of one series"), &why), qPrintable(why));
        chart->setData({});
        QVERIFY2(readablePlot(chart->plot(), QStringLiteral("the sweep chart emptied"), &why), qPrintable(why));
        chart->setData(sampleChart());
        QVERIFY2(readablePlot(chart->plot(), QStringLiteral("the sweep chart"), &why), qPrintable(why));
        QCOMPARE(chart->plot()->xAxis->tickVectorLabels().size(), 5);
        QVERIFY(chart->idleText().isEmpty());
        saveScreenshot(&window, QStringLiteral("experiment-results"));
    }

    // The placeholder proposes what the selected device has: a loop device no device/queue_depth, a SCSI disk it.
    void experimentPlaceholderFitsTheDevice_data()
    {
        QTest::addColumn<QString>("device");
        // (Not zram0: the fake tree gives it no queue directory at all.)
        for (const char *device : { "loop0", "sdak", "vda", "dm-0" })
            QTest::newRow(device) << QString::fromLatin1(device);
    }
    void experimentPlaceholderFitsTheDevice()
    {
        QFETCH(QString, device);
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QVERIFY(showWindow(window));
        QVERIFY(window.selectDevice(device));
        QVERIFY(window.showTab(QStringLiteral("experiment")));
        ExperimentPanel *panel = window.experimentPanel();
        QCOMPARE(panel->currentDevice(), device);
        for (const char *name : { "sweepParam1", "sweepParam2" }) {
            auto *edit = panel->findChild<QLineEdit *>(QString::fromLatin1(name));
            QVERIFY(edit);
            const QString text = edit->placeholderText();
            const QString attribute = text.section(u'=', 0, 0).section(u' ', -1);
            QVERIFY2(!attribute.isEmpty(), qPrintable(text));
            const QString path = attribute == QLatin1String("queue_depth") ? QStringLiteral("device/queue_depth")
                                                                           : QStringLiteral("queue/") + attribute;
            QVERIFY2(SysfsRoot(fake.root(), QString()).exists(QStringLiteral("block/%1/%2").arg(device, path)),
                qPrintable(
                    QStringLiteral("%1 proposes %2, which %3 has not").arg(QString::fromLatin1(name), text, device)));
        }
    }

    // The Latency tab before any I/O: it says what the probe does, draws no axis range over nothing, and its
    // charts are readable.
    void latencyTabIdle()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QVERIFY(showWindow(window));
        QVERIFY(window.selectDevice(QStringLiteral("mpatha")));
        QVERIFY(window.showTab(QStringLiteral("latency")));
        auto *view = window.findChild<LatencyView *>();
        QVERIFY(view);
        // Loaded, or not with the reason; either way the line says which (the words checked in English; another
        // language's run checks the layout with its own words).
        const bool english = test::testInEnglish();
        QTRY_VERIFY2_WITH_TIMEOUT(english ? view->statusText().contains(QLatin1String("is running"))
                    || view->statusText().contains(QLatin1String("not available"))
                                          : !view->statusText().isEmpty(),
            qPrintable(view->statusText()), 20000);
        if (english && view->probeLoaded())
            QVERIFY2(
                view->statusText().contains(QLatin1String("waiting for I/O on dm-0")), qPrintable(view->statusText()));
        LatencyHeatMap *map = view->heatMap(QStringLiteral("dm-0"));
        QVERIFY(map);
        QApplication::processEvents();
        saveScreenshot(&window, QStringLiteral("latency"));
        QCOMPARE(map->intervalCount(), 0); // the fake tree's map does no I/O
        QCustomPlot *plot = map->plotWidget();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(!map->idleText().isEmpty());
        QVERIFY(!plot->xAxis->tickLabels() || plot->xAxis->tickVectorLabels().isEmpty());
        QVERIFY(!plot->yAxis->tickLabels() || plot->yAxis->tickVectorLabels().isEmpty());
        for (const QString &path : { QStringLiteral("dm-0"), QStringLiteral("sdak") }) {
            LatencyHeatMap *chart = view->heatMap(path);
            QVERIFY2(chart, qPrintable(path));
            QString why;
            QVERIFY2(readablePlot(chart->plotWidget(), path, &why), qPrintable(why));
        }
    }

    // The Explain pane at the screen's width: the tree keeps a usable width, the pane shows findings or a hint.
    void explainPaneLeavesTheTreeRoom()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QVERIFY(showWindow(window));
        QVERIFY(window.selectDevice(QStringLiteral("vda"))); // not a map: nothing to explain
        window.showExplain();
        ExplainPane *pane = window.explainPane();
        QTRY_VERIFY(pane->isVisible());
        QApplication::processEvents();
        saveScreenshot(&window, QStringLiteral("explain-vda"));
        QTRY_VERIFY2(window.treeView()->width() >= 260, qPrintable(QString::number(window.treeView()->width())));
        // A hint, not a big empty box.
        auto *text = pane->findChild<QTextBrowser *>();
        QVERIFY(text);
        QVERIFY2(!text->isVisible() || !text->toPlainText().trimmed().isEmpty(), "an empty box");
        QVERIFY(test::testInEnglish() ? pane->statusText().contains(QLatin1String("Select a multipath map"))
                                      : !pane->statusText().isEmpty());

        QSignalSpy explained(pane, &ExplainPane::explained);
        QVERIFY(window.selectDevice(QStringLiteral("mpatha")));
        QVERIFY(explained.wait(10000));
        QApplication::processEvents();
        saveScreenshot(&window, QStringLiteral("explain-mpatha"));
        QVERIFY(text->isVisible());
        QVERIFY(pane->plainText().contains(QLatin1String("mpatha")));
        QVERIFY2(window.treeView()->width() >= 260, qPrintable(QString::number(window.treeView()->width())));
        QString why;
        QVERIFY2(wholeOnScreen(text, &why), qPrintable(why));
        QVERIFY2(text->viewport()->height() >= 4 * text->fontMetrics().lineSpacing(),
            qPrintable(QStringLiteral("the findings in %1 px").arg(text->viewport()->height())));
        QVERIFY2(
            window.experimentPanel()->width() >= 400, qPrintable(QString::number(window.experimentPanel()->width())));
    }
};

QTEST_MAIN(TestMainWindowTabs)
#include "tst_mainwindow_tabs.moc"
