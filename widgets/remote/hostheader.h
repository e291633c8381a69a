#pragma once
// The lines above a window's tree and tabs that say whose devices they are: a remote host's name, its far side's own
// name, whether it is connected and when its devices were read, and the banner while it is not connected (with its
// sudo password prompt). A host without a name (this machine) shows none of it and takes no room.
#include <QPointer>
#include <QWidget>

class QDialog;
class QLabel;

namespace dmtune {

class HostSession;
class RemoteBanner;

class HostHeader : public QWidget {
    Q_OBJECT
public:
    explicit HostHeader(HostSession *host, QWidget *parent = nullptr);

    QLabel *label() const { return m_label; }
    RemoteBanner *banner() const { return m_banner; }
    // The height the header keeps when shown (one line of text, the banner's): taken from the tabs, not the
    // screen, so the window still fits 720 pixels.
    int reservedHeight() const;
    // The text again (a new capture's time).
    void refresh();
    // Asks for the sudo password of the host (the banner's button does too); connects with it when given.
    void askPassword();

Q_SIGNALS:
    void passwordDialogShown(QDialog *dialog);

private:
    HostSession *m_host;
    QLabel *m_label = nullptr;
    RemoteBanner *m_banner = nullptr;
    QPointer<QDialog> m_passwordDialog;
    bool m_remembered = false;
};

} // namespace dmtune
