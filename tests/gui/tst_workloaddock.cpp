// The Workload dock and the Statistics tab at the screen sizes engineers use. CTest runs this
// program once per screen (1280x720, 1366x768, 1400x900, 1920x1080), the offscreen platform given a screen of that
// size (tests/gui/CMakeLists.txt), the window maximized on it: the Template row and Start in view before and during a
// run, fio's charts and the device charts in view with a plot area of 120 px or more and tick labels that do not run
// into each other. DMTUNE_SCREENSHOT_DIR=DIR saves what it looks like.
#include "testlocale.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"

#include "app/dmtune/mainwindow.h"
#include "widgets/charts/chartpanel.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/charts/qcp_p.h"
#include "widgets/workloads/fiochart.h"
#include "widgets/workloads/workloadpanel.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

constexpr int minimumPlotHeight = 120;

QString screenName()
{
    const QSize size = QGuiApplication::primaryScreen()->geometry().size();
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

// Whether `widget` is shown whole inside every widget it sits in (scroll areas' viewports included).
bool wholeOnScreen(const QWidget *widget, const QString &what, QString *why)
{
    if (!widget->isVisible()) {
        *why = what + QStringLiteral(" is hidden");
        return false;
    }
    const QRect rect(widget->mapTo(widget->window(), QPoint(0, 0)), widget->size());
    for (const QWidget *w = widget->parentWidget(); w; w = w->parentWidget()) {
        const QRect clip(w->mapTo(widget->window(), QPoint(0, 0)), w->size());
        if (!clip.contains(rect)) {
            *why = QStringLiteral("%1 (%2,%3 %4x%5) is cut off by %6 (%7,%8 %9x%10)")
                       .arg(what)
                       .arg(rect.x())
                       .arg(rect.y())
                       .arg(rect.width())
                       .arg(rect.height())
                       .arg(QString::fromLatin1(w->metaObject()->className()))
                       .arg(clip.x())
                       .arg(clip.y())
                       .arg(clip.width())
                       .arg(clip.height());
            return false;
        }
    }
    return true;
}

// Empty when the plot is readable: its plot area tall enough, and on every axis with labels, no two tick labels'
// rectangles (the label font's bounding rectangle centred on the tick's pixel) overlap.
QString unreadable(QCustomPlot *plot, const QString &what)
{
    QCPAxisRect *rect = plot->axisRect();
    if (rect->height() < minimumPlotHeight)
        return QStringLiteral("%1: plot area %2 px high").arg(what).arg(rect->height());
    for (QCPAxis *axis : rect->axes()) {
        if (!axis->visible() || !axis->tickLabels())
            continue;
        const QFontMetrics metrics(axis->tickLabelFont());
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        QList<QRectF> rects;
        for (qsizetype i = 0; i < ticks.size() && i < labels.size(); ++i) {
            QRectF r = metrics.boundingRect(labels[i]);
            const double at = axis->coordToPixel(ticks[i]);
            r.moveCenter(axis->orientation() == Qt::Horizontal ? QPointF(at, 0) : QPointF(0, at));
            rects.append(r);
        }
        for (qsizetype i = 0; i < rects.size(); ++i) {
            for (qsizetype j = i + 1; j < rects.size(); ++j) {
                if (rects[i].intersects(rects[j]))
                    return QStringLiteral("%1: the %2 axis' labels \"%3\" and \"%4\" overlap (%5 labels on %6 px)")
                        .arg(what,
                            axis->orientation() == Qt::Horizontal ? QStringLiteral("horizontal")
                                                                  : QStringLiteral("vertical"),
                            labels[i], labels[j])
                        .arg(labels.size())
                        .arg(axis->orientation() == Qt::Horizontal ? rect->width() : rect->height());
            }
        }
    }
    return {};
}

// One second of a write run on the map and its paths, as the sampler reports it.
SampleBatch writeBatch(const QStringList &devices, quint64 sequence)
{
    SampleBatch b;
    b.sequence = sequence;
    b.elapsedSeconds = 1.0;
    b.wallMs = 1'700'000'000'000 + qint64(sequence) * 1000;
    b.monotonicNs = 5'000'000'000'000 + qint64(sequence) * 1'000'000'000;
    for (qsizetype i = 0; i < devices.size(); ++i) {
        CounterDeltas d;
        const quint64 writes = i == 0 ? 137'000 : 34'000;
        d[DiskField::WriteIos] = writes;
        d[DiskField::WriteMerges] = writes * 7;
        d[DiskField::WriteSectors] = writes * 64;
        d[DiskField::WriteTicks] = writes * 3;
        d[DiskField::IoTicks] = 800;
        d[DiskField::TimeInQueue] = 2400;
        DeviceSample s;
        s.counters.name = devices[i];
        s.counters.fieldCount = 17;
        s.deltas = d;
        s.inflight = { 0, 4 };
        b.devices.append(s);
    }
    return b;
}

// What a minute of fio at 137k IOPS gives its charts.
void feedFio(FioChart *chart)
{
    chart->addMarker(1000, QStringLiteral("fio start"));
    for (int second = 1; second <= 60; ++second) {
        FioRates r;
        r.seconds = 1;
        r.writeIops = 137'100 - second * 300;
        r.writeBytesPerSecond = r.writeIops * 4096;
        r.clat.perInterval = true;
        r.clat.samples = 1000;
        r.clat.p50Ns = 180'000;
        r.clat.p99Ns = 1'250'000;
        chart->addRates(1000 + second, { r });
    }
}

void saveScreenshot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("DMTUNE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        widget->grab().save(
            dir + QStringLiteral("/dock-%1-%2%3.png").arg(name, screenName(), test::testVariantSuffix()));
}

} // namespace

