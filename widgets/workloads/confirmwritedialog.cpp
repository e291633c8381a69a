#include "widgets/workloads/confirmwritedialog.h"

#include <QLineEdit>

namespace dmtune {

namespace {
OperationPlan destroyPlan(const QString &device, const QStringList &reasons)
{
    OperationPlan plan;
    plan.kind = QStringLiteral("workload.start");
    plan.target = device;
    plan.summary = QStringLiteral("write to /dev/%1").arg(device);
    plan.risks.append(
        dataRisk(QStringLiteral("destroy-data:%1").arg(device), reasons.join(QStringLiteral("; ")), device));
    return plan;
}
} // namespace

ConfirmWriteDialog::ConfirmWriteDialog(const OperationPlan &plan, QWidget *parent)
    : PlanDialog(plan, parent)
{
    setObjectName(QStringLiteral("confirmWriteDialog"));
    setWindowTitle(tr("Destroy the data on /dev/%1?").arg(plan.target));
}

ConfirmWriteDialog::ConfirmWriteDialog(const QString &device, const QStringList &reasons, QWidget *parent)
    : ConfirmWriteDialog(destroyPlan(device, reasons), parent)
{
}

QString ConfirmWriteDialog::typedName() const
{
    return wordEdit()->text().trimmed();
}

} // namespace dmtune
