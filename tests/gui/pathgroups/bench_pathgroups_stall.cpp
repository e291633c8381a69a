// The UI thread's longest stall while device-mapper blocks (not a pass/fail test; the number goes to
// docs/architecture.md). A backend whose info/table/status each sleep (as a suspended map or a busy
// multipathd makes libdevmapper wait) under the Path groups tab, shown offscreen with its 1 Hz poll, while
// the tree's actions run a reinstate (no question: plan and run on the runner's job) and a reload plan is
// made. A 1 ms QTimer on the UI thread ticks all along; the longest gap between two ticks is the stall.
// Usage: bench_pathgroups_stall [seconds=10] [delay_ms=2000] [idle]; target: under 16 ms. The timer starts
// 500 ms after the window is shown (its first layout and paint are not the poll's); "idle" runs the timer
// without the tab: what the machine itself adds (other processes on the same cores).
#include "widgets/pathgroups/multipathactions.h"
#include "widgets/pathgroups/pathgroupeditor.h"
#include "widgets/pathgroups/pathgroupspanel.h"

#include "tests/common/fakedevicemapper.h"
#include "tests/common/multipathfixture.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <QThread>
#include <QTimer>

#include <atomic>

using namespace dmtune;

namespace {

// Delegates to a FakeDeviceMapper; the reads sleep first (the writes do not: the reads are what the poll does).
class SlowDeviceMapper : public DeviceMapper {
public:
    explicit SlowDeviceMapper(int delayMs)
        : m_delayMs(delayMs)
    {
    }
    FakeDeviceMapper fake;
    std::atomic<int> reads { 0 };

    Result<QList<DmMapName>> listMaps() override { return fake.listMaps(); }
    Result<DmInfo> info(const QString &name) override
    {
        block();
        return fake.info(name);
    }
    Result<QList<DmTargetLine>> table(const QString &name) override
    {
        block();
        return fake.table(name);
    }
    Result<QList<DmTargetLine>> status(const QString &name) override
    {
        block();
        return fake.status(name);
    }
    Status message(const QString &name, const QString &text) override { return fake.message(name, text); }
    Status reload(const QString &name, const QList<DmTargetLine> &table) override { return fake.reload(name, table); }
    Result<quint32> waitEvent(const QString &name, quint32 eventNr) override { return fake.waitEvent(name, eventNr); }

private:
    void block()
    {
        ++reads;
        QThread::msleep(m_delayMs);
    }
    const int m_delayMs;
};

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int seconds = argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 10;
    const int delayMs = argc > 2 ? QString::fromLocal8Bit(argv[2]).toInt() : 2000;
    const bool idle = argc > 3 && qstrcmp(argv[3], "idle") == 0;
    QTextStream out(stdout);

    auto dm = std::make_unique<SlowDeviceMapper>(delayMs);
    // tests/common's fixture map (mpatha over sda..sdd), sdb failed.
    const QString map = test::fixtureMap;
    const Status added = test::addFixtureMapWithTable(dm->fake, test::fixtureTableParams(),
        QStringLiteral("2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 F 1 E 0 2 0 8:32 A 0 8:48 A 0"));
    if (!added)
        qFatal("%s", qPrintable(added.errorMessage()));
    auto panel = std::make_unique<PathGroupsPanel>(dm.get());
    panel->resize(1100, 750);
    panel->setReadInterval(1000);
    if (!idle) {
        panel->show();
        panel->showMap(map);
    }

    QElapsedTimer clock;
    clock.start();
    qint64 last = 0;
    qint64 longest = 0;
    qint64 longestAt = 0;
    qint64 ticks = 0;
    QStringList overTarget; // "at 1234 ms: 20 ms"
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(1);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        if (now - last >= 16)
            overTarget << QStringLiteral("%1 ms: %2 ms").arg(last).arg(now - last);
        if (now - last > longest) {
            longest = now - last;
            longestAt = last;
        }
        last = now;
        ++ticks;
    });
    QTimer::singleShot(500, [&] {
        clock.start();
        tick.start();
    });
    int reads = 0;
    QObject::connect(panel.get(), &PathGroupsPanel::stateRead, [&](const QString &, bool) { ++reads; });
    int operations = 0;
    QObject::connect(panel.get(), &PathGroupsPanel::operationFinished, [&](const OperationResult &) { ++operations; });
    // The user's actions while the map is slow: reinstate runs without a question; Apply plans a reload.
    if (!idle) {
        QTimer::singleShot(1500, [&] { panel->actions()->reinstatePath(map, QStringLiteral("8:16")); });
        // Once the first read is in (with 2 s reads: after about 6 s), Apply plans a reload.
        QObject::connect(panel.get(), &PathGroupsPanel::stateRead, [&] {
            if (!panel->editor()->draft().isModified() && panel->editor()->moveGroup(0, 1))
                panel->editor()->apply();
        });
    }
    QTimer::singleShot(500 + seconds * 1000, &app, &QApplication::quit);
    app.exec();
    tick.stop();

    out << "bench_pathgroups_stall: " << seconds << " s, "
        << (idle ? QStringLiteral("idle (no tab: the machine's own noise)")
                 : QStringLiteral("every device-mapper read blocks %1 ms").arg(delayMs))
        << '\n';
    out << "  UI thread: " << ticks << " ticks of a 1 ms timer, longest gap " << longest << " ms at " << longestAt
        << " ms (target < 16 ms)\n";
    out << "  gaps of 16 ms or more: "
        << (overTarget.isEmpty() ? QStringLiteral("none") : overTarget.join(QStringLiteral(", "))) << '\n';
    out << "  poll reads reaching the tab: " << reads << ", backend reads started: " << dm->reads.load()
        << ", operations finished: " << operations << '\n';
    out.flush();
    panel.reset(); // joins the reads still sleeping
    return 0;
}
