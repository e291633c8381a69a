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

const QString customId = QStringLiteral("custom");
// On the lab device: seed 002's workload, the one whose merges a map loses and queue_depth 2 brings back.
const QString defaultLabTemplate = QStringLiteral("seq-write-4k-64jobs");

QString rateText(double v)
{
    return v >= 1e6 ? QString::number(v / 1e6, 'f', 2) + u'M'
        : v >= 1e3  ? QString::number(v / 1e3, 'f', 1) + u'k'
                    : QString::number(v, 'f', 0);
}

QString latencyText(double ns)
{
    return ns >= 1e6 ? QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'f', 2)
                     : QStringLiteral("%1 us").arg(ns / 1e3, 0, 'f', 0);
}

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
    m_template->addItem(tr("Custom job file..."), customId);
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
    const bool custom = id == customId;
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
    if (id == customId) {
        job.id = customId;
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

void WorkloadPanel::start()
{
    const QString device = currentDevice();
    const FioJob job = currentJob();
    if (isRunning() || m_checking || device.isEmpty())
        return;
    if (nothingToRunOn(device))
        return setStatus(tr("/dev/%1 is 0 B: nothing to run on").arg(device));
    if (!m_actsOnHost)
        return setStatus(tr("A captured system is read-only: workloads run on this machine's own devices"));
    if (const Status valid = validateFioJob(job); !valid)
        return setStatus(valid.errorMessage());
    // Frozen here: the job, the device and the recording as the user saw them when pressing Start.
    WorkloadExtras extras;
    if (m_record->isChecked()) {
        extras.recordPath = m_recordPath->text().trimmed();
        if (extras.recordPath.isEmpty())
            extras.recordPath = defaultRecordPath(job);
    }
    // Never a silent overwrite, never through a link (util/atomicfile.h): an existing file is asked about.
    if (!extras.recordPath.isEmpty()) {
        const QString problem = outputFileProblem(extras.recordPath, ExistingFile::Refuse);
        if (!problem.isEmpty() && !outputFileOnlyExists(extras.recordPath))
            return setStatus(problem);
        if (!problem.isEmpty() && m_replaceAnswered != extras.recordPath)
            return askToReplaceRecording(extras.recordPath);
        extras.replaceRecording = !problem.isEmpty();
    }
    m_replaceAnswered.clear();
    // A recording made as root carries the latency histograms of the devices it records (the probe costs under a
    // microsecond per I/O, only while the run records); without the probe it goes on and says why.
    if (!extras.recordPath.isEmpty() && m_host->actsAsRoot())
        extras.latency = QString::fromLatin1(WorkloadLatencyWanted);
    // The core's one check, the workload.start plan (a job file read by fio --showcmd and frozen, for a write the
    // guard, which holds the device O_EXCL from its look on), made by whoever runs it: this process (a job, never
    // the window's thread) or the host's agent, which gets a job file's content as read here once.
    const Result<QJsonObject> asked = m_runs->startRequest(job, device, extras);
    if (!asked)
        return setStatus(asked.errorMessage());
    Q_EMIT targetChosen(device); // charted (with a map's paths) from now on
    m_runJob = job;
    m_runDevice = device;
    m_checking = true;
    updateButtons();
    setStatus(m_hostName.isEmpty() ? tr("Checking the job and /dev/%1...").arg(device)
                                   : tr("Checking the job and /dev/%1 on %2...").arg(device, m_hostName));
    m_runs->planner()->plan(
        QString::fromLatin1(WorkloadStartKind), asked.value(), this,
        [this, extras](const OperationPlan &plan) {
            m_checking = false;
            updateButtons();
            onPlanned(plan, extras);
        },
        [this](const QString &error) {
            m_checking = false;
            updateButtons();
            setStatus(error);
        });
}

void WorkloadPanel::onPlanned(const OperationPlan &plan, const WorkloadExtras &extras)
{
    if (!plan.refusals.isEmpty())
        return setStatus(plan.refusals.join(QLatin1String("; ")));
    if (!plan.needsAnswers())
        return startChecked(plan, acceptAll(plan), extras);
    setStatus(tr("Waiting for confirmation: /dev/%1 is not empty").arg(plan.target));
    // The dialog keeps the plan, and so its hold, while it is open; closing it lets go.
    m_confirm = new ConfirmWriteDialog(plan, this);
    m_confirm->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_confirm, &PlanDialog::answered, this, [this, plan, extras](const OperationAnswers &answers) {
        log(tr("confirmed: the data on /dev/%1 will be destroyed").arg(plan.target));
        startChecked(plan, answers, extras);
    });
    connect(m_confirm, &QDialog::rejected, this, [this] { setStatus(tr("Not started: not confirmed")); });
    m_confirm->open();
}

