#pragma once
// The bar at the top of a remote host's window while it is not connected: what happened in one line, when the next
// attempt comes ("Disconnected from db1: … — reconnecting in 8 s"), and a button: Reconnect now, or Give the sudo
// password… when sudo there asked for one. Hidden while connected. Message-widget style: the palette's window
// colour tinted, a frame, the text wrapped (never clipped), the button beside it.
#include <QFrame>

class QLabel;
class QPushButton;
class QTimer;

namespace dmtune {

class RemoteHost;

class RemoteBanner : public QFrame {
    Q_OBJECT
public:
    explicit RemoteBanner(RemoteHost *host, QWidget *parent = nullptr);

    QString text() const;
    QLabel *label() const { return m_label; }
    QPushButton *button() const { return m_button; }

Q_SIGNALS:
    // The user wants to give the sudo password (the window asks for it and connects with it).
    void passwordRequested();

private:
    void refresh();
    void setTone(bool problem);

    RemoteHost *m_host;
    QLabel *m_label = nullptr;
    QPushButton *m_button = nullptr;
    QTimer *m_tick = nullptr;
};

} // namespace dmtune
