#include "widgets/params/applyresulttext.h"

#include "widgets/messagestyle.h"

#include <QCoreApplication>
#include <QStringList>

namespace dmtune {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

} // namespace

QString stageText(ApplyError::Stage stage)
{
    switch (stage) {
    case ApplyError::Stage::Validate:
        return QCoreApplication::translate("ApplyResultText", "check", "step of a transaction");
    case ApplyError::Stage::Write:
        return QCoreApplication::translate("ApplyResultText", "write", "step of a transaction");
    case ApplyError::Stage::ReadBack:
        return QCoreApplication::translate("ApplyResultText", "read back", "step of a transaction");
    case ApplyError::Stage::Rollback:
        return QCoreApplication::translate("ApplyResultText", "restore", "step of a transaction");
    case ApplyError::Stage::Helper:
        return QCoreApplication::translate("ApplyResultText", "helper", "step of a transaction");
    }
    return {};
}

QString applySummary(const ApplyResult &result)
{
    QStringList parts;
    for (const auto &c : result.changes) {
        if ((c.written || c.sideEffect) && c.oldValue != c.newValue)
            parts << c.summary();
    }
    return parts.isEmpty() ? QCoreApplication::translate("ApplyResultText", "nothing changed")
                           : parts.join(QStringLiteral(", "));
}

QString applySuccessHtml(const ApplyResult &result)
{
    QStringList changed, skipped, notes;
    for (const auto &c : result.changes) {
        if (c.sideEffect) {
            if (c.oldValue != c.newValue)
                notes << QCoreApplication::translate("ApplyResultText", "%1 (reset by the scheduler change)")
                             .arg(esc(c.summary()));
            continue;
        }
        if (!c.written) {
            skipped << esc(QStringLiteral("%1 %2").arg(c.device, c.attribute));
            continue;
        }
        changed << esc(c.summary());
        if (c.clamped)
            notes << QCoreApplication::translate("ApplyResultText", "%1 %2: asked %3, the kernel kept %4")
                         .arg(esc(c.device), esc(c.attribute), esc(c.requested), esc(c.newValue));
    }
    QString html = QCoreApplication::translate("ApplyResultText", "<b>Applied</b> (%1): %2")
                       .arg(esc(result.executor),
                           changed.isEmpty() ? QCoreApplication::translate("ApplyResultText", "nothing to change")
                                             : changed.join(QStringLiteral(", ")));
    if (!skipped.isEmpty())
        html += QStringLiteral("<br>")
            + QCoreApplication::translate("ApplyResultText", "Already in place: %1")
                  .arg(skipped.join(QStringLiteral(", ")));
    for (const auto &n : std::as_const(notes))
        html += QStringLiteral("<br>%1").arg(n);
    return html;
}

QString applyErrorHtml(const ApplyResult &result, const QString &heading)
{
    QString what;
    if (result.rejected())
        what = QCoreApplication::translate("ApplyResultText", "rejected before anything was written");
    else if (result.rolledBack)
        what = QCoreApplication::translate("ApplyResultText", "rolled back: every value written was restored");
    else if (!result.anyWritten())
        what = QCoreApplication::translate("ApplyResultText", "nothing was written");
    QString html = messagestyle::htmlSpan(MessageTone::Error, esc(heading), true);
    if (!what.isEmpty())
        html += QStringLiteral(" — ") + what;
    html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\">"
                           "<tr><th align=\"left\">%1</th><th align=\"left\">%2</th><th align=\"left\">%3</th>"
                           "<th align=\"left\">%4</th><th align=\"left\">%5</th></tr>")
                .arg(QCoreApplication::translate("ApplyResultText", "Step"),
                    QCoreApplication::translate("ApplyResultText", "Device"),
                    QCoreApplication::translate("ApplyResultText", "Attribute"),
                    QCoreApplication::translate("ApplyResultText", "Value"),
                    QCoreApplication::translate("ApplyResultText", "Error"));
    for (const auto &e : result.errors) {
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td style=\"color:%6\">%5</td></tr>")
                    .arg(esc(stageText(e.stage)), esc(e.device.isEmpty() ? QStringLiteral("—") : e.device),
                        esc(e.attribute.isEmpty() ? QStringLiteral("—") : e.attribute),
                        esc(e.value.isEmpty() ? QStringLiteral("—") : e.value), esc(e.message),
                        messagestyle::htmlColor(MessageTone::Error));
    }
    html += QStringLiteral("</table>");
    if (result.rolledBack) {
        QStringList restored;
        for (const auto &c : result.changes) {
            if (c.note == QLatin1String("rolled back"))
                restored << esc(QStringLiteral("%1 %2 = %3").arg(c.device, c.attribute, c.newValue));
        }
        if (!restored.isEmpty())
            html += QCoreApplication::translate("ApplyResultText", "Restored: %1")
                        .arg(restored.join(QStringLiteral(", ")));
    }
    return html;
}

QString warningsHtml(const QList<StackingWarning> &warnings)
{
    if (warnings.isEmpty())
        return {};
    QString html
        = QCoreApplication::translate("ApplyResultText", "<b>Stacking warnings</b> (applying is still possible):")
        + QStringLiteral("<ul style=\"margin:0\">");
    for (const auto &w : warnings)
        html += QStringLiteral("<li>%1</li>").arg(esc(w.message));
    return html + QStringLiteral("</ul>");
}

} // namespace dmtune
