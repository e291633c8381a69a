#include "widgets/charts/statsexportdialog.h"

#include "widgets/messagebanner.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace dmtune {

using statsexport::Format;

namespace {

QString formatText(Format format, qsizetype charts)
{
    switch (format) {
    case Format::Png:
        return QCoreApplication::translate("StatsExportDialog", "&PNG pictures, one per chart (%1 files)").arg(charts);
    case Format::Pdf:
        return QCoreApplication::translate("StatsExportDialog", "P&DF vector graphics, one per chart (%1 files)")
            .arg(charts);
    case Format::Svg:
        return QCoreApplication::translate("StatsExportDialog", "&SVG vector graphics, one per chart (%1 files)")
            .arg(charts);
    case Format::Csv:
        break;
    }
    return QCoreApplication::translate("StatsExportDialog", "&CSV samples (1 file, %1)")
        .arg(statsexport::csvFileName());
}

QString formatToolTip(Format format)
{
    switch (format) {
    case Format::Png:
        return QCoreApplication::translate(
            "StatsExportDialog", "Each chart as drawn on screen, for slides and tickets");
    case Format::Pdf:
        return QCoreApplication::translate(
            "StatsExportDialog", "Each chart as vector graphics, for documents and printing");
    case Format::Svg:
        return QCoreApplication::translate(
            "StatsExportDialog", "Each chart as vector graphics, for editing and web pages");
    case Format::Csv:
        break;
    }
    return QCoreApplication::translate("StatsExportDialog",
        "Every interval kept of the charted devices, one row per device and interval, with "
        "iostat -x's column names (the format of dmtunectl stat --csv)");
}

} // namespace

