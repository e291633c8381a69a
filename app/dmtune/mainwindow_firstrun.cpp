// First run: on a machine without multipath maps (a laptop, a CI box, a server before its SAN is
// zoned) the window still opens on the real devices, says in one line what dmtune does with root
// and on a multipath host, and offers the lab device to try tuning and workloads without risk. The lab
// device is made and removed by the lab.create / lab.remove operations, run by the window's OperationRunner; in a
// remote host's window by its agent, on the host (its connection's end removes it there).
#include "mainwindow.h"

#include "core/discovery/discovery.h"
#include "core/host/hostsession.h"
#include "core/ops/laboperations.h"
#include "core/ops/operationservice.h"
#include "core/workloads/labloop.h"
#include "widgets/ops/plandialog.h"
#include "widgets/workloads/workloadpanel.h"

#include <QFileInfo>
#include <QLabel>
#include <QStatusBar>

#include <memory>

namespace dmtune {

namespace {
const auto createLink = QStringLiteral("lab:create");
const auto removeLink = QStringLiteral("lab:remove");

// "Lab device loop3 created" + the run's warnings.
QString withWarnings(QString text, const QStringList &warnings)
{
    if (!warnings.isEmpty())
        text += QStringLiteral(" (%1)").arg(warnings.join(QStringLiteral("; ")));
    return text;
}
} // namespace

void MainWindow::setupFirstRun()
{
    m_firstRunHint = new QLabel;
    m_firstRunHint->setObjectName(QStringLiteral("firstRunHint"));
    m_firstRunHint->setTextFormat(Qt::RichText);
    m_firstRunHint->setWordWrap(true);
    m_firstRunHint->setFrameShape(QFrame::StyledPanel);
    m_firstRunHint->setMargin(6);
    m_firstRunHint->hide();
    connect(m_firstRunHint, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link == createLink)
            createLabDevice();
        else if (link == removeLink)
            removeLabDevice();
    });
    // The host's session makes and removes it (this process, or a remote host's agent, which refuses where it cannot
    // make one) and says beforehand why it cannot here; the devices it made go with it.
    m_labWhyNot = m_hostSession->labUnavailableReason();
}

void MainWindow::setLabBaseDirectory(const QString &dir)
{
    m_hostSession->setLabBaseDirectory(dir);
}

LabDevices *MainWindow::labDevices() const
{
    return m_hostSession->labDevices();
}

void MainWindow::createLabDevice()
{
    if (m_labBusy || !m_labName.isEmpty())
        return;
    m_labBusy = true;
    if (m_workloadPanel)
        m_workloadPanel->setLabState({ m_labName, m_labWhyNot, true });
    statusBar()->showMessage(tr("Creating a lab device…"));
    // The base directory is this machine's; a remote host's agent takes its own default.
    runLabOperation(true, QString::fromLatin1(LabCreateKind),
        labCreateRequest(LabLoop::DefaultBytes, m_hostSession->labBaseDirectory()));
}

void MainWindow::removeLabDevice()
{
    if (m_labBusy || m_labName.isEmpty())
        return;
    m_labBusy = true;
    if (m_workloadPanel)
        m_workloadPanel->setLabState({ m_labName, m_labWhyNot, true });
    statusBar()->showMessage(tr("Removing lab device %1…").arg(m_labName));
    runLabOperation(false, QString::fromLatin1(LabRemoveKind), labRemoveRequest(m_labName));
}

void MainWindow::runLabOperation(bool creating, const QString &kind, const QJsonObject &request)
{
    m_hostSession->operations()->runUnlessAsked(
        kind, request, this, [this, creating](const OperationPlan &plan) { onLabPlanned(plan, creating); },
        [this, creating](const QString &error) {
            labSettled(
                creating ? tr("Lab device not created: %1").arg(error) : tr("Lab device not removed: %1").arg(error));
        },
        [this, creating](const OperationResult &result) { onLabFinished(result, creating); });
}

