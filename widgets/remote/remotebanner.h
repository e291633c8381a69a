#pragma once
// The bar at the top of a host's window while it is not connected (never for this machine, which always is): what
// happened in one line, when the next attempt comes ("Disconnected from db1: … — reconnecting in 8 s"), and a button:
// Reconnect now, or Give the sudo password… when sudo there asked for one. Hidden while connected. A MessageBanner
// (message-widget style, colours from the palette): information while connecting, error while disconnected; the text
// wrapped (never clipped), the button beside it.
#include "widgets/messagebanner.h"

class QPushButton;
class QTimer;

namespace dmtune {

class HostSession;

class RemoteBanner : public MessageBanner {
    Q_OBJECT
public:
    explicit RemoteBanner(HostSession *host, QWidget *parent = nullptr);

    QPushButton *button() const { return m_button; }

Q_SIGNALS:
    // The user wants to give the sudo password (the window asks for it and connects with it).
    void passwordRequested();

private:
    void refresh();
    HostSession *m_host;
    QPushButton *m_button = nullptr;
    QTimer *m_tick = nullptr;
};

} // namespace dmtune