StatsExportDialog::StatsExportDialog(const QStringList &chartIds, const QStringList &chartTitles,
    const QString &devices, const QString &directory, statsexport::Formats formats, QWidget *parent)
    : QDialog(parent)
    , m_chartIds(chartIds)
{
    setObjectName(QStringLiteral("statsExportDialog"));
    setWindowTitle(tr("Export statistics"));
    auto *layout = new QVBoxLayout(this);

    const QString titles = chartTitles.join(QStringLiteral(", "));
    auto *intro = new QLabel(devices.isEmpty()
            ? tr("The %1 charts (%2) and the samples behind them, as files in a folder.")
                  .arg(chartIds.size())
                  .arg(titles)
            : tr("The %1 charts (%2) of %3 and the samples behind them, as files in a folder.")
                  .arg(chartIds.size())
                  .arg(titles, devices),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *folderRow = new QHBoxLayout;
    auto *folderLabel = new QLabel(tr("&Folder:"), this);
    m_directory = new QLineEdit(directory, this);
    m_directory->setObjectName(QStringLiteral("exportDirectory"));
    m_directory->setMinimumWidth(420);
    m_directory->setToolTip(tr("Created if it does not exist"));
    folderLabel->setBuddy(m_directory);
    auto *browse = new QPushButton(tr("&Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &StatsExportDialog::browse);
    folderRow->addWidget(folderLabel);
    folderRow->addWidget(m_directory, 1);
    folderRow->addWidget(browse);
    layout->addLayout(folderRow);

    auto *box = new QGroupBox(tr("Formats"), this);
    auto *boxLayout = new QVBoxLayout(box);
    for (Format f : statsexport::allFormats) {
        auto *check = new QCheckBox(formatText(f, chartIds.size()), box);
        check->setObjectName(QStringLiteral("format_") + statsexport::suffix(f));
        check->setToolTip(formatToolTip(f));
        check->setChecked(formats.testFlag(f));
        connect(check, &QCheckBox::toggled, this, &StatsExportDialog::refresh);
        boxLayout->addWidget(check);
        m_formats.insert(int(f), check);
    }
    layout->addWidget(box);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("exportSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    m_conflict = new MessageBanner(this);
    m_conflict->setObjectName(QStringLiteral("exportConflict"));
    m_conflict->label()->setTextFormat(Qt::PlainText);
    m_replace = new QCheckBox(tr("&Replace them"), m_conflict);
    m_replace->setObjectName(QStringLiteral("replaceExisting"));
    m_replace->setToolTip(tr("Write over the files listed (each is replaced whole, never through a link)"));
    m_conflict->addButton(m_replace);
    connect(m_replace, &QCheckBox::toggled, this, &StatsExportDialog::refresh);
    layout->addWidget(m_conflict);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_export = buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
    m_export->setObjectName(QStringLiteral("exportButton"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        refresh(); // the folder may have changed since the last look
        if (!m_export->isEnabled())
            return;
        const QString dir = this->directory();
        const statsexport::Formats chosen = this->formats();
        const ExistingFile existing = replaceExisting() ? ExistingFile::Replace : ExistingFile::Refuse;
        accept();
        Q_EMIT exportRequested(dir, chosen, existing);
    });
    layout->addWidget(buttons);
    connect(m_directory, &QLineEdit::textChanged, this, &StatsExportDialog::refresh);
    refresh();
}

QString StatsExportDialog::directory() const
{
    const QString text = m_directory->text().trimmed();
    return text.isEmpty() ? QString() : QDir::cleanPath(QDir(text).absolutePath());
}

void StatsExportDialog::setDirectory(const QString &directory)
{
    m_directory->setText(directory);
}

statsexport::Formats StatsExportDialog::formats() const
{
    statsexport::Formats out;
    for (Format f : statsexport::allFormats) {
        if (m_formats.value(int(f))->isChecked())
            out |= f;
    }
    return out;
}

QStringList StatsExportDialog::plannedNames() const
{
    return statsexport::fileNames(m_chartIds, formats());
}

QStringList StatsExportDialog::existingNames() const
{
    const QString dir = directory();
    return dir.isEmpty() ? QStringList() : statsexport::existingNames(dir, plannedNames());
}

bool StatsExportDialog::replaceExisting() const
{
    return !m_conflict->isHidden() && m_replace->isChecked();
}

QString StatsExportDialog::summaryText() const
{
    return m_summary->text();
}

QString StatsExportDialog::freshDirectory(const QString &parent)
{
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    const QDir base(parent);
    QString candidate = base.filePath(QStringLiteral("dmtune-statistics-") + stamp);
    for (int i = 2; QFileInfo::exists(candidate) || QFileInfo(candidate).isSymLink(); ++i)
        candidate = base.filePath(QStringLiteral("dmtune-statistics-%1-%2").arg(stamp).arg(i));
    return candidate;
}

void StatsExportDialog::refresh()
{
    const QString dir = directory();
    const QStringList names = plannedNames();
    const QStringList taken = existingNames();
    QString summary;
    if (names.isEmpty()) {
        summary = tr("Choose at least one format.");
    } else if (dir.isEmpty()) {
        summary = tr("Choose a folder.");
    } else {
        const bool exists = QFileInfo(dir).exists();
        const QString described = statsexport::describeNames(m_chartIds, formats());
        if (names.size() == 1)
            summary = (exists ? tr("Writes 1 file into %1: %2.") : tr("Writes 1 file into %1 (a new folder): %2."))
                          .arg(dir, described);
        else
            summary = (exists ? tr("Writes %1 files into %2: %3.") : tr("Writes %1 files into %2 (a new folder): %3."))
                          .arg(names.size())
                          .arg(dir, described);
    }
    m_summary->setText(summary);
    if (taken != m_taken) {
        // Replace was for the files listed then: other files (another folder, other formats) are asked about again.
        m_taken = taken;
        const QSignalBlocker quiet(m_replace);
        m_replace->setChecked(false);
    }
    if (taken.isEmpty()) {
        m_conflict->hide();
    } else {
        m_conflict->showMessage(MessageTone::Warning,
            taken.size() == 1
                ? tr("1 of these file is already in this folder: %1. They are left as they are unless you "
                     "replace them (or choose another folder).")
                      .arg(taken.constFirst())
                : tr("%1 of these files are already in this folder: %2. They are left as they are unless you "
                     "replace them (or choose another folder).")
                      .arg(taken.size())
                      .arg(taken.join(QStringLiteral(", "))));
    }
    const bool blocked = !taken.isEmpty() && !m_replace->isChecked();
    m_export->setEnabled(!names.isEmpty() && !dir.isEmpty() && !blocked);
    if (names.isEmpty())
        m_export->setText(tr("&Export"));
    else
        m_export->setText(names.size() == 1 ? tr("&Export 1 file") : tr("&Export %1 files").arg(names.size()));
    m_export->setToolTip(
        blocked ? tr("Some files exist there: tick Replace them, or choose another folder") : QString());
}

void StatsExportDialog::browse()
{
    auto *dialog = new QFileDialog(this, tr("Folder for the statistics"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    const QString current = directory();
    dialog->setDirectory(QFileInfo::exists(current) ? current : QFileInfo(current).absolutePath());
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &dir) { setDirectory(dir); });
    dialog->open();
}

} // namespace dmtune
