#include "messagestyle.h"

#include <QApplication>
#include <QEvent>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace dmtune::messagestyle {

namespace {

double linear(double channel)
{
    return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

QColor mixed(const QColor &a, const QColor &b, double share)
{
    const QColor x = a.toRgb();
    const QColor y = b.toRgb();
    return QColor::fromRgbF(float(x.redF() * (1 - share) + y.redF() * share),
        float(x.greenF() * (1 - share) + y.greenF() * share), float(x.blueF() * (1 - share) + y.blueF() * share));
}

// The hue's share of a banner's background: visible as a tone, far from the text's contrast.
constexpr double bannerTint = 0.2;

} // namespace

double relativeLuminance(const QColor &color)
{
    const QColor c = color.toRgb();
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

double contrastRatio(const QColor &a, const QColor &b)
{
    const double la = relativeLuminance(a);
    const double lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor accent(MessageTone tone, const QPalette &palette)
{
    switch (tone) {
    case MessageTone::Positive:
        return QColor(0x27, 0xae, 0x60);
    case MessageTone::Information:
        return palette.color(QPalette::Active, QPalette::Highlight);
    case MessageTone::Warning:
        return QColor(0xf6, 0x74, 0x00);
    case MessageTone::Error:
        break;
    }
    return QColor(0xda, 0x44, 0x53);
}

QColor readableOn(const QColor &color, const QColor &background, double minimum)
{
    if (contrastRatio(color, background) >= minimum)
        return color.toRgb();
    // Towards whichever end contrasts more with the background: black or white reaches 4.58:1 with any colour, so
    // the loop ends; in steps small enough to keep the hue recognisable.
    const QColor end = contrastRatio(Qt::black, background) >= contrastRatio(Qt::white, background) ? QColor(Qt::black)
                                                                                                    : QColor(Qt::white);
    for (int step = 1; step <= 40; ++step) {
        const QColor candidate = mixed(color, end, step / 40.0);
        if (contrastRatio(candidate, background) >= minimum)
            return candidate;
    }
    return end;
}

QColor text(MessageTone tone, const QPalette &palette, QPalette::ColorRole background)
{
    return readableOn(accent(tone, palette), palette.color(QPalette::Active, background));
}

QColor viewText(MessageTone tone)
{
    return text(tone, QGuiApplication::palette(), QPalette::Base);
}

QColor viewTint(MessageTone tone)
{
    return bannerBackground(tone, QGuiApplication::palette(), QPalette::Base);
}

QString htmlColor(MessageTone tone, QPalette::ColorRole background)
{
    return text(tone, QGuiApplication::palette(), background).name(QColor::HexRgb);
}

QString htmlSpan(MessageTone tone, const QString &html, bool bold)
{
    return QStringLiteral("<span style=\"color:%1%2\">%3</span>")
        .arg(htmlColor(tone), bold ? QStringLiteral("; font-weight:600") : QString(), html);
}

QColor bannerBackground(MessageTone tone, const QPalette &palette, QPalette::ColorRole background)
{
    return mixed(palette.color(QPalette::Active, background), accent(tone, palette), bannerTint);
}

QColor bannerBorder(MessageTone tone, const QPalette &palette)
{
    return accent(tone, palette);
}

QColor bannerText(MessageTone tone, const QPalette &palette, QPalette::ColorRole background)
{
    return readableOn(
        palette.color(QPalette::Active, QPalette::WindowText), bannerBackground(tone, palette, background));
}

QString bannerStyleSheet(MessageTone tone, const QPalette &palette, const QString &selector)
{
    return QStringLiteral("%1 { background: %2; color: %3; border: 1px solid %4; border-radius: 4px; padding: 4px; }")
        .arg(selector, bannerBackground(tone, palette).name(), bannerText(tone, palette).name(),
            bannerBorder(tone, palette).name());
}

namespace {

void applyTone(QWidget *widget, MessageTone tone)
{
    // From the palette the widget would have without its own colours: its parent's, or the application's.
    QPalette p = widget->parentWidget() ? widget->parentWidget()->palette() : QApplication::palette(widget);
    const QColor onWindow = text(tone, p, QPalette::Window);
    const QColor onBase = text(tone, p, QPalette::Base);
    p = widget->palette();
    if (p.color(QPalette::WindowText) == onWindow && p.color(QPalette::Text) == onBase)
        return; // as it is (and no PaletteChange that would bring us here again)
    p.setColor(QPalette::WindowText, onWindow);
    p.setColor(QPalette::Text, onBase);
    widget->setPalette(p);
}

// Keeps a widget's tone when the application's palette changes (a theme switched while the window is open).
class ToneKeeper : public QObject {
public:
    ToneKeeper(QWidget *widget, MessageTone tone)
        : QObject(widget)
        , m_tone(tone)
    {
        widget->installEventFilter(this);
    }
    void setTone(MessageTone tone) { m_tone = tone; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        const QEvent::Type type = event->type();
        if (type == QEvent::PaletteChange || type == QEvent::ApplicationPaletteChange || type == QEvent::ParentChange) {
            // Queued: every widget (the parent too) has the new palette by then.
            QMetaObject::invokeMethod(
                this, [this, widget = static_cast<QWidget *>(watched)] { applyTone(widget, m_tone); },
                Qt::QueuedConnection);
        }
        return false;
    }

private:
    MessageTone m_tone;
};

} // namespace

void setTextTone(QWidget *widget, MessageTone tone)
{
    ToneKeeper *keeper = nullptr;
    for (QObject *child : widget->children()) {
        if ((keeper = dynamic_cast<ToneKeeper *>(child)))
            break;
    }
    if (keeper)
        keeper->setTone(tone);
    else
        new ToneKeeper(widget, tone);
    applyTone(widget, tone);
}

} // namespace dmtune::messagestyle
