#pragma once
// dmtunectl preset apply over a given environment: what `preset apply` does after reading its command line. Also
// called in-process by tests that drive the GUI and the CLI with the same fake device-mapper
// (tests/gui/presets/tst_presetparity.cpp).
#include "cli.h"
#include "core/ops/operationregistry.h"

#include <QJsonObject>

namespace dmtune::cli {

struct PresetApplyOptions {
    bool dryRun = false;
    bool json = false;
    ConsentGiven consent; // --destroy-data-on, --force: answered by the consent model (ops/consent.h)
};

// Prints the plan's preview and notes, refuses (one line) a plan with refusals (exit 2; 1 for maps that cannot be
// reloaded) or with a risk the consent left unanswered (exit 1, also for --dry-run, with the line that says how to
// answer it), runs, prints the result (exit 0 applied, 1 failed and rolled back, 2 rejected before any write).
int runPresetApply(
    const OperationEnvironment &env, const QJsonObject &request, const PresetApplyOptions &options, Streams io);

} // namespace dmtune::cli
