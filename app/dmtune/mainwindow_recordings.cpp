// MainWindow's recordings: File > Open recording… (replayed into charts), Open PCP archive… (an archive's span as a
// recording), Compare recordings… (overlaid
// charts, statistics with deltas, configuration diff), Export report… (HTML or PDF). Views open as their own
// windows so that the live Statistics tab keeps running beside them.
#include "mainwindow.h"

#include "core/jobs/jobtracker.h"
#include "core/recordings/recordingreader.h"
#include "core/recordings/recordingsfolder.h"
#include "widgets/filedialogs.h"
#include "widgets/fleet/pcparchivedialog.h"
#include "widgets/reports/compareview.h"
#include "widgets/reports/recordingview.h"
#include "widgets/reports/reportdialog.h"
#include "widgets/windowfit.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

namespace dmtune {

namespace {

// A non-modal open dialog (no nested event loop) that hands the chosen files to `chosen`. It starts in the folder
// recordings were last opened from, the first time in the recordings folder (where the Workload dock records).
void chooseRecordings(
    QWidget *parent, const QString &title, bool several, const std::function<void(const QStringList &)> &chosen)
{
    QFileDialog *dialog = filedialogs::open(parent,
        { QStringLiteral("recordings"), title, recordingsBrowseDirectory(),
            QCoreApplication::translate("MainWindow", "dmtune recordings (*.dmrec);;All files (*)"),
            several ? QFileDialog::ExistingFiles : QFileDialog::ExistingFile },
        chosen);
    dialog->setObjectName(QStringLiteral("chooseRecordings"));
}

} // namespace

void MainWindow::setupRecordings()
{
    QMenu *file = menuNamed(tr("&File"));
    if (!file)
        return;
    QAction *first = file->actions().value(0);
    auto *open = new QAction(tr("&Open recording…"), file);
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, this, [this] {
        chooseRecordings(
            this, tr("Open recording"), false, [this](const QStringList &files) { openRecordings(files); });
    });
    auto *compare = new QAction(tr("&Compare recordings…"), file);
    connect(compare, &QAction::triggered, this, [this] {
        chooseRecordings(this, tr("Compare recordings (choose two or more)"), true,
            [this](const QStringList &files) { openRecordings(files); });
    });
    auto *report = new QAction(tr("&Export report…"), file);
    connect(report, &QAction::triggered, this, [this] {
        chooseRecordings(this, tr("Recordings to report on"), true, [this](const QStringList &files) {
            QList<Recording> recordings;
            for (const QString &f : files) {
                const Result<Recording> rec = readRecording(f);
                if (!rec) {
                    statusBar()->showMessage(rec.errorMessage());
                    return;
                }
                recordings.append(rec.value());
            }
            exportReportWithDialog(this, recordings, [this](const QString &path, const QString &error) {
                statusBar()->showMessage(error.isEmpty() ? tr("Report written to %1").arg(path) : error);
            });
        });
    });
    // A PCP archive (a support case's) as a recording: read on a job, then the recording view, whose recording
    // also compares and reports like any other.
    auto *archive = new QAction(tr("Open &PCP archive…"), file);
    archive->setObjectName(QStringLiteral("openPcpArchiveAction"));
    connect(archive, &QAction::triggered, this, [this] {
        auto *dialog = new PcpArchiveDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, this, [this, dialog] {
            const QString path = dialog->archivePath();
            const PcpArchiveWindow window = dialog->window();
            statusBar()->showMessage(tr("Reading the PCP archive %1…").arg(path));
            m_jobs->start(
                tr("read PCP archive %1").arg(path),
                [path, window](JobContext &) { return importPcpArchive(path, window); },
                [this](const Result<QString> &recording) {
                    if (!recording) {
                        statusBar()->showMessage(recording.errorMessage());
                        return;
                    }
                    statusBar()->showMessage(tr("The archive is the recording %1").arg(recording.value()), 15000);
                    openRecordings({ recording.value() });
                });
        });
        dialog->open();
    });
    file->insertActions(first, { open, archive, compare, report });
    file->insertSeparator(first);
}

QWidget *MainWindow::openRecordings(const QStringList &files, QString *error)
{
    QList<Recording> recordings;
    for (const QString &f : files) {
        Result<Recording> rec = readRecording(f);
        if (!rec) {
            if (error)
                *error = rec.errorMessage();
            statusBar()->showMessage(rec.errorMessage());
            return nullptr;
        }
        if (rec->truncated)
            statusBar()->showMessage(QStringLiteral("%1: %2").arg(f, rec->truncation));
        recordings.append(rec.value());
    }
    if (recordings.isEmpty())
        return nullptr;
    QWidget *view = nullptr;
    const auto reported = [this](const QString &path, const QString &problem) {
        statusBar()->showMessage(problem.isEmpty() ? tr("Report written to %1").arg(path) : problem);
    };
    if (recordings.size() == 1) {
        auto *single = new RecordingView(recordings.first(), this);
        connect(single, &RecordingView::reportExported, this, reported);
        view = single;
    } else {
        auto *several = new CompareView(this);
        several->setRecordings(recordings);
        connect(several, &CompareView::reportExported, this, reported);
        view = several;
    }
    view->setWindowFlag(Qt::Window);
    view->setAttribute(Qt::WA_DeleteOnClose);
    windowfit::resizeOnScreen(view, { 1200, 800 });
    view->show();
    return view;
}

} // namespace dmtune
