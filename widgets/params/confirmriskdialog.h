#pragma once
// The PlanDialog (widgets/ops) for writes that put data at risk outside an operation's plan (the Presets tab's
// change sets, core/params planner.h: DataRisk): the risks become the plan's risks, each naming its device to
// type. The Tune tab shows the tuning.apply plan in a PlanDialog itself. Opened with open(); the caller acts on
// accepted().
#include "core/params/planner.h"
#include "widgets/ops/plandialog.h"

namespace dmtune {

class ConfirmRiskDialog : public PlanDialog {
    Q_OBJECT
public:
    ConfirmRiskDialog(const QList<DataRisk> &risks, QWidget *parent = nullptr);
    QPushButton *confirmButton() const { return runButton(); }
};

} // namespace dmtune
