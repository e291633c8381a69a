#include "widgets/params/confirmriskdialog.h"

#include <QCoreApplication>

namespace dmtune {

namespace {
OperationPlan riskPlan(const QList<DataRisk> &risks)
{
    OperationPlan plan;
    plan.summary = QCoreApplication::translate("ConfirmRiskDialog", "These writes put data at risk");
    for (const DataRisk &r : risks) {
        plan.steps.append(QStringLiteral("%1 %2 -> %3").arg(r.device, r.attribute, r.value));
        plan.risks.append(
            dataRisk(QStringLiteral("data-risk:%1:%2=%3").arg(r.device, r.attribute, r.value), r.text(), r.device));
    }
    return plan;
}
} // namespace

ConfirmRiskDialog::ConfirmRiskDialog(const QList<DataRisk> &risks, QWidget *parent)
    : PlanDialog(riskPlan(risks), parent)
{
    setObjectName(QStringLiteral("confirmRiskDialog"));
    setWindowTitle(tr("Put data at risk?"));
}

} // namespace dmtune
