// Remote hosts in the GUI: File > Connect to host… opens a window of the host's own, on a RemoteHostSession (its
// devices from the capture its RemoteHost fetches, its counters and latency from the agent's streams, every
// operation planned and run by its agent: the rules are the far side's; here the same PlanDialog shows the plan and
// asks), with the host's name above every pane and on every chart, and a banner while it is not connected. The
// window wires that session as it wires this machine's.
#include "mainwindow.h"

#include "core/discovery/discovery.h"
#include "core/host/hostsession.h"
#include "core/remote/remotehost.h"
#include "core/remote/remotehostsession.h"
#include "widgets/charts/iostattablemodel.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/remote/connectdialog.h"
#include "widgets/remote/hostheader.h"

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QVBoxLayout>

namespace dmtune {

MainWindow::MainWindow(RemoteHost *host, QWidget *parent)
    : MainWindow(new RemoteHostSession(host), parent)
{
}

QWidget *MainWindow::tuneTab(QWidget *editor)
{
    if (hostName().isEmpty())
        return editor;
    auto *note
        = new QLabel(tr("Tuning %1: the values are %1's, the preview is planned on its capture, and Apply has its "
                        "agent plan again, check and write there (a value that changed there since is refused as "
                        "stale). Undo puts the old values back the same way. The same from a shell: "
                        "<tt>dmtunectl --host %1 set DEVICE ATTRIBUTE=VALUE</tt>.")
                         .arg(hostName().toHtmlEscaped()));
    note->setObjectName(QStringLiteral("remoteTuneNote"));
    note->setTextFormat(Qt::RichText);
    note->setWordWrap(true);
    note->setContentsMargins(6, 4, 6, 4);
    note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *tab = new QWidget;
    auto *layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(note);
    layout->addWidget(editor, 1);
    return tab;
}

QWidget *MainWindow::withHostHeader(QWidget *central)
{
    m_hostHeader = new HostHeader(m_hostSession);
    auto *box = new QWidget;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_hostHeader);
    layout->addWidget(central, 1);
    // The header and the banner take their lines from the tabs, not from the screen: the window still fits 720
    // pixels (tst_windowfit).
    m_tabs->setMinimumHeight(TabsMinimumHeight - m_hostHeader->reservedHeight());
    connect(m_hostHeader, &HostHeader::passwordDialogShown, this, &MainWindow::connectDialogShown);
    connect(m_hostSession, &HostSession::stateChanged, this, [this](HostSession::State state) {
        updateStatusBar(m_discovery->snapshot());
        // The table shows the newest interval: there is none while the host is away (the charts show the gap).
        if (state != HostSession::State::Connected)
            m_stats->tableModel()->setBatch(SampleBatch());
    });
    connect(this, &MainWindow::snapshotShown, m_hostHeader, &HostHeader::refresh);
    return box;
}

QString MainWindow::hostName() const
{
    return m_hostSession->name();
}

void MainWindow::setupConnectMenu()
{
    QMenu *file = menuNamed(tr("&File"));
    if (!file)
        return;
    auto *connectAction = new QAction(tr("Connect to &host…"), file);
    connectAction->setObjectName(QStringLiteral("connectToHostAction"));
    connectAction->setToolTip(tr("Open another host's devices and statistics over ssh"));
    connect(connectAction, &QAction::triggered, this, &MainWindow::showConnectDialog);
    QAction *first = file->actions().value(0);
    file->insertAction(first, connectAction);
    file->insertSeparator(first);
}

void MainWindow::showConnectDialog()
{
    // A remote window's hosts open from the window that opened it: closing one host's window closes no other's.
    MainWindow *owner = m_opener ? m_opener.data() : this;
    auto *dialog = new ConnectDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<MainWindow> target(owner);
    connect(dialog, &ConnectDialog::connectRequested, this,
        [target](const HostAddress &address, const QByteArray &password) {
            if (target)
                target->openRemoteWindow(address, password);
        });
    dialog->open();
    Q_EMIT connectDialogShown(dialog);
}

MainWindow *MainWindow::openRemoteWindow(const HostAddress &address, const QByteArray &sudoPassword)
{
    return openRemoteWindow(address, sshSettingsFromEnvironment(), sudoPassword);
}

MainWindow *MainWindow::openRemoteWindow(
    const HostAddress &address, const SshSettings &ssh, const QByteArray &sudoPassword)
{
    // A host already open: its window comes forward (and connects again if it is down).
    for (const QPointer<MainWindow> &open : std::as_const(m_remoteWindows)) {
        if (open && open->hostName() == address.display()) {
            open->show();
            open->raise();
            open->activateWindow();
            if (open->m_hostSession->state() == HostSession::State::Disconnected)
                open->m_hostSession->connectToHost(sudoPassword);
            return open;
        }
    }
    m_remoteWindows.removeAll(nullptr);
    auto *window = new MainWindow(new RemoteHost(address, ssh));
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->m_opener = this;
    m_remoteWindows.append(window);
    window->show();
    window->start();
    window->m_hostSession->connectToHost(sudoPassword);
    Q_EMIT remoteWindowOpened(window);
    return window;
}

} // namespace dmtune