void WorkloadPanel::startChecked(
    const OperationPlan &plan, const OperationAnswers &answers, const WorkloadExtras &extras)
{
    // Started: checked again on the state then (the answers for this plan, the device and the job as planned); what
    // runs is the fresh plan's frozen job with its hold, on a thread the core owns or as a job of the host's agent.
    m_chart->clear();
    m_runDevicePath = QStringLiteral("/dev/") + plan.target;
    m_runJobId = plan.request.value(QLatin1String("job")).toObject().value(QLatin1String("id")).toString(customId);
    m_runRecordPath = extras.recordPath;
    m_runLatency = plan.request.contains(QLatin1String("latency"));
    m_runLatencyNoted = false;
    m_startShown = false;
    QString error;
    if (!m_runs->start(plan, answers, extras, &error))
        return setStatus(error);
    // The next Start records to a new file: a name typed here is followed by NAME-2, NAME-3... (empty: the default,
    // a fresh timestamped name every time).
    if (!extras.recordPath.isEmpty() && m_recordPath->text().trimmed() == extras.recordPath)
        m_recordPath->setText(nextFreshFilePath(extras.recordPath));
    setStatus(m_hostName.isEmpty() ? tr("Starting fio...") : tr("Starting fio on %1...").arg(m_hostName));
    updateButtons();
}

void WorkloadPanel::onRunEvent(const QJsonObject &event)
{
    const QString name = event.value(QLatin1String("event")).toString();
    if (name == QLatin1String("started")) {
        const double t = event.value(QLatin1String("t")).toDouble();
        QStringList argv;
        for (const QJsonValue &a : event.value(QLatin1String("argv")).toArray())
            argv << a.toString();
        if (!std::exchange(m_startShown, true)) {
            const QString label = startLabel();
            m_chart->addMarker(t, label);
            if (m_statsView)
                m_statsView->addMarker(t, label, MarkerKind::WorkloadStart);
        }
        // The frozen job's command line (the form may show another one by now).
        log(QStringLiteral("$ ") + event.value(QLatin1String("command")).toString());
        if (!m_runRecordPath.isEmpty())
            log(tr("recording to %1").arg(m_runRecordPath));
        showRecording(m_runRecordPath, true);
        if (m_runLatency && !m_runLatencyNoted) {
            QStringList devices;
            for (const QJsonValue &d : event.value(QLatin1String("devices")).toArray())
                devices << d.toString();
            log(tr("recording the latency histograms of %1 (block-layer probe)")
                    .arg(devices.join(QStringLiteral(", "))));
        }
        setStatus(m_hostName.isEmpty() ? tr("fio running on %1").arg(m_runDevicePath)
                                       : tr("fio running on %1 of %2").arg(m_runDevicePath, m_hostName));
        updateButtons();
        Q_EMIT fioStarted(argv);
    } else if (name == QLatin1String("progress")) {
        QList<FioRates> rates;
        for (const QJsonValue &r : event.value(QLatin1String("rates")).toArray())
            rates.append(fioRatesFromJson(r.toObject()));
        showProgress(event.value(QLatin1String("t")).toDouble(), rates);
    } else if (name == QLatin1String("output")) {
        log(event.value(QLatin1String("line")).toString());
    } else if (name == QLatin1String("recording-failed")) {
        log(tr("recording stopped: %1").arg(event.value(QLatin1String("message")).toString()));
    } else if (name == QLatin1String("note")) {
        m_runLatencyNoted = true;
        log(tr("recording without latency histograms: %1").arg(event.value(QLatin1String("reason")).toString()));
    } else if (name == QLatin1String("job")) { // a run that outlives the window: a job of the host's agent
        const QString job = event.value(QLatin1String("job")).toString();
        if (!event.value(QLatin1String("attached")).toBool()) {
            // Remembered for this host's later windows: offered again if this one is closed before the job ends.
            rememberJob(m_hostName, { job, m_runRecordPath, m_runJob.title, m_runDevice });
            showOffers({});
            log(tr("job %1 on %2 (it goes on if the connection is lost)").arg(job, m_hostName));
        } else {
            const bool first = std::exchange(m_adopting, false);
            log((first ? tr("job %1 on %2: attached") : tr("job %1 on %2: attached again")).arg(job, m_hostName));
            setStatus(
                (first ? tr("fio job %1 on %2 (%3 on %4): attached, its output and then its result come here")
                       : tr("fio job %1 on %2 (%3 on %4): attached again, its output and then its result come here"))
                    .arg(job, m_hostName, m_runJob.title, m_runDevice));
        }
        updateButtons();
    } else if (name == QLatin1String("detached")) {
        const QString message = event.value(QLatin1String("message")).toString();
        setStatus(message);
        log(message);
    }
}

