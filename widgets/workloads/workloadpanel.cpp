#include "widgets/workloads/workloadpanel.h"

#include "core/recordings/recordingsfolder.h"

#include "core/host/hostsession.h"
#include "core/host/workloadruns.h"
#include "core/ops/hostcontext.h"
#include "core/ops/operationrunner.h"
#include "core/ops/workloadoperations.h"
#include "core/workloads/fiorun.h"
#include "core/workloads/workloadsession.h" // fioRatesFromJson
#include "widgets/charts/livestatsview.h"
#include "widgets/devices/devicelabels.h"
#include "widgets/filedialogs.h"
#include "widgets/workloads/confirmwritedialog.h"
#include "widgets/workloads/fiochart.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace dmtune {

namespace {

// On the lab device: seed 002's workload, the one whose merges a map loses and queue_depth 2 brings back.
const QString defaultLabTemplate = QStringLiteral("seq-write-4k-64jobs");

bool selectData(QComboBox *combo, const QString &data)
{
    const int index = combo->findData(data);
    if (index >= 0)
        combo->setCurrentIndex(index);
    return index >= 0;
}

} // namespace

WorkloadPanel::WorkloadPanel(std::shared_ptr<const HostContext> host, QWidget *parent)
    : QWidget(parent)
    , m_host(std::move(host))
    , m_root(m_host->sysfs())
    , m_actsOnHost(m_root.isLive())
{
    // This machine's workload.start, planned and run in this process by a runner of the panel's own.
    auto *runner = new OperationRunner;
    runner->setEnvironment(m_host->environment());
    setUp(new WorkloadRuns(runner, this));
}

WorkloadPanel::WorkloadPanel(HostSession *host, QWidget *parent)
    : QWidget(parent)
    , m_host(host->context())
    , m_root(m_host->sysfs())
    , m_hostName(host->name())
    , m_actsOnHost(m_root.isLive() || host->fetchesCaptures())
{
    setUp(host->newWorkloadRuns(this));
    // The host's jobs are offered while it is connected; listed again when it is.
    connect(host, &HostSession::stateChanged, this, [this](HostSession::State state) {
        if (state != HostSession::State::Connected)
            showOffers({});
    });
}

WorkloadPanel::~WorkloadPanel()
{
    // A run goes before the panel does: this machine's activity is deleted on its thread (fio killed, the recording
    // closed, the device let go); a remote host's job goes on there and is offered to the host's next window.
    m_runs->disconnect(this);
    delete m_runs;
}

void WorkloadPanel::setUp(WorkloadRuns *runs)
{
    m_runs = runs;
    connect(m_runs, &WorkloadRuns::event, this, &WorkloadPanel::onRunEvent);
    connect(m_runs, &WorkloadRuns::finished, this, &WorkloadPanel::onRunResult);
    // Listed when the host's connection is ready and nothing runs: this GUI's jobs of closed windows are offered.
    connect(m_runs, &WorkloadRuns::jobsListed, this, [this](const QList<AgentJob> &jobs) {
        keepRememberedJobs(m_hostName, jobs);
        showOffers(isRunning() ? QList<JobOffer>() : jobOffers(jobs, rememberedJobs(m_hostName)));
    });
    connect(m_runs, &WorkloadRuns::jobsListFailed, this,
        [this](const QString &message) { log(tr("the jobs on %1: %2").arg(m_hostName, message)); });
    buildUi();
    loadTemplate(0);
    proposeTemplate(); // no target yet: a read template
    updateLabButtons();
    updateButtons();
}

