#include "messagebanner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QToolButton>

namespace dmtune {

MessageBanner::MessageBanner(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("messageBanner"));
    setFrameShape(QFrame::NoFrame); // paintEvent draws the box
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->setSpacing(8);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("messageBannerText"));
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    m_label->setAutoFillBackground(false);
    layout->addWidget(m_label, 1);
    m_buttons = new QHBoxLayout;
    m_buttons->setSpacing(6);
    layout->addLayout(m_buttons);
    m_close = new QToolButton(this);
    m_close->setObjectName(QStringLiteral("messageBannerClose"));
    m_close->setAutoRaise(true);
    m_close->setText(QStringLiteral("×"));
    m_close->setToolTip(tr("Close this message"));
    m_close->hide();
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, [this] {
        hide();
        Q_EMIT closed();
    });
    updateColors();
    hide();
}

void MessageBanner::setTone(MessageTone tone)
{
    m_tone = tone;
    updateColors();
    update();
}

void MessageBanner::setText(const QString &text)
{
    m_label->setText(text);
    setVisible(!text.isEmpty());
}

QString MessageBanner::text() const
{
    return m_label->text();
}

void MessageBanner::showMessage(MessageTone tone, const QString &text)
{
    setTone(tone);
    setText(text);
}

void MessageBanner::addButton(QWidget *button)
{
    button->setParent(this);
    m_buttons->addWidget(button, 0, Qt::AlignVCenter);
}

void MessageBanner::setCloseButtonVisible(bool visible)
{
    m_close->setVisible(visible);
}

QColor MessageBanner::backgroundColor() const
{
    return messagestyle::bannerBackground(m_tone, palette());
}

QColor MessageBanner::textColor() const
{
    return m_label->palette().color(QPalette::Active, QPalette::WindowText);
}

void MessageBanner::updateColors()
{
    // The label's palette only: the banner's own stays inherited, so a new application palette reaches it.
    m_updating = true;
    QPalette p = m_label->palette();
    const QColor text = messagestyle::bannerText(m_tone, palette());
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Text, text);
    // Links in the banner's text: the hue, readable on the tinted background.
    p.setColor(QPalette::Link,
        messagestyle::readableOn(messagestyle::accent(MessageTone::Information, palette()), backgroundColor()));
    m_label->setPalette(p);
    m_updating = false;
}

void MessageBanner::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF box = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    painter.setPen(QPen(messagestyle::bannerBorder(m_tone, palette()), 1));
    painter.setBrush(backgroundColor());
    painter.drawRoundedRect(box, 4, 4);
}

void MessageBanner::changeEvent(QEvent *event)
{
    if (!m_updating && (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange))
        updateColors();
    QFrame::changeEvent(event);
}

} // namespace dmtune