void WorkloadPanel::onRunResult(const OperationResult &result)
{
    if (!result.ok) {
        setStatus(m_hostName.isEmpty() ? tr("fio failed: %1").arg(result.error)
                                       : tr("fio on %1: %2").arg(m_hostName, result.error));
        log(tr("failed: %1").arg(result.error));
        m_right->setCurrentWidget(m_log); // fio's own words on why
        showRecording({}, false);
        updateButtons();
        return;
    }
    QJsonObject summary = result.details;
    summary.remove(QStringLiteral("window_from"));
    summary.remove(QStringLiteral("window_to"));
    summary.remove(QStringLiteral("latency_histograms"));
    const bool stopped = summary.value(QLatin1String("stopped")).toBool();
    const double seconds = summary.value(QLatin1String("seconds")).toDouble();
    const QDateTime started
        = QDateTime::fromString(summary.value(QLatin1String("started")).toString(), Qt::ISODateWithMs);
    const double endedAt = started.isValid() ? double(started.toMSecsSinceEpoch()) / 1000.0 + seconds
                                             : double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    const QString label = stopped ? QStringLiteral("fio stopped") : QStringLiteral("fio end");
    m_chart->addMarker(endedAt, label);
    if (m_statsView)
        m_statsView->addMarker(endedAt, label, MarkerKind::WorkloadStop);
    const QString took = QString::number(seconds, 'f', 1);
    if (m_hostName.isEmpty())
        setStatus((stopped ? tr("Stopped after %1 s") : tr("Done after %1 s")).arg(took));
    else
        setStatus((stopped ? tr("Stopped after %1 s on %2") : tr("Done after %1 s on %2")).arg(took, m_hostName));
    const QString recorded = summary.value(QLatin1String("recording")).toString();
    if (!recorded.isEmpty())
        log(tr("recorded to %1").arg(recorded));
    QList<FioRates> overall;
    for (const QJsonValue &v : summary.value(QLatin1String("fio")).toArray())
        overall.append(fioRatesFromJson(v.toObject()));
    showRunResult(overall, recorded);
    updateButtons();
    Q_EMIT runFinished(summary);
}

