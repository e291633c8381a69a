#include "widgets/remote/connectdialog.h"

#include "widgets/messagestyle.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace dmtune {

namespace {
const auto recentKey = QStringLiteral("remote/recentHosts");
} // namespace

QStringList RecentHosts::list()
{
    return QSettings().value(recentKey).toStringList();
}

void RecentHosts::remember(const HostAddress &address)
{
    QStringList hosts = list();
    const QString text = address.display();
    hosts.removeAll(text);
    hosts.prepend(text);
    while (hosts.size() > MaxHosts)
        hosts.removeLast();
    QSettings().setValue(recentKey, hosts);
}

void RecentHosts::clear()
{
    QSettings().remove(recentKey);
}

Result<HostAddress> composeHostAddress(const QString &hostText, const QString &user, int port)
{
    const QString host = hostText.trimmed();
    if (host.isEmpty())
        return Result<HostAddress>::failure(
            QCoreApplication::translate("ConnectDialog", "give a host: a name or address, or user@host:port"));
    Result<HostAddress> parsed = parseHostAddress(host);
    if (!parsed)
        return parsed;
    HostAddress address = parsed.value();
    const QString u = user.trimmed();
    if (!u.isEmpty()) {
        if (!address.user.isEmpty() && address.user != u)
            return Result<HostAddress>::failure(
                QCoreApplication::translate("ConnectDialog", "two users: '%1' in the host and '%2' in User (give one)")
                    .arg(address.user, u));
        address.user = u;
    }
    if (port > 0) {
        if (address.port > 0 && address.port != port)
            return Result<HostAddress>::failure(
                QCoreApplication::translate("ConnectDialog", "two ports: %1 in the host and %2 in Port (give one)")
                    .arg(address.port)
                    .arg(port));
        address.port = port;
    }
    // The whole address once more through the parser: the user name's rules are its.
    return parseHostAddress(address.display());
}

ConnectDialog::ConnectDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("connectDialog"));
    setWindowTitle(tr("Connect to host"));
    setMinimumWidth(520); // the one line of a refused address fits, as a rule
    auto *layout = new QVBoxLayout(this);
    m_intro = new QLabel(tr("dmtune runs <tt>dmtunectl agent</tt> there over your ssh (its config, keys, "
                            "agent and known_hosts). The host needs the dmtune package; the user root "
                            "or sudo."),
        this);
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);

    auto *form = new QFormLayout;
    m_host = new QComboBox(this);
    m_host->setObjectName(QStringLiteral("hostCombo"));
    m_host->setEditable(true);
    m_host->setInsertPolicy(QComboBox::NoInsert);
    m_host->addItems(RecentHosts::list());
    m_host->setCurrentIndex(-1);
    m_host->lineEdit()->setPlaceholderText(tr("db1, root@db1, admin@db1:2222 or an alias of ~/.ssh/config"));
    m_host->setMinimumContentsLength(28);
    m_host->setToolTip(tr("The recent hosts are in the list"));
    form->addRow(tr("&Host:"), m_host);
    m_user = new QLineEdit(this);
    m_user->setObjectName(QStringLiteral("userEdit"));
    m_user->setPlaceholderText(tr("ssh's default"));
    form->addRow(tr("&User:"), m_user);
    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("portSpin"));
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("ssh's default"));
    form->addRow(tr("&Port:"), m_port);
    m_password = new QLineEdit(this);
    m_password->setObjectName(QStringLiteral("passwordEdit"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("only if sudo there asks for one"));
    m_password->setToolTip(tr("Given once to sudo -S on the host; never stored or logged"));
    form->addRow(tr("&Sudo password:"), m_password);
    layout->addLayout(form);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("problemLabel"));
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    messagestyle::setTextTone(m_problem, MessageTone::Error);
    m_problem->hide();
    layout->addWidget(m_problem);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_connect = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    m_connect->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConnectDialog::reject);
    layout->addWidget(buttons);

    // Choosing a recent host fills the three fields from its address.
    connect(m_host, &QComboBox::activated, this, [this](int index) {
        if (const Result<HostAddress> a = parseHostAddress(m_host->itemText(index)))
            setAddress(a.value());
    });
    connect(m_host, &QComboBox::editTextChanged, m_problem, &QWidget::hide);
}

void ConnectDialog::setAddress(const HostAddress &address)
{
    HostAddress hostOnly = address;
    hostOnly.user.clear();
    hostOnly.port = 0;
    m_host->setEditText(hostOnly.display());
    m_user->setText(address.user);
    m_port->setValue(address.port);
}

void ConnectDialog::askPassword(const HostAddress &address, const QString &why)
{
    setWindowTitle(tr("Sudo password for %1").arg(address.display()));
    setAddress(address);
    m_intro->setText(why.isEmpty() ? tr("sudo on %1 asks for a password.").arg(address.display()) : why);
    m_host->setEnabled(false);
    m_user->setEnabled(false);
    m_port->setEnabled(false);
    m_password->setPlaceholderText(QString());
    m_password->setFocus();
}

void ConnectDialog::accept()
{
    const Result<HostAddress> address = composeHostAddress(m_host->currentText(), m_user->text(), m_port->value());
    if (!address) {
        m_problem->setText(address.errorMessage());
        m_problem->show();
        return; // the dialog stays; nothing else happens
    }
    QByteArray password = m_password->text().toUtf8();
    m_password->clear();
    m_problem->hide();
    Q_EMIT connectRequested(address.value(), password);
    password.fill('\0');
    QDialog::accept();
}

} // namespace dmtune
