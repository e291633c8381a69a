#include "widgets/ops/plandialog.h"

#include "core/ops/consent.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace dmtune {

namespace {
QString listHtml(const QStringList &items)
{
    QString html = QStringLiteral("<ul>");
    for (const QString &item : items)
        html += QStringLiteral("<li>%1</li>").arg(item.toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}
} // namespace

QStringList PlanDialog::stepsBesidePreview(const OperationPlan &plan)
{
    // The preview shows the exact lines (the fio command, the sysfs writes); a step that is one of them is not
    // listed again, and a step that names one refers to it.
    const QStringList lines = plan.preview.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QStringList steps;
    bool folded = false;
    for (const QString &step : plan.steps) {
        if (lines.contains(step)) {
            if (!folded)
                steps.append(lines.size() == 1 ? tr("the line below") : tr("the %1 lines below").arg(lines.size()));
            folded = true;
            continue;
        }
        QString shown = step;
        for (const QString &line : lines) {
            if (line.size() >= 8 && shown.contains(line))
                shown.replace(line, lines.size() == 1 ? tr("the command below") : tr("the line below"));
        }
        steps.append(shown);
    }
    return steps;
}

PlanDialog::PlanDialog(const OperationPlan &plan, QWidget *parent)
    : QDialog(parent)
    , m_plan(plan)
{
    setObjectName(QStringLiteral("planDialog"));
    setWindowTitle(plan.risks.isEmpty() ? tr("Confirm") : tr("Confirm a risky operation"));
    // The consent model (ops/consent.h): a data risk (or a fault) is answered by typing its device or map;
    // "Run anyway" is the confirmation an availability risk needs, and never answers a data risk.
    QStringList words;
    for (const OperationRisk &risk : plan.risks) {
        if (risk.kind != RiskKind::Availability && !risk.confirmDevice.isEmpty() && !words.contains(risk.confirmDevice))
            words.append(risk.confirmDevice);
    }
    m_word = words.join(QLatin1Char(' '));

    auto *layout = new QVBoxLayout(this);
    QString text = QStringLiteral("<p><b>%1</b></p>").arg(plan.summary.toHtmlEscaped());
    if (!plan.steps.isEmpty())
        text += tr("<p>What happens:</p>") + listHtml(stepsBesidePreview(plan));
    if (!plan.refusals.isEmpty())
        text += tr("<p><b>It cannot run:</b></p>") + listHtml(plan.refusals);
    QStringList risks;
    for (const OperationRisk &risk : plan.risks)
        risks.append(risk.confirmable ? risk.text : tr("refused: %1").arg(risk.text));
    if (!risks.isEmpty())
        text += tr("<p><b>Risks:</b></p>") + listHtml(risks);
    if (!plan.notes.isEmpty())
        text += listHtml(plan.notes);
    if (!m_word.isEmpty())
        text += tr("<p>Type <b>%1</b> to confirm.</p>").arg(m_word.toHtmlEscaped());
    auto *label = new QLabel(text, this);
    label->setObjectName(QStringLiteral("planText"));
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    layout->addWidget(label);
    if (!plan.preview.isEmpty()) {
        auto *preview = new QPlainTextEdit(plan.preview, this);
        preview->setObjectName(QStringLiteral("planPreview"));
        preview->setReadOnly(true);
        preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        preview->setLineWrapMode(QPlainTextEdit::NoWrap);
        layout->addWidget(preview, 1);
    }
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("planConfirmWord"));
    m_edit->setPlaceholderText(m_word);
    m_edit->setVisible(!m_word.isEmpty());
    layout->addWidget(m_edit);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_run = buttons->addButton(plan.risks.isEmpty() ? tr("Run") : tr("Run anyway"),
        plan.risks.isEmpty() ? QDialogButtonBox::AcceptRole : QDialogButtonBox::DestructiveRole);
    m_run->setObjectName(QStringLiteral("planRun"));
    m_run->setEnabled(confirmed());
    layout->addWidget(buttons);
    connect(m_edit, &QLineEdit::textChanged, this, [this] { m_run->setEnabled(confirmed()); });
    connect(m_run, &QPushButton::clicked, this, [this] {
        if (!confirmed())
            return;
        const auto consent = consentFor(m_plan, given(), dialogWays());
        if (!consent) // cannot happen while confirmed() holds; refuse rather than answer what was not asked
            return;
        Q_EMIT answered(consent.value());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    if (!m_word.isEmpty())
        m_edit->setFocus();
}

ConsentWays PlanDialog::dialogWays()
{
    ConsentWays ways;
    ways.dataOption = QStringLiteral("the typed name");
    ways.forceOption = QStringLiteral("Run anyway");
    ways.faultOption = QStringLiteral("the typed name");
    return ways;
}

ConsentGiven PlanDialog::given() const
{
    ConsentGiven given;
    given.force = true; // the click on "Run anyway"
    if (!m_word.isEmpty() && m_edit->text().simplified() == m_word) {
        const QStringList typed = m_word.split(QLatin1Char(' '));
        given.destroyDataOn.append({ QString(), typed });
        given.faultOn.append({ QString(), typed });
    }
    return given;
}

bool PlanDialog::confirmed() const
{
    if (!m_plan.runnable())
        return false;
    return consentFor(m_plan, given(), dialogWays()).ok();
}

} // namespace dmtune