void WorkloadPanel::buildUi()
{
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setContentsMargins(0, 0, 0, 0);
    form->setVerticalSpacing(4);

    m_template = new QComboBox(this);
    for (const FioJob &job : fioTemplates()) {
        m_template->addItem(job.title, job.id);
        m_template->setItemData(m_template->count() - 1, job.why, Qt::ToolTipRole);
    }
    m_template->addItem(tr("Custom job file..."), CustomTemplateId);
    // The longest title must not set the window's minimum width (the window has to fit 1366 px).
    m_template->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_template->setMinimumContentsLength(24);
    form->addRow(tr("&Template:"), m_template);

    auto *fileRow = new QHBoxLayout;
    m_jobFile = new QLineEdit(this);
    m_jobFile->setPlaceholderText(tr("a .fio job file with filename=${DMTUNE_DEVICE}"));
    m_browse = new QPushButton(tr("Browse..."), this);
    fileRow->addWidget(m_jobFile);
    fileRow->addWidget(m_browse);
    form->addRow(tr("Job file:"), fileRow);

    auto *params = new QHBoxLayout;
    m_rw = new QComboBox(this);
    m_rw->addItems(fioRwModes());
    m_bs = new QLineEdit(this);
    m_bs->setMaximumWidth(60);
    m_iodepth = new QSpinBox(this);
    m_iodepth->setRange(1, 65536);
    m_numjobs = new QSpinBox(this);
    m_numjobs->setRange(1, 4096);
    m_runtime = new QSpinBox(this);
    m_runtime->setRange(1, 7 * 24 * 3600);
    m_runtime->setSuffix(QStringLiteral(" s"));
    m_engine = new QComboBox(this);
    m_engine->setEditable(true);
    m_engine->addItems(fioEngines());
    m_batching = new QCheckBox(tr("&batched"), this); // short: this row sets the dock's minimum width
    m_batching->setToolTip(tr("iodepth_batch_submit=16, iodepth_batch_complete_min=8: the scheduler sees "
                              "several requests at once and can merge them"));
    // In two rows: in one they set the form's width, and fio's charts beside it had 200 px each at 1280); the
    // form has the height to spare (the charts set the dock's).
    auto *params2 = new QHBoxLayout;
    const auto labelled = [&](QHBoxLayout *row, const QString &text, QWidget *w) {
        row->addWidget(new QLabel(text, this));
        row->addWidget(w);
    };
    labelled(params, QStringLiteral("rw"), m_rw);
    labelled(params, QStringLiteral("bs"), m_bs);
    labelled(params, QStringLiteral("iodepth"), m_iodepth);
    labelled(params, QStringLiteral("numjobs"), m_numjobs);
    params->addStretch();
    labelled(params2, QStringLiteral("runtime"), m_runtime);
    labelled(params2, QStringLiteral("ioengine"), m_engine);
    params2->addWidget(m_batching);
    params2->addStretch();
    auto *paramRows = new QVBoxLayout;
    paramRows->setSpacing(4);
    paramRows->addLayout(params);
    paramRows->addLayout(params2);
    form->addRow(tr("Parameters:"), paramRows);

    auto *deviceRow = new QHBoxLayout;
    m_device = new QComboBox(this);
    m_device->setObjectName(QStringLiteral("workloadDevice"));
    m_device->setMinimumContentsLength(18);
    // Hundreds of devices: typing filters the list (any part of the name, the map's name, the size); a text that names
    // no device goes back to the chosen one.
    m_device->setEditable(true);
    m_device->setInsertPolicy(QComboBox::NoInsert);
    m_device->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_device->completer()->setFilterMode(Qt::MatchContains);
    m_device->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    m_device->lineEdit()->setPlaceholderText(tr("type to filter the devices"));
    connect(m_device->lineEdit(), &QLineEdit::editingFinished, this, [this] {
        if (m_device->lineEdit()->text() != m_device->itemText(m_device->currentIndex()))
            m_device->setEditText(m_device->itemText(m_device->currentIndex()));
        showDeviceTextFromItsStart();
    });
    connect(m_device, &QComboBox::currentIndexChanged, this, &WorkloadPanel::showDeviceTextFromItsStart);
    m_createLab = new QPushButton(tr("Create lab device"), this); // its tooltip: updateLabButtons()
    m_removeLab = new QPushButton(tr("Remove lab device"), this);
    deviceRow->addWidget(m_device, 1);
    deviceRow->addWidget(m_createLab);
    deviceRow->addWidget(m_removeLab);
    form->addRow(tr("Device:"), deviceRow);

    auto *commandRow = new QHBoxLayout;
    m_command = new QLineEdit(this);
    m_command->setReadOnly(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_copy = new QPushButton(tr("&Copy"), this);
    m_copy->setToolTip(tr("Copy the exact fio command line"));
    commandRow->addWidget(m_command, 1);
    commandRow->addWidget(m_copy);
    form->addRow(tr("Command:"), commandRow);

    auto *runRow = new QHBoxLayout;
    m_record = new QCheckBox(tr("&Record to"), this);
    m_recordPath = new QLineEdit(this);
    m_recordPath->setObjectName(QStringLiteral("recordPath"));
    m_recordPath->setPlaceholderText(tr("(a new file under %1)").arg(recordingsDirectory()));
    m_start = new QPushButton(tr("&Start"), this);
    m_start->setObjectName(QStringLiteral("workloadStart"));
    m_stop = new QPushButton(tr("St&op"), this);
    m_stop->setObjectName(QStringLiteral("workloadStop"));
    runRow->addWidget(m_record);
    runRow->addWidget(m_recordPath, 1);
    runRow->addWidget(m_start);
    runRow->addWidget(m_stop);
    form->addRow(QString(), runRow);

    // One line each, whatever they say (the whole text in the tooltip): a long status that wrapped made the panel
    // taller than the dock during a run, which then scrolled the Template row away.
    const auto oneLine = [](QLabel *label) {
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        label->setMinimumWidth(40);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    };
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("workloadStatus"));
    oneLine(m_status);
    // The recording's file name beside the status, under Record to; the path in its tooltip.
    m_recorded = new QLabel(this);
    m_recorded->setObjectName(QStringLiteral("recordedTo"));
    m_recorded->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_recorded->hide();
    oneLine(m_recorded);
    auto *statusRow = new QHBoxLayout;
    statusRow->setSpacing(16);
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_recorded, 1);
    m_readout = new QLabel(tr("IOPS -   bandwidth -   clat p50 -   p99 -"), this);
    m_readout->setObjectName(QStringLiteral("fioReadout"));
    m_readout->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    oneLine(m_readout);
    form->addRow(tr("Status:"), statusRow);
    form->addRow(QStringLiteral("fio:"), m_readout);
    // A remote host's jobs that an earlier window started (closed, or the app quit): attach or fetch (showOffers).
    m_offersBox = new QWidget(this);
    m_offersBox->setObjectName(QStringLiteral("jobOffers"));
    auto *offers = new QVBoxLayout(m_offersBox);
    offers->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("On the host:"), m_offersBox);
    form->setRowVisible(m_offersBox, false);

    auto *left = new QWidget(this);
    left->setLayout(form);
    m_chart = new FioChart(this);
    m_log = new QPlainTextEdit(this);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(500);
    m_log->setPlaceholderText(tr("fio's messages and the run summaries"));
    // fio's charts and its messages as tabs: under the charts the log left them a few dozen pixels at 1280x720
    //; the dock's height is the form's, and the charts get all of it.
    m_right = new QTabWidget(this);
    m_right->setObjectName(QStringLiteral("fioTabs"));
    m_right->setDocumentMode(true);
    m_right->addTab(m_chart, tr("fio, by s since it started"));
    m_right->addTab(m_log, tr("Messages"));
    QWidget *right = m_right;
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 0); // the form at its width, the charts take the rest
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0); // every pixel of height to fio's charts
    layout->addWidget(split);

    connect(m_template, &QComboBox::currentIndexChanged, this, &WorkloadPanel::loadTemplate);
    for (QLineEdit *edit : { m_jobFile, m_bs })
        connect(edit, &QLineEdit::textChanged, this, &WorkloadPanel::updateCommandLine);
    for (QSpinBox *spin : { m_iodepth, m_numjobs, m_runtime })
        connect(spin, &QSpinBox::valueChanged, this, &WorkloadPanel::updateCommandLine);
    connect(m_rw, &QComboBox::currentTextChanged, this, &WorkloadPanel::updateCommandLine);
    connect(m_engine, &QComboBox::currentTextChanged, this, &WorkloadPanel::updateCommandLine);
    connect(m_batching, &QCheckBox::toggled, this, &WorkloadPanel::updateCommandLine);
    connect(m_device, &QComboBox::currentIndexChanged, this, &WorkloadPanel::updateCommandLine);
    connect(m_device, &QComboBox::currentIndexChanged, this, &WorkloadPanel::proposeTemplate);
    connect(m_template, &QComboBox::activated, this, [this] { m_templatePicked = true; });
    connect(m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_command->text()); });
    connect(m_browse, &QPushButton::clicked, this, [this] {
        filedialogs::open(this,
            { QStringLiteral("jobfiles"), tr("fio job file"), QDir::homePath(),
                tr("fio job files (*.fio *.ini);;All files (*)") },
            [this](const QStringList &files) { m_jobFile->setText(files.constFirst()); });
    });
    connect(m_start, &QPushButton::clicked, this, &WorkloadPanel::start);
    connect(m_stop, &QPushButton::clicked, this, &WorkloadPanel::stop);
    connect(m_createLab, &QPushButton::clicked, this, &WorkloadPanel::createLabDeviceRequested);
    connect(m_removeLab, &QPushButton::clicked, this, &WorkloadPanel::removeLabDeviceRequested);
}

