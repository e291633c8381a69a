#pragma once
// A message bar in KMessageWidget's style: a rounded box in the palette's window colour tinted with the tone's hue,
// a border in the hue, the text (wrapped, never clipped, selectable) in the palette's text colour made readable on
// that background, optional buttons on the right and an optional close button. Colours come from messagestyle.h and
// follow the palette (light or dark, and a theme switched while it is shown).
#include "messagestyle.h"

#include <QFrame>

class QHBoxLayout;
class QLabel;
class QToolButton;

namespace dmtune {

class MessageBanner : public QFrame {
    Q_OBJECT
public:
    explicit MessageBanner(QWidget *parent = nullptr);

    void setTone(MessageTone tone);
    MessageTone tone() const { return m_tone; }
    // Plain text unless it starts with a tag (Qt::AutoText); shows the banner. Empty text hides it.
    void setText(const QString &text);
    QString text() const;
    // Shows `text` in `tone` (shown; empty hides).
    void showMessage(MessageTone tone, const QString &text);
    // A button on the right (after the ones added before); the banner does not own what it does.
    void addButton(QWidget *button);
    // A "×" that hides the banner (closed() then).
    void setCloseButtonVisible(bool visible);

    QLabel *label() const { return m_label; }
    QToolButton *closeButton() const { return m_close; }
    // What paintEvent draws, for tests and screenshots: the tinted background and the text's colour.
    QColor backgroundColor() const;
    QColor textColor() const;

Q_SIGNALS:
    void closed();

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateColors();

    MessageTone m_tone = MessageTone::Information;
    QLabel *m_label = nullptr;
    QHBoxLayout *m_buttons = nullptr;
    QToolButton *m_close = nullptr;
    bool m_updating = false;
};

} // namespace dmtune
