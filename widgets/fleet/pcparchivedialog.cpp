#include "widgets/fleet/pcparchivedialog.h"

#include "core/metrics/sourcerecording.h"
#include "core/recordings/recordingsfolder.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>

#include <cmath>

namespace dmtune {

PcpArchiveDialog::PcpArchiveDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Open PCP archive"));
    m_path = new QLineEdit(this);
    m_path->setObjectName(QStringLiteral("archivePath"));
    m_path->setPlaceholderText(tr("/var/log/pcp/pmlogger/HOST/20261205"));
    auto *browseButton = new QPushButton(tr("Browse…"), this);
    connect(browseButton, &QPushButton::clicked, this, &PcpArchiveDialog::browse);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browseButton);

    m_start = new QLineEdit(this);
    m_start->setObjectName(QStringLiteral("archiveStart"));
    m_start->setPlaceholderText(tr("the archive's start (or @ Sat Dec  5 14:00:00 2026, +10min)"));
    m_finish = new QLineEdit(this);
    m_finish->setObjectName(QStringLiteral("archiveFinish"));
    m_finish->setPlaceholderText(tr("the archive's end (or @ time, +30min after the start, -5min before the end)"));
    m_interpolate = new QCheckBox(tr("Interpolate every"), this);
    m_interval = new QDoubleSpinBox(this);
    m_interval->setRange(0.1, 3600);
    m_interval->setValue(10);
    m_interval->setSuffix(tr(" s"));
    m_interval->setEnabled(false);
    connect(m_interpolate, &QCheckBox::toggled, m_interval, &QWidget::setEnabled);
    auto *intervalRow = new QHBoxLayout;
    intervalRow->addWidget(m_interpolate);
    intervalRow->addWidget(m_interval);
    intervalRow->addStretch(1);

    auto *form = new QFormLayout;
    form->addRow(tr("Archive:"), pathRow);
    form->addRow(tr("Start:"), m_start);
    form->addRow(tr("Finish:"), m_finish);
    form->addRow(tr("Samples:"), intervalRow);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    const auto updateOpen
        = [this, buttons] { buttons->button(QDialogButtonBox::Open)->setEnabled(!m_path->text().trimmed().isEmpty()); };
    connect(m_path, &QLineEdit::textChanged, this, updateOpen);
    updateOpen();
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(640, sizeHint().height());
}

void PcpArchiveDialog::browse()
{
    auto *dialog = new QFileDialog(this, tr("PCP archive"), QStringLiteral("/var/log/pcp/pmlogger"),
        tr("PCP archives (*.meta *.index *.0 *.meta.xz *.0.xz);;All files (*)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &file) { m_path->setText(file); });
    dialog->open();
}

QString PcpArchiveDialog::archivePath() const
{
    return m_path->text().trimmed();
}

PcpArchiveWindow PcpArchiveDialog::window() const
{
    return { m_start->text().trimmed(), m_finish->text().trimmed(),
        m_interpolate->isChecked() ? int(std::lround(m_interval->value() * 1000)) : 0 };
}

Result<QString> importPcpArchive(const QString &archive, const PcpArchiveWindow &window)
{
    auto source = PcpSource::openArchive(archive, window);
    if (!source)
        return Result<QString>::failure(source.errorMessage());
    // archive.meta, archive.0 and archive.index name the same archive: the recording is named by its base.
    QString base = QFileInfo(archive).fileName();
    for (const QString &suffix :
        { QStringLiteral(".xz"), QStringLiteral(".meta"), QStringLiteral(".index"), QStringLiteral(".0") }) {
        if (base.endsWith(suffix))
            base.chop(suffix.size());
    }
    // The label's host name goes into a file name: nothing but letters, digits, '.', '_' and '-'.
    QString host = source.value()->hostName();
    host.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    if (host.isEmpty() || host.startsWith(u'.'))
        host.prepend(u'h');
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    const QDir folder(recordingsDirectory());
    if (!folder.exists() && !QDir().mkpath(folder.path()))
        return Result<QString>::failure(QStringLiteral("cannot create %1").arg(folder.path()));
    QString path = folder.filePath(QStringLiteral("pcp-%1-%2.dmrec").arg(host, base));
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = folder.filePath(QStringLiteral("pcp-%1-%2-%3.dmrec").arg(host, base).arg(n));
    const QString title = QStringLiteral("%1 (PCP archive %2)").arg(source.value()->hostName(), base);
    const auto written = recordFromSource(*source.value(), {}, path, title);
    if (!written)
        return Result<QString>::failure(written.errorMessage());
    return written->path;
}

} // namespace dmtune
