// The scenario of windowscenario.h through a LOCAL main window inside the lab VM (run by tst_vm_remote over ssh in
// the guest, as root): the window this machine would show of its own map. Prints the scenario's JSON on stdout;
// exit 0 when it ran to its end, 1 when a step could not go on (the JSON says which), 2 on a bad command line.
// Usage: vm_window_scenario MAP PATH PATH_DEVNUM
// The load of the Latency/Explain step is fio on /dev/mapper/MAP (a read, 120 s at most), stopped after the step.
#include "windowscenario.h"

#include "app/dmtune/mainwindow.h"

#include <QApplication>
#include <QJsonDocument>
#include <QProcess>

#include <cstdio>

using namespace dmtune;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.size() != 3) {
        std::fprintf(stderr, "usage: vm_window_scenario MAP PATH PATH_DEVNUM\n");
        return 2;
    }
    QProcess load;
    WindowScenario scenario { args.at(0), args.at(1), args.at(2), {}, {} };
    scenario.startLoad = [&] {
        load.start(QStringLiteral("fio"),
            { QStringLiteral("--name=parityload"), QStringLiteral("--filename=/dev/mapper/") + scenario.map,
                QStringLiteral("--rw=randread"), QStringLiteral("--bs=4k"), QStringLiteral("--direct=1"),
                QStringLiteral("--ioengine=libaio"), QStringLiteral("--iodepth=4"), QStringLiteral("--time_based"),
                QStringLiteral("--runtime=120"), QStringLiteral("--output=/dev/null") });
        return load.waitForStarted();
    };
    scenario.stopLoad = [&] {
        load.terminate();
        if (!load.waitForFinished(10000))
            load.kill();
        load.waitForFinished(5000);
    };
    MainWindow window; // this machine: the guest's live /sys, as root
    window.resize(1280, 720);
    window.show();
    window.start();
    const QJsonObject result = runWindowScenario(&window, scenario);
    std::fputs(QJsonDocument(result).toJson(QJsonDocument::Compact).constData(), stdout);
    std::fputs("\n", stdout);
    return result.contains(QLatin1String("error")) ? 1 : 0;
}
