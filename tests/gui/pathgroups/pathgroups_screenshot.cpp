// pathgroups_screenshot [FILE]: the "Path groups" tab over a FakeDeviceMapper map (service-time and
// queue-length groups, ALUA), with a minute and a half of made-up selector history (a path failing and
// coming back, a group switch) and one pending edit, saved as a PNG (default: pathgroups-screenshot.png in the working
// directory; the docs show the lab VM's map instead).
// --unavailable shows the tab without device-mapper instead. For the docs; run with QT_QPA_PLATFORM=offscreen. Nothing
// here touches a kernel.
#include "tests/common/testpaths.h"
#include "widgets/pathgroups/pathgroupeditor.h"
#include "widgets/pathgroups/pathgroupspanel.h"
#include "widgets/pathgroups/selectorchart.h"

#include "core/ops/hostcontext.h"
#include "tests/common/fakedevicemapper.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QRegularExpression>
#include <QTimer>

#include <cmath>
#include <cstdio>

using namespace dmtune;

namespace {

const QString map = QStringLiteral("mpatha");
const QString table = QStringLiteral("1 queue_if_no_path 1 alua 2 1 service-time 0 2 2 8:16 1 1 8:32 1 1 "
                                     "queue-length 0 2 1 8:48 1 8:64 1");

QString status(bool sdcUp, int failCount, int active, qint64 bytesB, qint64 bytesC, int iosD, int iosE)
{
    return QStringLiteral("2 0 1 0 2 %1 %2 0 2 2 8:16 A 0 %3 1 8:32 %4 %5 %6 1 %7 0 2 1 8:48 A 0 %8 8:64 A 0 %9")
        .arg(active)
        .arg(active == 1 ? QStringLiteral("A") : QStringLiteral("E"))
        .arg(bytesB)
        .arg(sdcUp ? QStringLiteral("A") : QStringLiteral("F"))
        .arg(failCount)
        .arg(sdcUp ? bytesC : 0)
        .arg(active == 2 ? QStringLiteral("A") : QStringLiteral("E"))
        .arg(iosD)
        .arg(iosE);
}

DeviceSnapshot snapshot()
{
    DeviceSnapshot s;
    const QStringList names { QStringLiteral("sdb"), QStringLiteral("sdc"), QStringLiteral("sdd"),
        QStringLiteral("sde") };
    for (int i = 0; i < names.size(); ++i) {
        BlockDevice d;
        d.name = names.at(i);
        d.devnum = QStringLiteral("8:%1").arg(16 * (i + 1));
        d.kind = DeviceKind::Scsi;
        s.devices << d;
    }
    MultipathMap m;
    m.name = map;
    m.device = QStringLiteral("dm-0");
    m.slaves = names;
    m.groupsKnown = true;
    s.maps << m;
    s.deviceMapper.available = true;
    return s;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments().mid(1);
    // --unavailable: the tab on a machine without device-mapper (a captured tree here), as it looks there.
    const bool unavailable = args.contains(QStringLiteral("--unavailable"));
    const QStringList files = QStringList(args).filter(QRegularExpression(QStringLiteral("^[^-]")));
    const QString file = !files.isEmpty() ? files.first() : QStringLiteral("pathgroups-screenshot.png");
    if (unavailable) {
        PathGroupsPanel panel(std::make_shared<const HostContext>(SysfsRoot(QDir::tempPath(), QString())));
        DeviceSnapshot s = snapshot();
        s.deviceMapper.available = false;
        s.maps[0].groupsKnown = false;
        s.maps[0].groupsUnknownReason = QStringLiteral("device-mapper: not available (no dm_mod in /sys/module and no "
                                                       "device-mapper in /proc/misc)");
        panel.setSnapshot(s);
        panel.showMap(map);
        panel.resize(1000, 600);
        panel.show();
        QTimer::singleShot(300, &panel, [&panel, file] {
            const bool saved = panel.grab().save(file);
            QCoreApplication::exit(saved ? 0 : 1);
        });
        return app.exec();
    }
    FakeDeviceMapper dm;
    const QString now = status(true, 1, 1, 98304, 65536, 3, 2);
    if (const Status added = dm.addMap(
            map, QStringLiteral("0 209715200 multipath ") + table, QStringLiteral("0 209715200 multipath ") + now);
        !added) {
        std::fprintf(stderr, "pathgroups_screenshot: %s\n", qPrintable(added.errorMessage()));
        return 1;
    }

    PathGroupsPanel panel(&dm);
    panel.setSnapshot(snapshot());
    panel.showMap(map);

    // 90 s of history, one read a second, ending now: sdc fails at -60 s (I/O moves to group 2 for a
    // while), comes back at -35 s, and group 1 takes over again.
    SelectorChart *chart = panel.chart();
    chart->clear();
    const MultipathTable parsed = parseMultipathTable(table).value();
    const double end = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    for (int i = 90; i >= 1; --i) {
        const double t = end - i;
        const bool sdcUp = i > 60 || i < 35;
        const int active = (i <= 60 && i > 50) ? 2 : 1;
        const double wave = 0.5 + 0.5 * std::sin(i / 6.0);
        const qint64 b = active == 1 ? qint64(65536 + 98304 * wave) : 0;
        const qint64 c = active == 1 ? qint64(49152 + 65536 * (1 - wave)) : 0;
        const int d = active == 2 ? 4 + i % 3 : i % 2;
        const int e = active == 2 ? 3 + (i + 1) % 4 : 0;
        chart->addStatus(t, parsed, parseMultipathStatus(status(sdcUp, i > 60 ? 0 : 1, active, b, c, d, e)).value());
    }
    panel.readNow();

    // One pending edit: sde joins the service-time group, so the preview and the diff have something to say.
    panel.editor()->movePath(QStringLiteral("8:64"), 0);

    panel.resize(1280, 860);
    panel.show();
    QTimer::singleShot(300, &panel, [&panel, file] {
        const bool saved = panel.grab().save(file);
        if (!saved)
            std::fprintf(stderr, "pathgroups_screenshot: could not write %s\n", qPrintable(file));
        else
            std::printf("%s\n", qPrintable(file));
        QCoreApplication::exit(saved ? 0 : 1);
    });
    return app.exec();
}
