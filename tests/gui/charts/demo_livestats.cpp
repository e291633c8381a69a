// A real Sampler on this machine's block devices while dd writes and then reads a 200 MiB file in /var/tmp
// with direct I/O (a file, never a block device; removed at the end), markers at each workload start and stop.
// Grabs the LiveStatsView into a PNG at the end (docs/screenshot-charts.png).
// Usage: charts_demo [screenshot.png] [max-seconds] [export-dir]
#include "core/stats/sampler.h"
#include "core/stats/seriesstore.h"
#include "widgets/charts/livestatsview.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTextStream>
#include <QTimer>

#include <functional>
#include <utility>

#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace dmtune;

namespace {

const QString demoFile = QStringLiteral("/var/tmp/dmtune-demo");

QString readSys(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
}

// The whole disk that holds a path (its partition's parent), by the path's st_dev.
QString diskOf(const QString &path)
{
    struct stat st { };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return {};
    const QString link = QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_dev)).arg(minor(st.st_dev));
    const QFileInfo info(link);
    if (!info.exists())
        return {};
    QString name = QFileInfo(info.canonicalFilePath()).fileName();
    if (QFileInfo::exists(info.canonicalFilePath() + QStringLiteral("/partition")))
        name = QFileInfo(QFileInfo(info.canonicalFilePath()).path()).fileName();
    return name;
}

double nowSeconds()
{
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

} // namespace

int main(int argc, char **argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString screenshot = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("screenshot-charts.png");
    const int seconds = argc > 2 ? QString::fromLocal8Bit(argv[2]).toInt() : 30; // a limit; see finish
    const QString exportDir = argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString();
    QTextStream err(stderr);

    // The disk under /var/tmp first, then the other whole devices with a size (no empty loops or zram).
    QStringList devices;
    const QString target = diskOf(QStringLiteral("/var/tmp"));
    if (!target.isEmpty())
        devices.append(target);
    for (const QString &name : QDir(QStringLiteral("/sys/block")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (devices.size() >= 4 || devices.contains(name))
            continue;
        if (readSys(QStringLiteral("/sys/block/%1/size").arg(name)).toLongLong() > 0)
            devices.append(name);
    }
    QHash<QString, QString> labels;
    for (const QString &name : std::as_const(devices)) {
        const QString dmName = readSys(QStringLiteral("/sys/block/%1/dm/name").arg(name));
        if (!dmName.isEmpty())
            labels.insert(name, QStringLiteral("%1 (%2)").arg(dmName, name));
    }
    if (!target.isEmpty())
        labels.insert(target, labels.value(target, target) + QStringLiteral(" /var/tmp"));
    err << "charting " << devices.join(QStringLiteral(", ")) << " for " << seconds << " s\n";
    err.flush();

    Sampler sampler;
    sampler.setWatched(devices);
    sampler.setInterval(500);
    SeriesStore store;
    QObject::connect(&sampler, &Sampler::samplesAvailable, &app, [&store](const SampleBatch &b) { store.append(b); });
    QObject::connect(
        &sampler, &Sampler::deviceVanished, &app, [&store](const QString &name) { store.endSeries(name); });

    LiveStatsView view(&sampler, &store);
    view.setWindowTitle(QStringLiteral("dmtune — live statistics"));
    view.resize(1500, 1350);
    view.setWindowSeconds(60);
    view.setDeviceLabels(labels);
    view.setDevices(devices);
    view.show();
    sampler.start();

    // Workload, each phase bracketed by markers: large direct writes, small synchronous writes, large and
    // small direct reads of the same file. A phase still running after phaseMs is stopped. The screenshot is
    // taken while the last phase runs, so that the table shows a busy interval.
    struct Phase {
        QString label;
        QStringList ddArgs;
    };
    const QList<Phase> phases {
        { QStringLiteral("dd write 1M direct"),
            { QStringLiteral("if=/dev/zero"), QStringLiteral("of=") + demoFile, QStringLiteral("bs=1M"),
                QStringLiteral("count=200"), QStringLiteral("oflag=direct") } },
        { QStringLiteral("dd write 4k direct,dsync"),
            { QStringLiteral("if=/dev/zero"), QStringLiteral("of=") + demoFile, QStringLiteral("bs=4k"),
                QStringLiteral("count=51200"), QStringLiteral("oflag=direct,dsync"), QStringLiteral("conv=notrunc") } },
        { QStringLiteral("dd read 64k direct"),
            { QStringLiteral("if=") + demoFile, QStringLiteral("of=/dev/null"), QStringLiteral("bs=64k"),
                QStringLiteral("iflag=direct") } },
        { QStringLiteral("dd read 4k direct"),
            { QStringLiteral("if=") + demoFile, QStringLiteral("of=/dev/null"), QStringLiteral("bs=4k"),
                QStringLiteral("iflag=direct") } },
    };
    constexpr int phaseMs = 4000;
    constexpr int pauseMs = 2500;
    QProcess dd;
    int phase = -1;
    std::function<void()> nextPhase = [&] {
        if (++phase >= phases.size())
            return;
        view.addMarker(nowSeconds(), phases[phase].label, MarkerKind::WorkloadStart);
        dd.start(QStringLiteral("/bin/dd"), phases[phase].ddArgs);
        const int started = phase;
        QTimer::singleShot(phaseMs, &app, [&, started] {
            if (phase == started && dd.state() != QProcess::NotRunning)
                dd.terminate();
        });
    };
    QObject::connect(&dd, &QProcess::finished, &app, [&](int code, QProcess::ExitStatus status) {
        Q_UNUSED(code);
        view.addMarker(nowSeconds(),
            status == QProcess::CrashExit ? QStringLiteral("dd stopped") : QStringLiteral("dd done"),
            MarkerKind::WorkloadStop);
        QTimer::singleShot(pauseMs, &app, nextPhase);
    });
    QTimer::singleShot(2000, &app, nextPhase);

    int exitCode = 0;
    bool finished = false;
    auto finish = [&] {
        if (std::exchange(finished, true))
            return;
        if (!view.grab().save(screenshot)) {
            err << "could not write " << screenshot << '\n';
            exitCode = 1;
        }
        if (!exportDir.isEmpty()) {
            const auto written = view.exportAll(exportDir);
            if (!written) {
                err << written.errorMessage() << '\n';
                exitCode = 1;
            }
        }
        sampler.stop();
        app.quit();
    };
    // Two seconds into the last phase, or at the time limit.
    QObject::connect(&view, &LiveStatsView::markerAdded, &app, [&](const ChartMarker &m) {
        if (m.kind == MarkerKind::WorkloadStart && m.label == phases.constLast().label)
            QTimer::singleShot(2000, &app, finish);
    });
    QTimer::singleShot(seconds * 1000, &app, finish);
    app.exec();
    QObject::disconnect(&dd, nullptr, nullptr, nullptr);
    if (dd.state() != QProcess::NotRunning) {
        dd.kill();
        dd.waitForFinished(3000);
    }
    QFile::remove(demoFile);
    err << "wrote " << screenshot << ", " << store.sampleCount() << " samples\n";
    return exitCode;
}
