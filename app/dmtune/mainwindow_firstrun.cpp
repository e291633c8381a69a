// First run: on a machine without multipath maps (a laptop, a CI box, a server before its SAN is
// zoned) the window still opens on the real devices, says in one line what dmtune does with root
// and on a multipath host, and offers the lab device to try tuning and workloads without risk.
#include "mainwindow.h"

#include "discovery/discovery.h"
#include "jobs/jobtracker.h"
#include "workloads/labdevice.h"

#include <QLabel>
#include <QStatusBar>

#include <memory>

namespace dmtune {

namespace {
const auto createLink = QStringLiteral("lab:create");
const auto removeLink = QStringLiteral("lab:remove");
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
    m_labDevice = new LabDevice(this); // no device until asked; its destructor removes the one it made
    if (m_sysfs.isLive() && LabDevice::canCreate()) {
        // A crashed dmtune's lab devices (their owner is gone) go at start; loop ioctls, so off the UI thread, as a
        // job of a tracker the window owns (it joins the job when the window goes).
        auto *jobs = new JobTracker(this);
        jobs->start(
            QStringLiteral("remove stale lab devices"),
            [base = m_labDevice->baseDirectory()](JobContext &) { return LabDevice::removeStale(base); },
            [this](const QStringList &removed) {
                if (!removed.isEmpty())
                    statusBar()->showMessage(
                        QStringLiteral("Stale lab devices: ") + removed.join(QLatin1String("; ")), 15000);
            });
    }
}

void MainWindow::updateFirstRunHint(const DeviceSnapshot &snapshot)
{
    // The lab device is selected as soon as a scan shows it (the tree only knows scanned devices).
    if (!m_selectWhenShown.isEmpty() && selectDevice(m_selectWhenShown))
        m_selectWhenShown.clear();

    if (m_labDevice->exists()) {
        m_firstRunHint->setText(
            QStringLiteral("Lab device <b>%1</b>: a %2 GiB sparse file in %3 behind a loop device "
                           "with direct I/O, removed when dmtune quits. Tune it and run workloads on "
                           "it freely. <a href=\"%4\">Remove it</a>")
                .arg(m_labDevice->deviceName())
                .arg(LabDevice::DefaultBytes >> 30)
                .arg(m_labDevice->baseDirectory().toHtmlEscaped(), removeLink));
        m_firstRunHint->show();
        return;
    }
    if (!snapshot.maps.isEmpty()) {
        m_firstRunHint->hide();
        return;
    }
    QString text
        = QStringLiteral("No multipath maps here. On a dm-multipath host dmtune shows and edits each map's path "
                         "groups and paths; as root it tunes queue parameters and runs fio workloads.");
    // A captured tree is another machine's: nothing to create there.
    QString why;
    if (m_sysfs.isLive() && LabDevice::canCreate(&why))
        text += QStringLiteral(" <a href=\"%1\">Create a lab device</a> (a loop device over a sparse file) to try both "
                               "safely.")
                    .arg(createLink);
    else if (m_sysfs.isLive())
        text += QStringLiteral(" A lab device (a loop device over a sparse file) lets you try both safely; %1.")
                    .arg(why.toHtmlEscaped());
    m_firstRunHint->setText(text);
    m_firstRunHint->show();
}

void MainWindow::createLabDevice()
{
    const Result<QString> created = m_labDevice->create();
    if (!created) {
        statusBar()->showMessage(QStringLiteral("Lab device not created: %1").arg(created.errorMessage()), 15000);
        return;
    }
    m_selectWhenShown = *created;
    statusBar()->showMessage(QStringLiteral("Lab device %1 created").arg(*created), 10000);
    m_discovery->refresh();
}

void MainWindow::removeLabDevice()
{
    const QString name = m_labDevice->deviceName();
    const Status removed = m_labDevice->remove();
    statusBar()->showMessage(removed ? QStringLiteral("Lab device %1 removed").arg(name)
                                     : QStringLiteral("Lab device %1 not removed: %2").arg(name, removed.errorMessage),
        10000);
    m_discovery->refresh();
}

} // namespace dmtune
