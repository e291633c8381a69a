#include "widgets/pathgroups/multipathconfirm.h"

#include "core/dm/grammar/tablediff.h"
#include "core/dm/mapsafety.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <QPushButton>

namespace dmtune {

namespace {

QString capitalised(QString text)
{
    if (!text.isEmpty())
        text[0] = text.at(0).toUpper();
    return text;
}

QString htmlList(const QStringList &items)
{
    QString html = QStringLiteral("<ul style=\"margin-left:0; -qt-list-indent:1\">");
    for (const QString &item : items)
        html += QStringLiteral("<li>%1</li>").arg(capitalised(item).toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}

} // namespace

QString Confirmation::text() const
{
    QStringList lines { question };
    if (!risks.isEmpty()) {
        lines << QCoreApplication::translate("MultipathConfirm", "This can cause I/O errors or hangs on %1:").arg(map);
        for (const QString &risk : risks)
            lines << QStringLiteral("- ") + capitalised(risk);
    }
    for (const QString &warning : warnings)
        lines << warning;
    if (!details.isEmpty())
        lines << details;
    return lines.join(QLatin1Char('\n'));
}

static QPushButton *fillBox(QMessageBox &box, const Confirmation &c)
{
    box.setWindowTitle(c.title);
    box.setIcon(c.risky() ? QMessageBox::Warning : QMessageBox::Question);
    box.setTextFormat(Qt::RichText);
    box.setText(QStringLiteral("<b>%1</b>").arg(c.question.toHtmlEscaped()));
    QString info;
    if (c.risky())
        info += QCoreApplication::translate(
                    "MultipathConfirm", "<p>This can cause I/O errors or hangs on <b>%1</b>:</p>")
                    .arg(c.map.toHtmlEscaped())
            + htmlList(c.risks);
    for (const QString &warning : c.warnings)
        info += QStringLiteral("<p>%1</p>").arg(warning.toHtmlEscaped());
    box.setInformativeText(info);
    if (!c.details.isEmpty())
        box.setDetailedText(c.details);
    QPushButton *accept = box.addButton(
        c.acceptText.isEmpty() ? QCoreApplication::translate("MultipathConfirm", "Continue") : c.acceptText,
        c.risky() ? QMessageBox::DestructiveRole : QMessageBox::AcceptRole);
    QPushButton *cancel = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(c.risky() ? cancel : accept);
    box.setEscapeButton(cancel);
    return accept;
}

OpenedConfirmation openConfirmation(QWidget *parent, const Confirmation &c)
{
    auto *box = new QMessageBox(parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    QPushButton *accept = fillBox(*box, c);
    box->open();
    return { box, accept };
}

Confirmation addPathConfirmation(const QString &map, const QString &pathLabel, int group, const QStringList &risks)
{
    Confirmation c;
    c.map = map;
    c.title = QCoreApplication::translate("MultipathConfirm", "Add %1 to %2").arg(pathLabel, map);
    c.question = QCoreApplication::translate("MultipathConfirm", "Add %1 to group %2 of %3? It may be another disk.")
                     .arg(pathLabel)
                     .arg(group)
                     .arg(map);
    c.risks = risks;
    c.warnings << QCoreApplication::translate("MultipathConfirm",
        "A multipath map is one LUN seen through several paths: a path of another LUN gets part of the map's writes, "
        "corrupting the data on both disks. Nothing changes until you apply the draft.");
    c.acceptText = QCoreApplication::translate("MultipathConfirm", "Add %1 anyway").arg(pathLabel);
    return c;
}

} // namespace dmtune
