#pragma once
// The PlanDialog (widgets/ops) of a workload.start plan whose write would destroy what the device holds: the
// reasons (signatures, partitions) are the plan's risk, the destroy button stays disabled until the device's
// name is typed. The run re-checks the device (ops/workloadoperations.h): the dialog only collects the answer.
#include "widgets/ops/plandialog.h"

namespace dmtune {

class ConfirmWriteDialog : public PlanDialog {
    Q_OBJECT
public:
    explicit ConfirmWriteDialog(const OperationPlan &plan, QWidget *parent = nullptr);
    // A plan with one risk on `device` (what the dock's plan has), for a dialog without a plan.
    ConfirmWriteDialog(const QString &device, const QStringList &reasons, QWidget *parent = nullptr);
    QString typedName() const;
    QLineEdit *nameEdit() const { return wordEdit(); }
    QPushButton *destroyButton() const { return runButton(); }
};

} // namespace dmtune
