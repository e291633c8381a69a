// Replot speed of the live charts, offscreen (not a pass/fail test; the numbers go to docs/charts.md).
//  1. One QCustomPlot, 32 graphs x 3,600 points (an hour at 1 s), 1-px pens, 1200 x 400: full replots per
//     second, static and scrolling (addData + removeBefore + setRange each frame), antialiased or not.
//  2. The whole LiveStatsView with 16 devices x 1 h of 1 s history: one tick (onBatch, the seven queued
//     replots and the table), and the rebuild from the store when the device set changes.
// Usage: bench_charts [frames]
#include "batchmaker.h"

#include "core/stats/seriesstore.h"
#include "widgets/charts/chartpanel.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/charts/qcp_p.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <cmath>
#include <ctime>
#include <random>

using namespace dmtune;

namespace {

QTextStream out(stdout);

struct Scene {
    QCustomPlot plot;
    double now = 1'700'000'000.0;
    std::mt19937 rng { 42 };
    QList<double> level;

    Scene(int graphs, int points, bool antialiased)
    {
        plot.resize(1200, 400);
        QSharedPointer<QCPAxisTickerDateTime> ticker(new QCPAxisTickerDateTime);
        ticker->setDateTimeFormat(QStringLiteral("hh:mm:ss"));
        plot.xAxis->setTicker(ticker);
        plot.legend->setVisible(false);
        std::normal_distribution<double> step(0, 5);
        for (int g = 0; g < graphs; ++g) {
            QCPGraph *graph = plot.addGraph();
            graph->setPen(QPen(QColor::fromHsv((g * 37) % 360, 200, 190), 1, g % 2 ? Qt::DashLine : Qt::SolidLine));
            graph->setAntialiased(antialiased);
            QVector<QCPGraphData> data(points);
            double v = 100 + g * 10;
            for (int i = 0; i < points; ++i) {
                v = std::max(0.0, v + step(rng));
                data[i] = QCPGraphData(now - points + 1 + i, v);
            }
            graph->data()->set(data, true);
            level.append(v);
        }
        plot.xAxis->setRange(now, points, Qt::AlignRight);
        plot.yAxis->setRange(0, 600);
        plot.show();
    }

    void scroll(int points)
    {
        now += 1;
        std::normal_distribution<double> step(0, 5);
        for (int g = 0; g < plot.graphCount(); ++g) {
            level[g] = std::max(0.0, level[g] + step(rng));
            plot.graph(g)->addData(now, level[g]);
            plot.graph(g)->data()->removeBefore(now - points);
        }
        plot.xAxis->setRange(now, points, Qt::AlignRight);
    }
};

// The build box is shared: wall-clock rates fall when others compile. CPU time of this process is the
// steadier figure (the offscreen replot runs on this thread).
double cpuSeconds()
{
    timespec ts {};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

struct Rate {
    double wall; // frames per second of wall-clock time
    double cpu; // frames per CPU-second
};

Rate framesPerSecond(Scene &scene, int frames, bool scrolling, int points)
{
    scene.plot.replot(QCustomPlot::rpImmediateRefresh); // warm up: layout, label caches
    QElapsedTimer timer;
    timer.start();
    const double cpu0 = cpuSeconds();
    for (int i = 0; i < frames; ++i) {
        if (scrolling)
            scene.scroll(points);
        scene.plot.replot(QCustomPlot::rpImmediateRefresh);
    }
    return { frames / (double(timer.nsecsElapsed()) / 1e9), frames / (cpuSeconds() - cpu0) };
}

} // namespace

int main(int argc, char **argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int frames = argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 60;
    constexpr int graphs = 32;
    constexpr int points = 3600;

    out << "QCustomPlot " << QCUSTOMPLOT_VERSION_STR << ", Qt " << qVersion() << ", platform "
        << QGuiApplication::platformName() << ", " << frames << " frames each\n";
    out << graphs << " graphs x " << points << " points, 1200 x 400 px:\n";
    for (bool aa : { false, true }) {
        Scene scene(graphs, points, aa);
        const Rate still = framesPerSecond(scene, frames, false, points);
        const Rate scrolling = framesPerSecond(scene, frames, true, points);
        out << QStringLiteral("  %1: static %2 frames/s (%3 per CPU-s), scrolling with addData + removeBefore + "
                              "setRange %4 frames/s (%5 per CPU-s)\n")
                   .arg(aa ? QStringLiteral("antialiased   ") : QStringLiteral("aliased (ours)"))
                   .arg(still.wall, 0, 'f', 1)
                   .arg(still.cpu, 0, 'f', 1)
                   .arg(scrolling.wall, 0, 'f', 1)
                   .arg(scrolling.cpu, 0, 'f', 1);
        out.flush();
    }

    // The whole view: 16 devices (a map and 15 paths), an hour of 1 s samples, 1 h window.
    QStringList devices { QStringLiteral("dm-0") };
    for (int i = 0; i < 15; ++i)
        devices.append(QStringLiteral("sd%1").arg(QChar(u'b' + i)));
    SeriesStore store;
    test::BatchMaker maker;
    for (int i = 0; i < points; ++i)
        store.append(maker.next(devices));
    LiveStatsView view(nullptr, &store);
    view.resize(1600, 1200);
    view.setWindowSeconds(3600);
    view.show();
    QElapsedTimer timer;
    timer.start();
    view.setDevices(devices);
    QCoreApplication::processEvents();
    const double rebuildMs = double(timer.nsecsElapsed()) / 1e6;
    int graphCount = 0;
    for (ChartPanel *p : view.panels())
        graphCount += p->graphCount();

    int replots = 0;
    for (ChartPanel *p : view.panels())
        QObject::connect(p->plot(), &QCustomPlot::afterReplot, &app, [&replots] { ++replots; });
    const int ticks = std::max(10, frames / 3);
    timer.restart();
    const double cpu0 = cpuSeconds();
    for (int i = 0; i < ticks; ++i) {
        const SampleBatch b = maker.next(devices);
        store.append(b);
        view.onBatch(b);
        QCoreApplication::processEvents(); // the seven queued replots and the paint
    }
    const double tickMs = double(timer.nsecsElapsed()) / 1e6 / ticks;
    const double tickCpuMs = (cpuSeconds() - cpu0) * 1e3 / ticks;
    out << "LiveStatsView, " << devices.size() << " devices, 7 charts, " << graphCount << " graphs x " << points
        << " points, 1600 x 1200 px:\n";
    out << QStringLiteral("  one tick (onBatch + %3 replots + table): %1 ms wall, %2 ms CPU\n")
               .arg(tickMs, 0, 'f', 1)
               .arg(tickCpuMs, 0, 'f', 1)
               .arg(double(replots) / ticks, 0, 'f', 1);
    out << QStringLiteral("  rebuild from the store (setDevices): %1 ms\n").arg(rebuildMs, 0, 'f', 1);
    out.flush();
    return 0;
}
