#pragma once
// Asks the user to type the device's name before a write workload destroys what the device holds. The
// reasons (mounted file system, holder, signatures...) are listed; the destroy button stays disabled until
// the text equals the device name.
#include <QDialog>

class QLineEdit;
class QPushButton;

namespace dmtune {

class ConfirmWriteDialog : public QDialog {
    Q_OBJECT
public:
    ConfirmWriteDialog(const QString &device, const QStringList &reasons, QWidget *parent = nullptr);
    QString typedName() const;
    QLineEdit *nameEdit() const { return m_edit; }
    QPushButton *destroyButton() const { return m_destroy; }

private:
    QString m_device;
    QLineEdit *m_edit = nullptr;
    QPushButton *m_destroy = nullptr;
};

} // namespace dmtune