void WorkloadPanel::askToReplaceRecording(const QString &path)
{
    auto *box = new QMessageBox(QMessageBox::Question, tr("Replace the recording?"),
        tr("%1 exists. Replace it with this run's recording?").arg(path), QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("replaceRecordingQuestion"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *replace = box->addButton(tr("&Replace"), QMessageBox::AcceptRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::finished, this, [this, box, replace, path] {
        if (box->clickedButton() != replace) {
            setStatus(tr("Not started: %1 exists (give another file to record to)").arg(path));
            return;
        }
        m_replaceAnswered = path;
        start();
    });
    box->open();
}

QString WorkloadPanel::defaultRecordPath(const FioJob &job) const
{
    const QString dir = recordingsDirectory();
    QDir().mkpath(dir);
    return QStringLiteral("%1/%2-%3.dmrec")
        .arg(dir, QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")), job.id);
}

void WorkloadPanel::showOffers(const QList<JobOffer> &offers)
{
    m_offers = offers;
    // deleteLater: this may run inside the click of a button it removes.
    for (QWidget *row : m_offersBox->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly))
        row->deleteLater();
    const QDateTime now = QDateTime::currentDateTime();
    for (const JobOffer &offer : offers) {
        auto *row = new QWidget(m_offersBox);
        auto *layout = new QHBoxLayout(row);
        layout->setContentsMargins(0, 0, 0, 0);
        auto *text = new QLabel(jobOfferText(offer, m_hostName, now), row);
        text->setWordWrap(true);
        text->setToolTip(offer.remembered.recordPath.isEmpty()
                ? offer.job.command
                : tr("%1\nrecording to %2 here").arg(offer.job.command, offer.remembered.recordPath));
        layout->addWidget(text, 1);
        if (offer.action != JobOffer::Action::None) {
            auto *button
                = new QPushButton(offer.action == JobOffer::Action::Attach ? tr("Attach") : tr("Fetch result"), row);
            button->setObjectName(QStringLiteral("adopt-") + offer.job.id);
            connect(button, &QPushButton::clicked, this, [this, id = offer.job.id] { adoptJob(id); });
            layout->addWidget(button);
        }
        m_offersBox->layout()->addWidget(row);
    }
    if (auto *form = qobject_cast<QFormLayout *>(m_offersBox->parentWidget()->layout()))
        form->setRowVisible(m_offersBox, !offers.isEmpty());
    updateButtons();
}

void WorkloadPanel::adoptJob(const QString &jobId)
{
    const auto it = std::find_if(m_offers.cbegin(), m_offers.cend(),
        [&](const JobOffer &o) { return o.job.id == jobId && o.action != JobOffer::Action::None; });
    if (it == m_offers.cend() || isRunning() || m_checking)
        return;
    // A copy: showOffers() below replaces the list it points into.
    const JobOffer offer = *it; // NOLINT(performance-unnecessary-copy-initialization)
    // The file chosen when it started, unless something is there now: then a fresh name beside it, said so.
    QString recordPath = offer.remembered.recordPath;
    if (!recordPath.isEmpty()) {
        const QString fresh = unusedFilePath(recordPath);
        if (fresh.isEmpty())
            return setStatus(
                tr("%1 and its numbered neighbours exist: move them to fetch job %2").arg(recordPath, jobId));
        if (fresh != recordPath)
            log(tr("%1 exists here now (not written over): job %2's recording goes to %3")
                    .arg(recordPath, jobId, fresh));
        recordPath = fresh;
    }
    const RunCommandParts parts = runCommandParts(offer.job.command);
    const FioJob *known = fioTemplate(parts.workload);
    m_runJob = known ? *known : FioJob {};
    if (!offer.remembered.title.isEmpty())
        m_runJob.title = offer.remembered.title;
    m_runDevice = offer.remembered.device.isEmpty() ? parts.device : offer.remembered.device;
    QString error;
    if (!m_runs->attach(jobId, recordPath, &error))
        return setStatus(error);
    m_adopting = true;
    m_runDevicePath = QStringLiteral("/dev/") + m_runDevice;
    m_runJobId = m_runJob.id.isEmpty() ? parts.workload : m_runJob.id;
    m_runRecordPath = recordPath;
    m_runLatency = false;
    showOffers({});
    m_chart->clear();
    // Its start as the agent listed it (a job of `dmtunectl run` reports no start event).
    m_startShown = offer.job.started.isValid();
    if (m_startShown)
        m_chart->addMarker(double(offer.job.started.toMSecsSinceEpoch()) / 1000.0, startLabel());
    log(QStringLiteral("$ dmtunectl --host %1 job attach %2   (%3)").arg(m_hostName, jobId, offer.job.command));
    if (!recordPath.isEmpty())
        log(tr("its recording comes to %1").arg(recordPath));
    if (offer.action == JobOffer::Action::Attach) {
        Q_EMIT targetChosen(m_runDevice);
        setStatus(tr("Attaching to fio job %1 on %2...").arg(jobId, m_hostName));
    } else {
        setStatus(tr("Fetching the result of fio job %1 from %2...").arg(jobId, m_hostName));
    }
    updateButtons();
}

void WorkloadPanel::stop()
{
    m_runs->stop();
    setStatus(m_hostName.isEmpty()
            ? tr("Stopping fio (SIGINT; SIGKILL after %1 s)...").arg(FioRun::DefaultGraceMs / 1000)
            : tr("Stopping fio on %1 (SIGINT to its job)...").arg(m_hostName));
}

void WorkloadPanel::showProgress(double epochSeconds, const QList<FioRates> &rates)
{
    // fio's final object comes after the jobs stopped: no I/O time since the last one, nothing to show.
    if (rates.isEmpty() || rates.first().seconds <= 0)
        return;
    m_chart->addRates(epochSeconds, rates);
    m_readout->setText(readoutLine(rates));
    m_readout->setToolTip(m_readout->text());
    Q_EMIT progressShown(epochSeconds);
}

QString WorkloadPanel::readoutLine(const QList<FioRates> &rates)
{
    double iops = 0, bytes = 0;
    for (const FioRates &r : rates) {
        iops += r.iops();
        bytes += r.bytesPerSecond();
    }
    const FioLatency clat = rates.isEmpty() ? FioLatency() : rates.first().clat;
    return tr("IOPS %1   %2 MiB/s   clat p50 %3   p99 %4")
        .arg(rateText(iops), QString::number(bytes / (1024.0 * 1024.0), 'f', 1), latencyText(clat.p50Ns),
            latencyText(clat.p99Ns));
}

void WorkloadPanel::showRunResult(const QList<FioRates> &overall, const QString &recordedTo)
{
    for (const FioRates &r : overall)
        log(tr("%1: read %2 IOPS, write %3 IOPS, %4 MiB/s, clat p50 %5 p99 %6")
                .arg(r.name, rateText(r.readIops), rateText(r.writeIops),
                    QString::number(r.bytesPerSecond() / (1024.0 * 1024.0), 'f', 1), latencyText(r.clat.p50Ns),
                    latencyText(r.clat.p99Ns)));
    // The readout ends on the whole run, as the summary says it, not on fio's last second.
    if (!overall.isEmpty())
        m_readout->setText(readoutLine(overall) + tr("   (whole run)"));
    m_readout->setToolTip(m_readout->text());
    // The summary is what one looks for after a run: in view even when the pane was scrolled up.
    m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
    showRecording(recordedTo, false);
}

void WorkloadPanel::showRecording(const QString &path, bool running)
{
    m_recorded->setVisible(!path.isEmpty());
    if (path.isEmpty())
        return;
    const QString name = QFileInfo(path).fileName();
    m_recorded->setText(running ? tr("recording to %1").arg(name) : tr("recorded to %1").arg(name));
    m_recorded->setToolTip(path);
}

QString WorkloadPanel::recordingText() const
{
    return m_recorded->isHidden() ? QString() : m_recorded->text();
}

void WorkloadPanel::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setToolTip(text);
}

ConfirmWriteDialog *WorkloadPanel::pendingConfirmation() const
{
    return m_confirm;
}

QString WorkloadPanel::statusText() const
{
    return m_status->text();
}

QString WorkloadPanel::readoutText() const
{
    return m_readout->text();
}

void WorkloadPanel::log(const QString &line)
{
    m_log->appendPlainText(line);
}

} // namespace dmtune
