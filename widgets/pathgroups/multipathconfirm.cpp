#include "multipathconfirm.h"

#include "dm/mapsafety.h"
#include "dm/tablediff.h"

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
    QStringList lines {question};
    if (!risks.isEmpty()) {
        lines << QStringLiteral("This can cause I/O errors or hangs on %1:").arg(map);
        for (const QString &risk : risks)
            lines << QStringLiteral("- ") + capitalised(risk);
    }
    for (const QString &warning : warnings)
        lines << warning;
    if (!details.isEmpty())
        lines << details;
    return lines.join(QLatin1Char('\n'));
}

bool askConfirmation(QWidget *parent, const Confirmation &c)
{
    QMessageBox box(parent);
    box.setWindowTitle(c.title);
    box.setIcon(c.risky() ? QMessageBox::Warning : QMessageBox::Question);
    box.setTextFormat(Qt::RichText);
    box.setText(QStringLiteral("<b>%1</b>").arg(c.question.toHtmlEscaped()));
    QString info;
    if (c.risky())
        info += QStringLiteral("<p>This can cause I/O errors or hangs on <b>%1</b>:</p>").arg(c.map.toHtmlEscaped())
            + htmlList(c.risks);
    for (const QString &warning : c.warnings)
        info += QStringLiteral("<p>%1</p>").arg(warning.toHtmlEscaped());
    box.setInformativeText(info);
    if (!c.details.isEmpty())
        box.setDetailedText(c.details);
    QPushButton *accept = box.addButton(c.acceptText.isEmpty() ? QStringLiteral("Continue") : c.acceptText,
                                        c.risky() ? QMessageBox::DestructiveRole : QMessageBox::AcceptRole);
    QPushButton *cancel = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(c.risky() ? cancel : accept);
    box.setEscapeButton(cancel);
    box.exec();
    return box.clickedButton() == accept;
}

Confirmation operationConfirmation(const QString &map, const MultipathTable &table, const MultipathStatus &status,
                                   const MultipathMessage &message, bool multipathdRunning, const QString &pathLabel)
{
    Confirmation c;
    c.map = map;
    c.risks = operationRisks(table, status, message);
    const QString path = pathLabel.isEmpty() ? message.device : pathLabel;
    switch (message.kind) {
    case MultipathMessageKind::FailPath:
        c.title = QStringLiteral("Fail path %1 of %2").arg(path, map);
        c.question = QStringLiteral("Fail path %1 of %2?").arg(path, map);
        c.acceptText = QStringLiteral("Fail path");
        c.warnings << (multipathdRunning
                           ? QStringLiteral("multipathd is running: the path is failed through it, and its path "
                                            "checker reinstates the path at a later check if the path works.")
                           : QStringLiteral("multipathd is not running: nothing reinstates the path by itself; "
                                            "reinstate it when you are done."));
        break;
    case MultipathMessageKind::ReinstatePath:
        c.title = QStringLiteral("Reinstate path %1 of %2").arg(path, map);
        c.question = QStringLiteral("Reinstate path %1 of %2?").arg(path, map);
        c.acceptText = QStringLiteral("Reinstate path");
        if (multipathdRunning)
            c.warnings << QStringLiteral("multipathd is running: its path checker fails the path again if it "
                                         "does not work.");
        break;
    case MultipathMessageKind::SwitchGroup:
        c.title = QStringLiteral("Switch %1 to group %2").arg(map).arg(message.group);
        c.question = QStringLiteral("Switch %1 to path group %2 for the next I/O?").arg(map).arg(message.group);
        c.acceptText = QStringLiteral("Switch group");
        if (multipathdRunning)
            c.warnings << QStringLiteral("multipathd is running: with a failback policy it switches back to the "
                                         "group it prefers.");
        break;
    case MultipathMessageKind::EnableGroup:
        c.title = QStringLiteral("Enable group %1 of %2").arg(message.group).arg(map);
        c.question = QStringLiteral("Enable path group %1 of %2?").arg(message.group).arg(map);
        c.acceptText = QStringLiteral("Enable group");
        break;
    case MultipathMessageKind::DisableGroup:
        c.title = QStringLiteral("Disable group %1 of %2").arg(message.group).arg(map);
        c.question = QStringLiteral("Disable (bypass) path group %1 of %2?").arg(message.group).arg(map);
        c.acceptText = QStringLiteral("Disable group");
        if (multipathdRunning)
            c.warnings << QStringLiteral("multipathd is running: it has no command for this, so the message goes "
                                         "to device-mapper directly; multipathd may enable the group again.");
        break;
    case MultipathMessageKind::QueueIfNoPath:
        c.title = QStringLiteral("Queue I/O on %1 when no path is left").arg(map);
        c.question = QStringLiteral("Queue I/O on %1 when no path is left (queue_if_no_path)?").arg(map);
        c.acceptText = QStringLiteral("Queue I/O");
        break;
    case MultipathMessageKind::FailIfNoPath:
        c.title = QStringLiteral("Fail I/O on %1 when no path is left").arg(map);
        c.question = QStringLiteral("Fail I/O on %1 when no path is left (fail_if_no_path)?").arg(map);
        c.acceptText = QStringLiteral("Fail I/O");
        break;
    }
    return c;
}

Confirmation reloadConfirmation(const QString &map, const MultipathTable &current, const MultipathStatus &status,
                                const MultipathTable &proposed, bool multipathdRunning)
{
    Confirmation c;
    c.map = map;
    c.title = QStringLiteral("Reload %1").arg(map);
    c.question = QStringLiteral("Load the new table into %1 (suspend without flush, load, resume)?").arg(map);
    c.acceptText = QStringLiteral("Reload %1").arg(map);
    c.risks = reloadRisks(current, status, proposed);
    c.warnings << (multipathdRunning
                       ? QStringLiteral("multipathd is running: it may reload %1 from multipath.conf (on reconfigure, a "
                                        "path event or a checker change) and put its own table back.")
                             .arg(map)
                       : QStringLiteral("multipathd is not running: nothing puts the old table back; the diff below "
                                        "is how to undo this by hand."));
    c.details = QStringLiteral("New table:\n%1\n\nChanges:\n%2")
                    .arg(formatMultipathTable(proposed), tableDiff(current, proposed));
    return c;
}

QString operationResultText(const MultipathOperationResult &result)
{
    QString text = result.ok ? QStringLiteral("%1: %2 done").arg(result.map, result.operation)
                             : QStringLiteral("%1: %2 failed: %3").arg(result.map, result.operation, result.error);
    if (result.ok && !result.via.isEmpty())
        text += QStringLiteral(" (via %1)").arg(result.via);
    if (!result.warnings.isEmpty())
        text += QStringLiteral(" · %1").arg(result.warnings.first());
    return text;
}

} // namespace dmtune
