#include "widgets/reports/reportdialog.h"

#include "core/recordings/recordingsfolder.h"
#include "widgets/filedialogs.h"
#include "widgets/reports/report.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace dmtune {

namespace {

// The filters' words are translated, their patterns are not (the dialog reads the suffixes from them). Built
// when the dialog opens, after the translators are installed; each is compared only with itself.
QString htmlFilter()
{
    return QCoreApplication::translate("ReportDialog", "HTML report") + QStringLiteral(" (*.html)");
}

QString pdfFilter(ReportPaper paper)
{
    return (paper == ReportPaper::Letter ? QCoreApplication::translate("ReportDialog", "PDF report, US Letter")
                                         : QCoreApplication::translate("ReportDialog", "PDF report, A4"))
        + QStringLiteral(" (*.pdf)");
}

} // namespace

QFileDialog *exportReportWithDialog(QWidget *parent, const QList<Recording> &recordings,
    const std::function<void(const QString &path, const QString &error)> &done)
{
    // In the folder the last report went to; the first time beside the recordings (the recordings folder for
    // those the Workload dock made). Named after the first recording.
    const QString first = recordings.isEmpty() ? QString() : recordings.first().path;
    QString directory = first.isEmpty() ? QString() : QFileInfo(first).absolutePath();
    if (directory.isEmpty() || !QFileInfo(directory).isDir())
        directory = recordingsBrowseDirectory();
    directory = filedialogs::startFolder(QStringLiteral("reports"), directory);
    const QString base
        = first.isEmpty() ? QStringLiteral("report") : QFileInfo(first).completeBaseName() + QStringLiteral("-report");

    auto *dialog = new QFileDialog(parent, QCoreApplication::translate("ReportDialog", "Export report"), directory);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    const ReportPaper local = defaultReportPaper();
    const ReportPaper other = local == ReportPaper::A4 ? ReportPaper::Letter : ReportPaper::A4;
    const QString html = htmlFilter();
    dialog->setNameFilters({ html, pdfFilter(local), pdfFilter(other) });
    dialog->selectNameFilter(html);
    dialog->setDefaultSuffix(QStringLiteral("html"));
    dialog->selectFile(QDir(directory).filePath(base + QStringLiteral(".html")));
    QObject::connect(
        dialog, &QFileDialog::filterSelected, dialog, [dialog, directory, base, html](const QString &filter) {
            const QString suffix = filter == html ? QStringLiteral("html") : QStringLiteral("pdf");
            dialog->setDefaultSuffix(suffix);
            dialog->selectFile(QDir(dialog->directory().absolutePath()).filePath(base + u'.' + suffix));
        });
    QObject::connect(dialog, &QFileDialog::fileSelected, dialog, [dialog, recordings, done](const QString &path) {
        const ReportPaper paper
            = dialog->selectedNameFilter() == pdfFilter(ReportPaper::Letter) ? ReportPaper::Letter : ReportPaper::A4;
        // Seven charts rendered off screen and the file written: well under a second, on the GUI thread
        // because the charts are widgets.
        filedialogs::remember(QStringLiteral("reports"), path);
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const Result<Report> report = buildReport(recordings);
        const Status written = report
            ? writeReport(report.value(), path, paper, ExistingFile::Replace) // the dialog asked
            : Status::failure(report.errorMessage());
        QApplication::restoreOverrideCursor();
        done(path, written.errorMessage());
    });
    dialog->open();
    return dialog;
}

} // namespace dmtune