void MainWindow::onLabPlanned(const OperationPlan &plan, bool creating)
{
    // runUnlessAsked() hands a plan back only when it cannot run as it is: refused, or a risk to answer.
    if (!plan.runnable()) {
        QString why = plan.refusals.value(0);
        for (const OperationRisk &risk : plan.risks) {
            if (why.isEmpty() && !risk.confirmable)
                why = risk.text;
        }
        labSettled(creating ? tr("Lab device not created: %1").arg(why) : tr("Lab device not removed: %1").arg(why));
        return;
    }
    auto *dialog = new PlanDialog(plan, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PlanDialog::answered, this, [this, plan, creating](const OperationAnswers &answers) {
        m_hostSession->operations()->run(
            plan, answers, this, [this, creating](const OperationResult &result) { onLabFinished(result, creating); });
    });
    connect(dialog, &QDialog::rejected, this, [this, creating] {
        labSettled(
            creating ? tr("Lab device not created (not confirmed)") : tr("Lab device not removed (not confirmed)"));
    });
    dialog->open();
}

void MainWindow::onLabFinished(const OperationResult &result, bool creating)
{
    const QJsonObject details = result.details;
    if (creating) {
        if (!result.ok) {
            labSettled(tr("Lab device not created: %1").arg(result.error));
            return;
        }
        m_labName = details.value(QLatin1String("device")).toString();
        m_labBackingFile = details.value(QLatin1String("backing_file")).toString();
        m_selectWhenShown = m_labName;
        labSettled(withWarnings(tr("Lab device %1 created").arg(m_labName), result.warnings));
    } else {
        if (!result.ok) {
            labSettled(tr("Lab device %1 not removed: %2").arg(result.target, result.error));
            return;
        }
        m_labName.clear();
        m_labBackingFile.clear();
        labSettled(withWarnings(tr("Lab device %1 removed").arg(result.target), result.warnings));
    }
    // The host's session reads the devices again after every result that may have changed them.
}

void MainWindow::labSettled(const QString &message)
{
    m_labBusy = false;
    if (m_workloadPanel)
        m_workloadPanel->setLabState({ m_labName, m_labWhyNot, false });
    updateFirstRunHint(m_discovery->snapshot());
    statusBar()->showMessage(message, 15000);
    Q_EMIT labDeviceChanged(m_labName);
}

void MainWindow::updateFirstRunHint(const DeviceSnapshot &snapshot)
{
    // The lab device is selected as soon as a scan shows it (the tree only knows scanned devices).
    if (!m_selectWhenShown.isEmpty() && selectDevice(m_selectWhenShown))
        m_selectWhenShown.clear();

    if (!m_labName.isEmpty()) {
        // The folder the run reported (a remote host's is its agent's choice).
        const QString folder
            = m_labBackingFile.isEmpty() ? m_hostSession->labBaseDirectory() : QFileInfo(m_labBackingFile).path();
        m_firstRunHint->setText(tr("Lab device <b>%1</b>: a %2 GiB sparse file in %3 behind a loop device "
                                   "with direct I/O, removed when this window closes. Tune it and run workloads on "
                                   "it freely. <a href=\"%4\">Remove it</a>")
                                    .arg(m_labName)
                                    .arg(LabLoop::DefaultBytes >> 30)
                                    .arg(folder.toHtmlEscaped(), removeLink));
        m_firstRunHint->show();
        return;
    }
    if (!snapshot.maps.isEmpty() || !snapshot.nvmeMultipath.isEmpty()) {
        m_firstRunHint->hide();
        return;
    }
    QString text = tr("No multipath maps here. On a dm-multipath host dmtune shows and edits each map's path "
                      "groups and paths; as root it tunes queue parameters and runs fio workloads.");
    if (m_labWhyNot.isEmpty())
        text += QLatin1Char(' ')
            + tr("<a href=\"%1\">Create a lab device</a> (a loop device over a sparse file) to try both safely.")
                  .arg(createLink);
    else if (m_sysfs.isLive())
        text += QLatin1Char(' ')
            + tr("A lab device (a loop device over a sparse file) lets you try both safely; %1.")
                  .arg(m_labWhyNot.toHtmlEscaped());
    m_firstRunHint->setText(text);
    m_firstRunHint->show();
}

} // namespace dmtune
