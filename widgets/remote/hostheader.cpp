#include "widgets/remote/hostheader.h"

#include "core/host/hostsession.h"
#include "widgets/remote/connectdialog.h"
#include "widgets/remote/remotebanner.h"

#include <QLabel>
#include <QVBoxLayout>

namespace dmtune {

HostHeader::HostHeader(HostSession *host, QWidget *parent)
    : QWidget(parent)
    , m_host(host)
{
    setObjectName(QStringLiteral("hostHeader"));
    m_label = new QLabel;
    m_label->setObjectName(QStringLiteral("remoteHeader"));
    m_label->setTextFormat(Qt::RichText);
    m_label->setWordWrap(true);
    m_label->setContentsMargins(6, 4, 6, 2);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner = new RemoteBanner(m_host);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_label);
    layout->addWidget(m_banner);
    setVisible(!m_host->name().isEmpty());

    connect(m_banner, &RemoteBanner::passwordRequested, this, &HostHeader::askPassword);
    connect(m_host, &HostSession::stateChanged, this, [this](HostSession::State state) {
        refresh();
        if (state == HostSession::State::Connected && !m_remembered) {
            RecentHosts::remember(m_host->address()); // a host that answered; never a password
            m_remembered = true;
        }
        if (state == HostSession::State::Disconnected && m_host->needsPassword())
            askPassword();
    });
    refresh();
}

int HostHeader::reservedHeight() const
{
    if (m_host->name().isEmpty())
        return 0;
    const int line = m_label->fontMetrics().height() + 6; // one line and its margins
    return line + m_banner->sizeHint().height() + 2 * layout()->spacing();
}

void HostHeader::refresh()
{
    const QString name = m_host->name();
    if (name.isEmpty())
        return;
    QString state;
    switch (m_host->state()) {
    case HostSession::State::Connected:
        state = tr("connected");
        break;
    case HostSession::State::Connecting:
        state = tr("connecting…");
        break;
    case HostSession::State::Disconnected:
        state = tr("not connected");
        break;
    }
    const QString far = m_host->agentHostName();
    QString text = QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
    if (!far.isEmpty() && far != m_host->address().host)
        text += QStringLiteral(" (%1)").arg(far.toHtmlEscaped());
    text += QStringLiteral(" — ") + tr("remote host · %1").arg(state);
    if (const QDateTime read = m_host->devicesTime(); read.isValid())
        text += QStringLiteral(" · ") + tr("devices as of %1").arg(read.toString(QStringLiteral("HH:mm:ss")));
    m_label->setText(text);
    m_label->setToolTip(
        tr("The devices are a capture of %1, fetched again when its agent reports a udev or device-mapper "
           "event and after every operation; its statistics and latency stream live. Tuning, Undo, path group "
           "operations, reloads, presets, sweeps, workloads and the lab device are planned and run there by "
           "its agent.")
            .arg(name));
}

void HostHeader::askPassword()
{
    if (m_passwordDialog) {
        m_passwordDialog->raise();
        return;
    }
    auto *dialog = new ConnectDialog(window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const HostAddress address = m_host->address();
    dialog->askPassword(address,
        address.user.isEmpty()
            ? tr("%1: sudo there asks for the password of the user. It is given once to sudo -S, never stored or "
                 "logged.")
                  .arg(m_host->name())
            : tr("%1: sudo there asks for the password of %2. It is given once to sudo -S, never stored or "
                 "logged.")
                  .arg(m_host->name(), address.user));
    connect(dialog, &ConnectDialog::connectRequested, this,
        [this](const HostAddress &, const QByteArray &password) { m_host->connectToHost(password); });
    m_passwordDialog = dialog;
    dialog->open();
    Q_EMIT passwordDialogShown(dialog);
}

} // namespace dmtune
