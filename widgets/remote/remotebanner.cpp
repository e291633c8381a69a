#include "widgets/remote/remotebanner.h"

#include "core/host/hostsession.h"

#include <QLabel>
#include <QPushButton>
#include <QTimer>

namespace dmtune {

RemoteBanner::RemoteBanner(HostSession *host, QWidget *parent)
    : MessageBanner(parent)
    , m_host(host)
{
    setObjectName(QStringLiteral("remoteBanner"));
    label()->setObjectName(QStringLiteral("remoteBannerText"));
    label()->setTextFormat(Qt::PlainText);
    m_button = new QPushButton(this);
    m_button->setObjectName(QStringLiteral("remoteBannerButton"));
    addButton(m_button);
    connect(m_button, &QPushButton::clicked, this, [this] {
        if (m_host->state() == HostSession::State::Disconnected && m_host->needsPassword())
            Q_EMIT passwordRequested();
        else
            m_host->connectToHost();
    });
    // The countdown to the next attempt.
    m_tick = new QTimer(this);
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &RemoteBanner::refresh);
    connect(m_host, &HostSession::stateChanged, this, &RemoteBanner::refresh);
    connect(m_host, &HostSession::retryScheduled, this, &RemoteBanner::refresh);
    refresh();
}

void RemoteBanner::refresh()
{
    const QString name = m_host->name();
    switch (m_host->state()) {
    case HostSession::State::Connected:
        m_tick->stop();
        hide();
        return;
    case HostSession::State::Connecting:
        m_tick->stop();
        setTone(m_host->attempts() > 0 ? MessageTone::Error : MessageTone::Information);
        label()->setText(m_host->attempts() == 0 ? tr("Connecting to %1…").arg(name)
                                                 : tr("Reconnecting to %1… (%2)").arg(name, m_host->problem()));
        m_button->hide();
        show();
        return;
    case HostSession::State::Disconnected:
        break;
    }
    setTone(MessageTone::Error);
    m_button->show();
    const qint64 ms = m_host->msecsUntilRetry();
    if (m_host->needsPassword()) {
        m_tick->stop();
        label()->setText(
            tr("Not connected to %1: sudo there asks for a password (it is given once, never stored).").arg(name));
        m_button->setText(tr("Give the sudo &password…"));
    } else if (ms >= 0) {
        if (!m_tick->isActive())
            m_tick->start();
        label()->setText(tr("Disconnected from %1: %2 — reconnecting in %3 s")
                             .arg(name, m_host->problem())
                             .arg(std::max<qint64>(1, (ms + 999) / 1000)));
        m_button->setText(tr("&Reconnect now"));
    } else {
        m_tick->stop();
        label()->setText(tr("Not connected to %1: %2").arg(name, m_host->problem()));
        m_button->setText(tr("&Reconnect"));
    }
    show();
}

} // namespace dmtune