class TestWorkloadDock : public QObject {
    Q_OBJECT

    // Empty when every chart in view is readable: fio's two, and those of the Statistics tab in its viewport
    // (at least one). `shown`: how many device charts are in view.
    static QString chartsUnreadable(MainWindow &window, int *shown)
    {
        FioChart *fio = window.workloadPanel()->chart();
        for (QCustomPlot *plot : { fio->throughputPlot(), fio->latencyPlot() }) {
            QString why;
            if (!wholeOnScreen(plot, QStringLiteral("a fio chart"), &why))
                return why;
            if (const QString problem = unreadable(plot, QStringLiteral("fio chart")); !problem.isEmpty())
                return problem;
        }
        *shown = 0;
        for (ChartPanel *panel : window.statsView()->panels()) {
            const QString name = QStringLiteral("device chart %1").arg(window.statsView()->panels().indexOf(panel));
            QWidget *viewport = panel->parentWidget()->parentWidget(); // the grid's widget, the scroll area's viewport
            const QRect inView(panel->plot()->mapTo(viewport, QPoint(0, 0)), panel->plot()->size());
            // Whole in the viewport: a chart scrolled half into view is the user's scrolling.
            if (!panel->isVisible() || !viewport->rect().contains(inView))
                continue;
            if (const QString problem = unreadable(panel->plot(), name); !problem.isEmpty())
                return problem;
            ++*shown;
        }
        return *shown > 0 ? QString() : QStringLiteral("no device chart in view");
    }

    static QString formUnreachable(WorkloadPanel *panel)
    {
        QString why;
        const QList<QComboBox *> combos = panel->findChildren<QComboBox *>();
        if (!wholeOnScreen(combos.constFirst(), QStringLiteral("the Template row"), &why))
            return why;
        // By name, not text: the German run's buttons read "&Starten" and "St&oppen".
        for (const QString &name : { QStringLiteral("workloadStart"), QStringLiteral("workloadStop") }) {
            auto *button = panel->findChild<QPushButton *>(name);
            if (!button)
                return QStringLiteral("no button %1").arg(name);
            if (!wholeOnScreen(button, button->text(), &why))
                return why;
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QString wanted = qEnvironmentVariable("DMTUNE_TEST_SCREEN");
        QVERIFY2(!wanted.isEmpty(), "DMTUNE_TEST_SCREEN is not set: run through ctest");
        QCOMPARE(screenName(), wanted);
        const QString locale = test::installTestLocale();
        QVERIFY2(locale.isEmpty(), qPrintable(locale));
    }

    void readableBeforeAndDuringARun()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QSignalSpy shown(&window, &MainWindow::snapshotShown);
        window.showMaximized();
        window.start();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(shown.count() > 0 || shown.wait(30000));
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        QVERIFY2(available.contains(window.frameGeometry()), "the window is not on the screen");
        QVERIFY(window.selectDevice(QStringLiteral("mpatha")));
        QVERIFY(window.showTab(QStringLiteral("statistics")));
        LiveStatsView *stats = window.statsView();
        for (quint64 second = 1; second <= 30; ++second)
            stats->onBatch(writeBatch(stats->devices(), second));
        WorkloadPanel *panel = window.workloadPanel();
        QVERIFY(window.workloadDock()->isVisible());
        feedFio(panel->chart());

        int charts = 0;
        QString why;
        QTRY_VERIFY2_WITH_TIMEOUT((why = chartsUnreadable(window, &charts)).isEmpty(), qPrintable(why), 30000);
        QVERIFY2((why = formUnreachable(panel)).isEmpty(), qPrintable(why));
        qInfo("%s: %d device charts in view", qPrintable(screenName()), charts);
        saveScreenshot(&window, QStringLiteral("idle"));

        // A run as the panel shows it (fio itself is not needed for the layout): Start, Template and Device
        // disabled, Stop enabled and focused, the status, the readout and the recording's name filled in.
        panel->findChild<QPushButton *>(QStringLiteral("workloadStart"))->setEnabled(false);
        auto *stop = panel->findChild<QPushButton *>(QStringLiteral("workloadStop"));
        stop->setEnabled(true);
        stop->setFocus();
        for (QComboBox *combo : panel->findChildren<QComboBox *>())
            combo->setEnabled(false);
        panel->findChild<QLabel *>(QStringLiteral("workloadStatus"))
            ->setText(QStringLiteral("fio running on /dev/dm-0 (mpatha), recording its latency histograms and the "
                                     "statistics of the map and its four paths, stop with Stop or wait 30 s"));
        FioRates overall;
        overall.name = QStringLiteral("seq-write-4k-64jobs");
        overall.writeIops = 116'500;
        overall.writeBytesPerSecond = 116'500 * 4096;
        overall.clat.p50Ns = 180'000;
        overall.clat.p99Ns = 1'250'000;
        panel->showRunResult({ overall }, QStringLiteral("/root/recordings/20261206-091500-seq-write-4k-64jobs.dmrec"));
        QApplication::processEvents();
        QTRY_VERIFY2_WITH_TIMEOUT((why = chartsUnreadable(window, &charts)).isEmpty(), qPrintable(why), 30000);
        QVERIFY2((why = formUnreachable(panel)).isEmpty(), qPrintable(why));
        auto *scroll = qobject_cast<QScrollArea *>(window.workloadDock()->widget());
        QVERIFY(scroll);
        QCOMPARE(scroll->verticalScrollBar()->value(), 0); // nothing scrolled the Template row away
        saveScreenshot(&window, QStringLiteral("running"));
    }
};

QTEST_MAIN(TestWorkloadDock)
#include "tst_workloaddock.moc"