// Until the user picks a template, it follows the target: writes only on the lab device (empty, made for this),
// reads on every other device, which may hold data. The write guard still decides at Start.
void WorkloadPanel::proposeTemplate()
{
    if (m_templatePicked || isRunning())
        return;
    const QString device = currentDevice();
    const bool lab = !device.isEmpty() && device == m_lab.device;
    const QList<FioJob> &templates = fioTemplates();
    const auto proposed = std::find_if(templates.cbegin(), templates.cend(), [lab](const FioJob &job) {
        return lab ? job.id == defaultLabTemplate : !job.rw.contains(QLatin1String("write"));
    });
    if (proposed != templates.cend())
        selectData(m_template, proposed->id);
}

void WorkloadPanel::loadTemplate(int index)
{
    const QString id = m_template->itemData(index).toString();
    const bool custom = id == CustomTemplateId;
    m_jobFile->setEnabled(custom);
    m_browse->setEnabled(custom);
    // The job file's row only for a job file: one row less for the dock at 1280x720.
    if (auto *form = qobject_cast<QFormLayout *>(m_jobFile->parentWidget()->layout())) {
        for (int row = 0; row < form->rowCount(); ++row) {
            QLayoutItem *field = form->itemAt(row, QFormLayout::FieldRole);
            if (field && field->layout() && field->layout()->indexOf(m_jobFile) >= 0)
                form->setRowVisible(row, custom);
        }
    }
    for (QWidget *w :
        std::initializer_list<QWidget *> { m_rw, m_bs, m_iodepth, m_numjobs, m_runtime, m_engine, m_batching })
        w->setEnabled(!custom);
    if (const FioJob *job = fioTemplate(id)) {
        m_loadingTemplate = true; // one command-line update for the whole template
        m_rw->setCurrentText(job->rw);
        m_bs->setText(job->bs);
        m_iodepth->setValue(job->iodepth);
        m_numjobs->setValue(job->numjobs);
        m_runtime->setValue(job->runtimeSeconds);
        m_engine->setCurrentText(job->ioengine);
        m_batching->setChecked(job->batching);
        m_template->setToolTip(job->why);
        m_loadingTemplate = false;
    }
    updateCommandLine();
}

