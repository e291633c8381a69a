#include "remote/remotebanner.h"

#include "remote/remotehost.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimer>

#include <cmath>

namespace dmtune {

namespace {

QColor mixed(const QColor &a, const QColor &b, double share)
{
    return QColor::fromRgbF(float(a.redF() * (1 - share) + b.redF() * share),
        float(a.greenF() * (1 - share) + b.greenF() * share), float(a.blueF() * (1 - share) + b.blueF() * share));
}

} // namespace

RemoteBanner::RemoteBanner(RemoteHost *host, QWidget *parent)
    : QFrame(parent)
    , m_host(host)
{
    setObjectName(QStringLiteral("remoteBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("remoteBannerText"));
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setTextFormat(Qt::PlainText);
    layout->addWidget(m_label, 1);
    m_button = new QPushButton(this);
    m_button->setObjectName(QStringLiteral("remoteBannerButton"));
    layout->addWidget(m_button, 0, Qt::AlignVCenter);
    connect(m_button, &QPushButton::clicked, this, [this] {
        if (m_host->state() == RemoteHost::State::Disconnected && m_host->need() == RemoteHost::Need::Password)
            Q_EMIT passwordRequested();
        else
            m_host->connectToHost();
    });
    // The countdown to the next attempt.
    m_tick = new QTimer(this);
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &RemoteBanner::refresh);
    connect(m_host, &RemoteHost::stateChanged, this, &RemoteBanner::refresh);
    connect(m_host, &RemoteHost::retryScheduled, this, &RemoteBanner::refresh);
    refresh();
}

QString RemoteBanner::text() const
{
    return m_label->text();
}

void RemoteBanner::setTone(bool problem)
{
    QPalette p = palette();
    const QColor window
        = parentWidget() ? parentWidget()->palette().color(QPalette::Window) : p.color(QPalette::Window);
    p.setColor(QPalette::Window,
        problem ? mixed(window, QColor(0xda, 0x44, 0x53), 0.22) : mixed(window, p.color(QPalette::Highlight), 0.15));
    setPalette(p);
}

void RemoteBanner::refresh()
{
    const QString name = m_host->displayName();
    switch (m_host->state()) {
    case RemoteHost::State::Connected:
        m_tick->stop();
        hide();
        return;
    case RemoteHost::State::Connecting:
        m_tick->stop();
        setTone(m_host->attempts() > 0);
        m_label->setText(m_host->attempts() == 0
                ? QStringLiteral("Connecting to %1…").arg(name)
                : QStringLiteral("Reconnecting to %1… (%2)").arg(name, m_host->problem()));
        m_button->hide();
        show();
        return;
    case RemoteHost::State::Disconnected:
        break;
    }
    setTone(true);
    m_button->show();
    const qint64 ms = m_host->msecsUntilRetry();
    if (m_host->need() == RemoteHost::Need::Password) {
        m_tick->stop();
        m_label->setText(
            QStringLiteral("Not connected to %1: sudo there asks for a password (it is given once, never stored).")
                .arg(name));
        m_button->setText(QStringLiteral("Give the sudo &password…"));
    } else if (ms >= 0) {
        if (!m_tick->isActive())
            m_tick->start();
        m_label->setText(QStringLiteral("Disconnected from %1: %2 — reconnecting in %3 s")
                             .arg(name, m_host->problem())
                             .arg(std::max<qint64>(1, (ms + 999) / 1000)));
        m_button->setText(QStringLiteral("&Reconnect now"));
    } else {
        m_tick->stop();
        m_label->setText(QStringLiteral("Not connected to %1: %2").arg(name, m_host->problem()));
        m_button->setText(QStringLiteral("&Reconnect"));
    }
    show();
}

} // namespace dmtune
