#include "reports/reportdialog.h"

#include "reports/report.h"

#include <QApplication>
#include <QFileDialog>

namespace dmtune {

void exportReportWithDialog(QWidget *parent, const QList<Recording> &recordings,
    const std::function<void(const QString &path, const QString &error)> &done)
{
    auto *dialog = new QFileDialog(parent, QStringLiteral("Export report"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilters({ QStringLiteral("HTML report (*.html)"), QStringLiteral("PDF report (*.pdf)") });
    dialog->setDefaultSuffix(QStringLiteral("html"));
    QObject::connect(dialog, &QFileDialog::filterSelected, dialog, [dialog](const QString &filter) {
        dialog->setDefaultSuffix(
            filter.contains(QLatin1String("pdf")) ? QStringLiteral("pdf") : QStringLiteral("html"));
    });
    QObject::connect(dialog, &QFileDialog::fileSelected, dialog, [recordings, done](const QString &path) {
        // Seven charts rendered off screen and the file written: well under a second, on the GUI thread
        // because the charts are widgets.
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const Result<Report> report = buildReport(recordings);
        const Status written = report ? writeReport(report.value(), path) : Status::failure(report.errorMessage());
        QApplication::restoreOverrideCursor();
        done(path, written.errorMessage);
    });
    dialog->open();
}

} // namespace dmtune