FioJob WorkloadPanel::currentJob() const
{
    const QString id = m_template->currentData().toString();
    FioJob job;
    if (id == CustomTemplateId) {
        job.id = CustomTemplateId;
        job.title = m_jobFile->text();
        job.jobFile = m_jobFile->text();
        return job;
    }
    if (const FioJob *t = fioTemplate(id))
        job = *t;
    job.rw = m_rw->currentText();
    job.bs = m_bs->text().trimmed();
    job.iodepth = m_iodepth->value();
    job.numjobs = m_numjobs->value();
    job.runtimeSeconds = m_runtime->value();
    job.ioengine = m_engine->currentText().trimmed();
    job.batching = m_batching->isChecked();
    return job;
}

QString WorkloadPanel::currentDevice() const
{
    return m_device->currentData().toString();
}

QString WorkloadPanel::commandLine() const
{
    return m_command->text();
}

void WorkloadPanel::updateCommandLine()
{
    if (m_loadingTemplate)
        return;
    static const QString fio = [] {
        const auto found = FioRun::findFio();
        return found ? found.value() : QStringLiteral("fio");
    }();
    const QString device = currentDevice();
    const FioJob job = currentJob();
    m_command->setText(
        fioCommandLine(fio, job, device.isEmpty() ? QStringLiteral("/dev/DEV") : QStringLiteral("/dev/") + device));
    m_command->setCursorPosition(0);
    const Status valid = validateFioJob(job);
    m_command->setToolTip(valid ? m_command->text() : valid.errorMessage());
    updateButtons();
}

bool WorkloadPanel::selectTemplate(const QString &id)
{
    const bool found = selectData(m_template, id);
    m_templatePicked = m_templatePicked || found; // chosen, as in the combo: it stays when the target changes
    return found;
}

bool WorkloadPanel::selectDevice(const QString &name)
{
    return selectData(m_device, name);
}

void WorkloadPanel::showDeviceTextFromItsStart()
{
    // An editable combo's field shows the end of a text longer than itself ("evice, or create the lab device)" at
    // 1280x720): the start names the device.
    m_device->lineEdit()->setCursorPosition(0);
}

