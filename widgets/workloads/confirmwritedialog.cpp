#include "confirmwritedialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace dmtune {

ConfirmWriteDialog::ConfirmWriteDialog(const QString &device, const QStringList &reasons, QWidget *parent)
    : QDialog(parent)
    , m_device(device)
{
    setWindowTitle(QStringLiteral("Destroy the data on %1?").arg(device));
    auto *layout = new QVBoxLayout(this);
    QString text = QStringLiteral("<p>This workload <b>writes</b> to /dev/%1, which is not empty:</p><ul>")
                       .arg(device.toHtmlEscaped());
    for (const QString &reason : reasons)
        text += QStringLiteral("<li>%1</li>").arg(reason.toHtmlEscaped());
    text += QStringLiteral("</ul><p>Everything on it will be overwritten. Type <b>%1</b> to confirm.</p>")
                .arg(device.toHtmlEscaped());
    auto *label = new QLabel(text, this);
    label->setWordWrap(true);
    layout->addWidget(label);
    m_edit = new QLineEdit(this);
    m_edit->setPlaceholderText(device);
    layout->addWidget(m_edit);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_destroy = buttons->addButton(QStringLiteral("Destroy data and run"), QDialogButtonBox::DestructiveRole);
    m_destroy->setEnabled(false);
    layout->addWidget(buttons);
    connect(m_edit, &QLineEdit::textChanged, this,
        [this](const QString &t) { m_destroy->setEnabled(t.trimmed() == m_device); });
    connect(m_destroy, &QPushButton::clicked, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_edit->setFocus();
}

QString ConfirmWriteDialog::typedName() const
{
    return m_edit->text().trimmed();
}

} // namespace dmtune
