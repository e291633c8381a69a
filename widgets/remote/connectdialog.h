#pragma once
// File > Connect to host…: host, user and port (or `[user@]host[:port]` in the host field), the recent hosts to
// pick from, and an optional sudo password for a user whose sudo asks for one. A wrong address gets one line in
// the dialog and nothing else happens; a valid one is handed out by connectRequested() and the dialog closes.
// The password is handed out once and cleared here; it is never stored (the recent hosts keep addresses only).
// Also the password prompt of a host whose sudo asked for one (askPassword): the address fixed, the password
// focused. Opened with open(), never exec().
#include "core/remote/hostaddress.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace dmtune {

// The recently connected hosts, newest first, in QSettings (remote/recentHosts): addresses as display() writes them.
class RecentHosts {
public:
    static constexpr int MaxHosts = 10;
    static QStringList list();
    static void remember(const HostAddress &address);
    static void clear();
};

// The address of the dialog's three fields: `hostText` may itself be `[user@]host[:port]`; `user` and `port`
// (0: none) fill in what it lacks. A user or port given twice, differently, is refused. One line on error.
Result<HostAddress> composeHostAddress(const QString &hostText, const QString &user, int port);

class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget *parent = nullptr);

    // The password prompt for a host whose sudo refused without one: the address shown, not editable.
    void askPassword(const HostAddress &address, const QString &why);

    // Fills the fields from a recent host's address (as choosing it in the host list does).
    void setAddress(const HostAddress &address);

    QComboBox *hostCombo() const { return m_host; }
    QLineEdit *userEdit() const { return m_user; }
    QSpinBox *portSpin() const { return m_port; }
    QLineEdit *passwordEdit() const { return m_password; }
    QLabel *problemLabel() const { return m_problem; }
    QPushButton *connectButton() const { return m_connect; }

    void accept() override;

Q_SIGNALS:
    // A valid address (and the sudo password, empty for none; the dialog keeps no copy).
    void connectRequested(const dmtune::HostAddress &address, const QByteArray &sudoPassword);

private:
    QComboBox *m_host = nullptr;
    QLineEdit *m_user = nullptr;
    QSpinBox *m_port = nullptr;
    QLineEdit *m_password = nullptr;
    QLabel *m_intro = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_connect = nullptr;
};

} // namespace dmtune
