#pragma once
// One scenario through a main window's real code paths, the same for a local window inside the lab VM
// (vm_window_scenario, run in the guest) and for a remote window on the host over ssh (tst_vm_remote): what the
// window offers, then Tune apply and Undo of a path's nomerges, fail and reinstate a path, a two-point sweep of the
// map's nomerges, and the Latency tab and the Explain pane under a load the caller runs. Each step's plan text, risks
// and result go into one JSON object; the two windows' objects must be equal (parity).
#include <QJsonObject>
#include <QString>

#include <functional>

namespace dmtune {

class MainWindow;

struct WindowScenario {
    QString map; // dm name ("mpatha")
    QString path; // a path of group 2 by kernel name, tuned and failed ("sdd")
    QString pathDevnum; // its MAJ:MIN
    // Starts and stops a read load on the map (fio in the guest) for the Latency and Explain step.
    std::function<bool()> startLoad;
    std::function<void()> stopLoad;
};

// Runs the scenario in `window` (started; its host connected or connecting). Never throws; a step that cannot go on
// ends the scenario with "error" set in the object (the steps before it stay). Restores what it changed.
QJsonObject runWindowScenario(MainWindow *window, const WindowScenario &scenario);

} // namespace dmtune
