#pragma once
// Shows a core operation's plan (ops/operation.h): what will happen, the preview, the notes and every risk,
// and asks for the answers, as the consent model decides (ops/consent.h): where a data risk (or a fault) names a
// device or map to type (OperationRisk::confirmDevice) the run button stays disabled until that name is typed;
// the click answers an availability risk only. Always opened with open(); the caller acts on answered(), which
// carries answers bound to this plan (the run re-checks that the state still matches it).
#include "core/ops/consent.h"
#include "core/ops/operation.h"

#include <QDialog>

class QLineEdit;
class QPushButton;

namespace dmtune {

class PlanDialog : public QDialog {
    Q_OBJECT
public:
    explicit PlanDialog(const OperationPlan &plan, QWidget *parent = nullptr);

    const OperationPlan &plan() const { return m_plan; }
    // The device names to type, empty when a click is enough.
    QString confirmWord() const { return m_word; }
    bool confirmed() const;
    QLineEdit *wordEdit() const { return m_edit; }
    QPushButton *runButton() const { return m_run; }
    // The plan's steps as the dialog lists them: none repeats a line of the preview shown under them.
    static QStringList stepsBesidePreview(const OperationPlan &plan);

Q_SIGNALS:
    void answered(const dmtune::OperationAnswers &answers);

private:
    // What the dialog gives the consent model: the typed names, and the click as the confirmation.
    static ConsentWays dialogWays();
    ConsentGiven given() const;

    OperationPlan m_plan;
    QString m_word;
    QLineEdit *m_edit = nullptr;
    QPushButton *m_run = nullptr;
};

} // namespace dmtune
