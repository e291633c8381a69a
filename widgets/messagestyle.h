#pragma once
// The colours of messages (errors, warnings, notes, success), derived from the palette so that they read on a light
// and on a dark theme alike: KMessageWidget's hues (positive #27ae60, information the palette's Highlight, warning
// #f67400, error #da4453), a banner's background the palette's window tinted with the hue, and text in a hue moved
// towards black (light palette) or white (dark palette) until its contrast with the background it is drawn on reaches
// WCAG AA (4.5:1). One place for every "red" of the GUI; nothing in widgets/ or app/ writes a colour literal for text.
#include <QColor>
#include <QPalette>
#include <QString>

class QWidget;

namespace dmtune {

enum class MessageTone {
    Positive, // done, written
    Information, // a note, a state
    Warning, // applies, with a caveat
    Error, // refused, failed, at risk
};

namespace messagestyle {

// WCAG 2.x: the relative luminance of an sRGB colour (0 black .. 1 white) and the contrast ratio of two colours
// (1 .. 21; text needs 4.5, large text 3).
double relativeLuminance(const QColor &color);
double contrastRatio(const QColor &a, const QColor &b);
inline constexpr double MinimumTextContrast = 4.5;

// The tone's hue, as KMessageWidget has it (information: the palette's Highlight).
QColor accent(MessageTone tone, const QPalette &palette);
// `color`, moved towards black on a light `background` or towards white on a dark one until their contrast reaches
// `minimum` (unchanged when it already does).
QColor readableOn(const QColor &color, const QColor &background, double minimum = MinimumTextContrast);

// Coloured text ("Cannot apply", a failed path) drawn on a palette role: Window for labels and banners' parents,
// Base for the cells of views. Readable (>= 4.5:1) on that role's colour.
QColor text(MessageTone tone, const QPalette &palette, QPalette::ColorRole background = QPalette::Window);
// In the cells of a view (a model's ForegroundRole): on the application palette's Base.
QColor viewText(MessageTone tone);
// A cell's background in the tone (a model's BackgroundRole: an input, a pending edit): the application palette's
// Base tinted as a banner is; its Text stays readable on it.
QColor viewTint(MessageTone tone);
// The same with the application's palette, as "#rrggbb" for rich text (<span style="color:…">).
QString htmlColor(MessageTone tone, QPalette::ColorRole background = QPalette::Window);
// <span style="color:#rrggbb[; font-weight:600]">html</span> (html is inserted as it is: escape plain text first).
QString htmlSpan(MessageTone tone, const QString &html, bool bold = false);

// A banner (message-widget style): the background role's colour tinted with the hue (about a fifth), a border in the
// hue, and the palette's WindowText made readable on that background.
QColor bannerBackground(MessageTone tone, const QPalette &palette, QPalette::ColorRole background = QPalette::Window);
QColor bannerBorder(MessageTone tone, const QPalette &palette);
QColor bannerText(MessageTone tone, const QPalette &palette, QPalette::ColorRole background = QPalette::Window);
// A style sheet for a plain QLabel or QFrame shown as a banner: "SELECTOR { background: …; color: …; border: … }".
// Computed from `palette`: call it again when the palette changes.
QString bannerStyleSheet(MessageTone tone, const QPalette &palette, const QString &selector = QStringLiteral("QLabel"));
// A label (or any widget drawing WindowText/Text) in the tone's text colour, on its own palette's Window.
void setTextTone(QWidget *widget, MessageTone tone);

} // namespace messagestyle

} // namespace dmtune
