// Remote hosts in the GUI: File > Connect to host… opens a window of the host's own (its devices from the capture
// its RemoteHost fetches, its counters from the agent's stream), with the host's name above every pane and on every
// chart, and a banner while it is not connected. Path group operations, reloads and presets are the host's core
// operations, planned and run by its agent (a RemoteOperationRunner: the rules are the far side's; here the same
// PlanDialog shows the plan and asks), and every result fetches the capture again. The Tune tab only previews;
// tuning a remote host goes through dmtunectl --host.
#include "mainwindow.h"

#include "charts/iostattablemodel.h"
#include "charts/livestatsview.h"
#include "devices/devicedetailpane.h"
#include "discovery/discovery.h"
#include "pathgroups/pathgroupspanel.h"
#include "remote/connectdialog.h"
#include "remote/remotebanner.h"
#include "remote/remotehost.h"
#include "remote/remoteoperationrunner.h"

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QVBoxLayout>

namespace dmtune {

MainWindow::MainWindow(RemoteHost *host, QWidget *parent)
    : MainWindow(host->sysfsRoot(), host, parent)
{
}

void MainWindow::makeRemoteOperations()
{
    m_remoteOps = new RemoteOperationRunner(m_remote->client(), this);
    // A result changed the host (or may have: a connection lost during the run leaves the outcome unknown): its
    // capture again, and the tree, the cards and the preview show the state there. A dry run changed nothing.
    connect(m_remoteOps, &OperationService::finished, this, [this](const OperationResult &result) {
        if (!result.dryRun)
            m_remote->refetch();
    });
}

QWidget *MainWindow::remoteTuneTab(QWidget *editor)
{
    auto *note
        = new QLabel(tr("Tuning %1: the values are %1's, the preview is planned on its capture, and Apply has its "
                        "agent plan again, check and write there (a value that changed there since is refused as "
                        "stale). Undo puts the old values back the same way. The same from a shell: "
                        "<tt>dmtunectl --host %1 set DEVICE ATTRIBUTE=VALUE</tt>.")
                         .arg(m_remote->displayName().toHtmlEscaped()));
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

void MainWindow::updateRemoteActions()
{
    m_pathGroups->setConnectionProblem(m_remote->state() == RemoteHost::State::Connected
            ? QString()
            : tr("not connected to %1").arg(m_remote->displayName()));
}

QWidget *MainWindow::setupRemote(QWidget *central)
{
    m_remoteHeader = new QLabel;
    m_remoteHeader->setObjectName(QStringLiteral("remoteHeader"));
    m_remoteHeader->setTextFormat(Qt::RichText);
    m_remoteHeader->setWordWrap(true);
    m_remoteHeader->setContentsMargins(6, 4, 6, 2);
    m_remoteHeader->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner = new RemoteBanner(m_remote);

    auto *box = new QWidget;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_remoteHeader);
    layout->addWidget(m_banner);
    layout->addWidget(central, 1);
    // The header and the banner take their lines from the tabs, not from the screen: the window still fits 720
    // pixels (tst_windowfit).
    const int header = m_remoteHeader->fontMetrics().height() + 6; // one line and its margins
    m_tabs->setMinimumHeight(TabsMinimumHeight - header - m_banner->sizeHint().height() - 2 * layout->spacing());

    // Every fetched capture is rescanned (the tree diffs it row by row, as a local rescan does).
    connect(m_remote, &RemoteHost::captureFetched, m_discovery, &Discovery::refresh);
    connect(m_remote, &RemoteHost::captureFailed, this,
        [this](const QString &message) { statusBar()->showMessage(message, 15000); });
    m_detail->setMachineName(m_remote->displayName());
    connect(m_remote, &RemoteHost::stateChanged, this, [this](RemoteHost::State state) {
        updateRemoteHeader();
        updateRemoteActions();
        updateStatusBar(m_discovery->snapshot());
        // The table shows the newest interval: there is none while the host is away (the charts show the gap).
        if (state != RemoteHost::State::Connected)
            m_stats->tableModel()->setBatch(SampleBatch());
        if (state == RemoteHost::State::Connected && !m_rememberedHost) {
            RecentHosts::remember(m_remote->address()); // a host that answered; never a password
            m_rememberedHost = true;
        }
        if (state == RemoteHost::State::Disconnected && m_remote->need() == RemoteHost::Need::Password)
            askSudoPassword();
    });
    connect(m_banner, &RemoteBanner::passwordRequested, this, &MainWindow::askSudoPassword);
    connect(this, &MainWindow::snapshotShown, this, &MainWindow::updateRemoteHeader);
    updateRemoteHeader();
    updateRemoteActions();
    return box;
}

QString MainWindow::hostName() const
{
    return m_remote ? m_remote->displayName() : QString();
}

void MainWindow::updateRemoteHeader()
{
    if (!m_remote)
        return;
    QString state;
    switch (m_remote->state()) {
    case RemoteHost::State::Connected:
        state = tr("connected");
        break;
    case RemoteHost::State::Connecting:
        state = tr("connecting…");
        break;
    case RemoteHost::State::Disconnected:
        state = tr("not connected");
        break;
    }
    const QString far = m_remote->agentHostName();
    QString text = QStringLiteral("<b>%1</b>").arg(m_remote->displayName().toHtmlEscaped());
    if (!far.isEmpty() && far != m_remote->address().host)
        text += QStringLiteral(" (%1)").arg(far.toHtmlEscaped());
    text += QStringLiteral(" — ") + tr("remote host · %1").arg(state);
    if (m_remote->hasCapture())
        text += QStringLiteral(" · ")
            + tr("devices as of %1").arg(m_remote->captureTime().toString(QStringLiteral("HH:mm:ss")));
    m_remoteHeader->setText(text);
    m_remoteHeader->setToolTip(
        tr("The devices are a capture of %1, fetched again when its agent reports a udev or device-mapper "
           "event and after every operation; its statistics stream live. Path group operations, reloads "
           "and presets are planned and run there by its agent; tune it with dmtunectl --host %1.")
            .arg(m_remote->displayName()));
}

void MainWindow::askSudoPassword()
{
    if (!m_remote)
        return;
    if (m_passwordDialog) {
        m_passwordDialog->raise();
        return;
    }
    auto *dialog = new ConnectDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->askPassword(m_remote->address(),
        m_remote->address().user.isEmpty()
            ? tr("%1: sudo there asks for the password of the user. It is given once to sudo -S, never stored or "
                 "logged.")
                  .arg(m_remote->displayName())
            : tr("%1: sudo there asks for the password of %2. It is given once to sudo -S, never stored or "
                 "logged.")
                  .arg(m_remote->displayName(), m_remote->address().user));
    connect(dialog, &ConnectDialog::connectRequested, this,
        [this](const HostAddress &, const QByteArray &password) { m_remote->connectToHost(password); });
    m_passwordDialog = dialog;
    dialog->open();
    Q_EMIT connectDialogShown(dialog);
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
    MainWindow *owner = m_remote && m_opener ? m_opener.data() : this;
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
        if (open && open->m_remote->displayName() == address.display()) {
            open->show();
            open->raise();
            open->activateWindow();
            if (open->m_remote->state() == RemoteHost::State::Disconnected)
                open->m_remote->connectToHost(sudoPassword);
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
    window->m_remote->connectToHost(sudoPassword);
    Q_EMIT remoteWindowOpened(window);
    return window;
}

} // namespace dmtune