void WorkloadPanel::setSnapshot(const DeviceSnapshot &snapshot)
{
    m_snapshot = snapshot;
    QString keep = currentDevice();
    const QString lab = m_lab.device;
    if ((keep.isEmpty() || !snapshot.device(keep)) && !lab.isEmpty())
        keep = lab;
    const QSignalBlocker block(m_device);
    m_device->clear();
    // No device is chosen for the user unless it is the lab device: a workload goes where they decide.
    m_device->addItem(tr("(choose a device, or create the lab device)"), QString());
    for (const BlockDevice &d : snapshot.devices) {
        QString text = d.name;
        if (d.name == lab)
            text += QStringLiteral("  ") + tr("(lab device)");
        else if (const MultipathMap *map = snapshot.map(d.name))
            text += QStringLiteral("  (%1)").arg(map->name);
        if (d.sizeBytes > 0)
            text += QStringLiteral("  ") + formatSize(d.sizeBytes); // "16 MiB", not "0.0 GiB"
        m_device->addItem(text, d.name);
    }
    if (!selectDevice(keep) && !lab.isEmpty())
        selectDevice(lab);
    showDeviceTextFromItsStart();
    proposeTemplate(); // the combo's signals were blocked
    updateCommandLine();
    updateLabButtons();
}

void WorkloadPanel::setLabState(const LabDeviceState &state)
{
    const bool newDevice = state.device != m_lab.device;
    // The lab device went away (removed): it is nobody's target any more, its loop node stays behind at 0 B with no
    // backing file; nothing is chosen until the user chooses.
    if (newDevice && !m_lab.device.isEmpty() && currentDevice() == m_lab.device && !isRunning())
        m_device->setCurrentIndex(0);
    m_lab = state;
    if (newDevice && !m_snapshot.devices.isEmpty())
        setSnapshot(m_snapshot); // the "(lab device)" mark and the default target
    updateLabButtons();
}

void WorkloadPanel::setStatsView(LiveStatsView *view)
{
    m_statsView = view;
}

bool WorkloadPanel::canCreateLabDevice() const
{
    return m_createLab->isEnabled();
}

void WorkloadPanel::updateLabButtons()
{
    // A captured system's devices are another machine's: nothing here may create or run against them. A remote
    // host's capture is its agent's to act on (the window sends lab.create there).
    const QString why = m_actsOnHost ? m_lab.whyNot : tr("a captured system is read-only");
    const bool exists = !m_lab.device.isEmpty();
    m_createLab->setEnabled(why.isEmpty() && !exists && !m_lab.busy);
    m_createLab->setToolTip(why.isEmpty() ? tr("A loop device with direct I/O over a 1 GiB sparse file, "
                                               "removed when the window closes: the safe target")
                                          : why);
    m_removeLab->setEnabled(exists && !m_lab.busy && !isRunning());
}

// A device of 0 B (a loop node without a backing file, a drive without a medium) has nothing to run on. Not the lab
// device the window reports: the window made it with its size, and a scan can see the loop node before its backing
// file is attached.
bool WorkloadPanel::nothingToRunOn(const QString &device) const
{
    const BlockDevice *target = m_snapshot.device(device);
    return target && target->sizeBytes <= 0 && device != m_lab.device;
}

void WorkloadPanel::updateButtons()
{
    const bool running = isRunning();
    const bool empty = nothingToRunOn(currentDevice());
    const bool valid = bool(validateFioJob(currentJob())) && !currentDevice().isEmpty() && !empty;
    const bool here = m_actsOnHost;
    m_start->setEnabled(here && !running && !m_checking && valid);
    if (!here)
        m_start->setToolTip(tr("A captured system is read-only: workloads run on this machine's own devices"));
    else if (empty)
        m_start->setToolTip(tr("/dev/%1 is 0 B: nothing to run on").arg(currentDevice()));
    else if (currentDevice().isEmpty())
        m_start->setToolTip(tr("Choose a device first"));
    else
        m_start->setToolTip(QString());
    m_stop->setEnabled(running);
    if (m_offersBox)
        m_offersBox->setEnabled(!running && !m_checking);
    m_template->setEnabled(!running);
    m_device->setEnabled(!running);
    if (m_removeLab)
        m_removeLab->setEnabled(!m_lab.device.isEmpty() && !m_lab.busy && !running);
}

void WorkloadPanel::setRuntimeSeconds(int seconds)
{
    m_runtime->setValue(seconds);
}

void WorkloadPanel::setRecording(const QString &path)
{
    m_record->setChecked(!path.isEmpty());
    m_recordPath->setText(path);
}

bool WorkloadPanel::isRunning() const
{
    return m_runs->isRunning();
}

QString WorkloadPanel::startLabel() const
{
    return m_hostName.isEmpty() ? QStringLiteral("fio start: %1").arg(m_runJobId)
                                : QStringLiteral("fio start: %1 on %2").arg(m_runJobId, m_hostName);
}

} // namespace dmtune
