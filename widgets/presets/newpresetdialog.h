#pragma once
// "New from selection": a name and the selected devices' writable attributes with their
// values, the ones changed through dmtune or differing from what dmtune first saw checked (defaultAttributeChoices).
// OK is enabled only with a usable name and at least one checked attribute; the line under the list says why not.
// The manager saves the checked ones through the core's presetFromSelection, as dmtunectl preset save --attr does.
#include "core/presets/presetcapture.h"
#include "core/presets/presetselection.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace dmtune {

class NewPresetDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewPresetDialog(QWidget *parent = nullptr);

    void setChoices(const QList<AttributeChoice> &choices);
    void setName(const QString &name);
    QString name() const; // trimmed
    // The checked attributes, per device (devices with none checked are left out), in the list's order.
    QList<DeviceAttributes> checkedSelection() const;
    // Why OK is disabled ("Check at least one attribute"), empty when it is enabled.
    QString problem() const;

    QTreeWidget *attributeList() const { return m_list; }
    QLineEdit *nameEdit() const { return m_name; }
    QPushButton *okButton() const { return m_ok; }
    void checkAll(bool checked);

    // Why a name cannot be used (empty, too long, a stored or built-in preset's name or file): one line, or empty.
    static QString nameProblem(const QString &name);

    enum Column { AttributeColumn, DeviceColumn, ValueColumn, ReasonColumn };

private:
    void updateState();

    QLineEdit *m_name = nullptr;
    QTreeWidget *m_list = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_ok = nullptr;
};

} // namespace dmtune
