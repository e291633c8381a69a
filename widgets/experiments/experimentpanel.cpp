#include "widgets/experiments/experimentpanel.h"

#include "core/host/hostsession.h"

#include "core/experiments/sweeprunner.h"
#include "core/host/hostsession.h"
#include "core/ops/hostcontext.h"
#include "core/ops/operationrunner.h"
#include "core/recordings/recordingsfolder.h"
#include "widgets/devices/devicelabels.h"
#include "widgets/experiments/sweepchart.h"
#include "widgets/experiments/sweepresultsmodel.h"
#include "widgets/filedialogs.h"
#include "widgets/ops/plandialog.h"
#include "widgets/reports/sweepreport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace dmtune {

namespace {

QSpinBox *spin(int minimum, int maximum, int value, const QString &suffix)
{
    auto *s = new QSpinBox;
    s->setRange(minimum, maximum);
    s->setValue(value);
    s->setSuffix(suffix);
    return s;
}

} // namespace

ExperimentPanel::ExperimentPanel(std::shared_ptr<const HostContext> host, QWidget *parent)
    : QWidget(parent)
    , m_host(std::move(host))
    , m_root(m_host->sysfs())
    , m_model(new SweepResultsModel(this))
    , m_operations(new OperationRunner(this))
{
    m_operations->setEnvironment(m_host->environment());
    m_service = m_operations;
    buildUi();
    updatePlaceholders();
    updateButtons();
}

ExperimentPanel::ExperimentPanel(HostSession *host, QWidget *parent)
    : ExperimentPanel(host->context(), parent)
{
    m_ownService = host->newOperationService(this);
    setOperationService(m_ownService, host->name());
}

ExperimentPanel::~ExperimentPanel()
{
    delete m_ownService.data();
    // A running sweep stops here and its values go back before the window is gone: the service deletes its
    // activity on the sweep's thread (fio stopped, the values restored) and waits for it.
    delete m_operations;
    m_operations = nullptr;
}

void ExperimentPanel::buildUi()
{
    auto *form = new QFormLayout;
    m_device = new QComboBox;
    m_device->setObjectName(QStringLiteral("sweepDevice"));
    form->addRow(tr("Device:"), m_device);
    m_param1 = new QLineEdit;
    m_param1->setObjectName(QStringLiteral("sweepParam1"));
    form->addRow(tr("Parameter:"), m_param1);
    m_param2 = new QLineEdit;
    m_param2->setObjectName(QStringLiteral("sweepParam2"));
    form->addRow(tr("Second parameter:"), m_param2);
    connect(m_device, &QComboBox::currentIndexChanged, this, &ExperimentPanel::updatePlaceholders);
    m_withPaths = new QCheckBox(tr("Write the values on a map's paths too"));
    form->addRow(QString(), m_withPaths);
    m_templates = new QListWidget;
    m_templates->setObjectName(QStringLiteral("sweepTemplates"));
    for (const FioJob &job : fioTemplates()) {
        auto *item = new QListWidgetItem(QStringLiteral("%1 — %2").arg(job.id, job.title), m_templates);
        item->setData(Qt::UserRole, job.id);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    m_templates->setMaximumHeight(110);
    form->addRow(tr("Workloads:"), m_templates);
    auto *jobRow = new QHBoxLayout;
    m_jobFiles = new QLineEdit;
    m_jobFiles->setPlaceholderText(tr("fio job files, separated by ';'"));
    m_browseJobFiles = new QPushButton(tr("Browse…"));
    connect(m_browseJobFiles, &QPushButton::clicked, this, [this] {
        filedialogs::open(this,
            { QStringLiteral("jobfiles"), tr("fio job files"), QDir::homePath(),
                tr("fio job files (*.fio *.ini *.job);;All files (*)"), QFileDialog::ExistingFiles },
            [this](const QStringList &files) { m_jobFiles->setText(files.join(QLatin1Char(';'))); });
    });
    jobRow->addWidget(m_jobFiles, 1);
    jobRow->addWidget(m_browseJobFiles);
    form->addRow(tr("Job files:"), jobRow);
    auto *numbers = new QHBoxLayout;
    m_repeats = spin(1, MaxSweepRepeats, 2, QString());
    m_repeats->setToolTip(tr("Runs per point: the results give the mean and the spread (sample standard deviation)"));
    m_runtime = spin(0, 3600, 5, tr(" s"));
    m_runtime->setSpecialValueText(tr("template's"));
    m_runtime->setToolTip(tr("Seconds of I/O per run, for templates"));
    m_warmup = spin(0, 600, 0, tr(" s"));
    m_warmup->setToolTip(tr("fio's ramp_time, for templates: I/O that is not measured"));
    m_settle = spin(0, 600, 1, tr(" s"));
    m_settle->setToolTip(tr("Seconds between writing a point's values and starting fio"));
    for (const auto &[label, box] : { std::pair { tr("repeats"), m_repeats }, std::pair { tr("runtime"), m_runtime },
             std::pair { tr("warm-up"), m_warmup }, std::pair { tr("settle"), m_settle } }) {
        numbers->addWidget(new QLabel(label));
        numbers->addWidget(box);
    }
    numbers->addStretch(1);
    form->addRow(tr("Each point:"), numbers);
    auto *recordRow = new QHBoxLayout;
    m_record = new QCheckBox(tr("Record to"));
    m_record->setChecked(true);
    m_recordDir = new QLineEdit;
    m_recordDir->setPlaceholderText(tr("a new folder under %1").arg(recordingsDirectory()));
    recordRow->addWidget(m_record);
    recordRow->addWidget(m_recordDir, 1);
    form->addRow(tr("Recordings:"), recordRow);

    auto *buttons = new QVBoxLayout;
    m_run = new QPushButton(tr("&Run sweep…"));
    m_run->setObjectName(QStringLiteral("sweepRun"));
    m_stop = new QPushButton(tr("S&top"));
    m_open = new QPushButton(tr("&Open results…"));
    connect(m_run, &QPushButton::clicked, this, &ExperimentPanel::run);
    connect(m_stop, &QPushButton::clicked, this, &ExperimentPanel::stop);
    connect(m_open, &QPushButton::clicked, this, [this] {
        filedialogs::open(this,
            { QStringLiteral("sweeps"), tr("A sweep's folder"), recordingsDirectory(), QString(),
                QFileDialog::Directory },
            [this](const QStringList &dirs) { openResults(dirs.constFirst()); });
    });
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_open);
    m_report = new QPushButton(tr("Re&port…"));
    m_report->setToolTip(tr("The sweep's report, HTML or PDF: results per point, charts, each point's configuration"));
    connect(m_report, &QPushButton::clicked, this, [this] {
        // In the sweep's own folder, beside its recordings (no purpose: not remembered across sweeps).
        filedialogs::open(this,
            { QString(), tr("Sweep report"), QDir(m_shownDir).filePath(QStringLiteral("report.html")),
                tr("HTML (*.html);;PDF (*.pdf)"), QFileDialog::AnyFile, QFileDialog::AcceptSave },
            [this](const QStringList &files) {
                const QString &path = files.constFirst();
                const Status written = writeReport(path, ExistingFile::Replace); // the dialog asked before replacing
                setStatus(written ? tr("Report written to %1").arg(path) : written.errorMessage());
            });
    });
    buttons->addWidget(m_report);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_log = new QPlainTextEdit;
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setMinimumHeight(2 * m_log->fontMetrics().height());
    m_log->setPlaceholderText(tr("Each point's writes, read back, and each run's numbers appear here."));

    // Two pages, each with the tab's whole room (side by side at 1280 px the form was cut on the
    // right and the chart collapsed to an axis): the sweep's form beside its buttons, and its results (the chart
    // beside the log, the table under both). The form scrolls only vertically and only when the tab is short.
    auto *formBox = new QWidget;
    auto *formColumn = new QVBoxLayout(formBox); // the rows at their height, the room left under them
    formColumn->addLayout(form);
    formColumn->addStretch(1);
    auto *formScroll = new QScrollArea;
    formScroll->setWidget(formBox);
    formScroll->setWidgetResizable(true);
    formScroll->setFrameShape(QFrame::NoFrame);
    // No minimum width of its own: beside the Explain dock at 1280 px the tree keeps its width and the form
    // scrolls instead (its page is wide enough for it whole otherwise).
    auto *side = new QVBoxLayout;
    side->addLayout(buttons);
    side->addStretch(1);
    auto *setupPage = new QWidget;
    auto *setupLayout = new QHBoxLayout(setupPage);
    setupLayout->addWidget(formScroll, 1);
    setupLayout->addLayout(side);

    auto *pick = new QHBoxLayout;
    m_resultDevice = new QComboBox;
    m_resultDevice->setObjectName(QStringLiteral("sweepResultDevice"));
    m_resultDevice->setToolTip(tr("Whose iostat numbers the table and the chart show: the device or one of its paths"));
    m_metric = new QComboBox;
    m_metric->setObjectName(QStringLiteral("sweepMetric"));
    for (const SweepMetric &m : sweepMetrics())
        m_metric->addItem(m.label, m.key);
    m_metric->setCurrentIndex(m_metric->findData(QStringLiteral("wrqm")));
    pick->addWidget(new QLabel(tr("Results of:")));
    pick->addWidget(m_resultDevice);
    pick->addSpacing(12);
    pick->addWidget(new QLabel(tr("Chart:")));
    pick->addWidget(m_metric);
    pick->addStretch(1);
    connect(m_resultDevice, &QComboBox::currentIndexChanged, this, [this] {
        m_model->setDevice(m_resultDevice->currentText());
        for (int c = 0; c < m_model->columnCount(); ++c)
            m_table->setColumnHidden(c, m_model->isZeroColumn(c));
        updateChart();
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, &ExperimentPanel::updateChart);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("sweepResults"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Rows one line high, and the header and two points at least, however small the window: a clipped table
    // hides the results (two, not three: the window's minimum height has to fit a 720-pixel screen).
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    // (The header has no sections yet, so no height of its own: a line and its margins.)
    m_table->setMinimumHeight(m_table->fontMetrics().height() + 12 + 2 * m_table->verticalHeader()->defaultSectionSize()
        + 2 * m_table->frameWidth() + m_table->horizontalScrollBar()->sizeHint().height() + 4);
    m_chart = new SweepChart;

    auto *chartAndLog = new QSplitter(Qt::Horizontal);
    chartAndLog->addWidget(m_chart);
    chartAndLog->addWidget(m_log);
    chartAndLog->setStretchFactor(0, 2);
    chartAndLog->setStretchFactor(1, 1);
    chartAndLog->setChildrenCollapsible(false);
    auto *resultsPage = new QWidget;
    auto *resultsLayout = new QVBoxLayout(resultsPage);
    resultsLayout->addLayout(pick);
    resultsLayout->addWidget(chartAndLog, 3);
    resultsLayout->addWidget(m_table, 1);

    m_pages = new QTabWidget;
    m_pages->setObjectName(QStringLiteral("sweepPages"));
    m_pages->setDocumentMode(true);
    m_pages->addTab(setupPage, tr("S&weep"));
    m_pages->addTab(resultsPage, tr("Res&ults and log"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_pages, 1);
    layout->addWidget(m_status); // under both pages: what the sweep does now
}

void ExperimentPanel::showPage(Page page)
{
    m_pages->setCurrentIndex(page == Page::Sweep ? 0 : 1);
}

ExperimentPanel::Page ExperimentPanel::currentPage() const
{
    return m_pages->currentIndex() == 0 ? Page::Sweep : Page::Results;
}

void ExperimentPanel::setSnapshot(const DeviceSnapshot &snapshot)
{
    m_snapshot = snapshot;
    const QString keep = m_device->currentData().toString();
    const QSignalBlocker block(m_device);
    m_device->clear();
    m_device->addItem(tr("(choose a device)"), QString());
    for (const BlockDevice &d : snapshot.devices) {
        QString text = d.name;
        if (const MultipathMap *map = snapshot.map(d.name))
            text += QStringLiteral("  (%1)").arg(map->name);
        if (d.sizeBytes > 0)
            text += QStringLiteral("  ") + formatSize(d.sizeBytes);
        m_device->addItem(text, d.name);
    }
    selectDevice(keep);
    updatePlaceholders();
}

void ExperimentPanel::updatePlaceholders()
{
    // Examples the device has, by what the snapshot knows of it: queue_depth on a SCSI disk only (a loop
    // device, a virtio disk, a map have no device/queue_depth), nr_requests where a blk-mq queue offers
    // schedulers, read_ahead_kb and max_sectors_kb on every queue.
    QStringList examples;
    const BlockDevice *device = m_snapshot.device(currentDevice());
    if (device && device->kind == DeviceKind::Scsi)
        examples << QStringLiteral("queue_depth=2,8,32");
    if (!device || !device->schedulers.isEmpty())
        examples << QStringLiteral("nr_requests=64,256");
    examples << QStringLiteral("read_ahead_kb=128,1024,4096") << QStringLiteral("max_sectors_kb=128,512");
    m_param1->setPlaceholderText(examples.at(0));
    m_param2->setPlaceholderText(tr("optional, e.g. %1").arg(examples.at(1)));
}

bool ExperimentPanel::selectDevice(const QString &name)
{
    const int i = m_device->findData(name);
    if (i < 0)
        return false;
    m_device->setCurrentIndex(i);
    return true;
}

QString ExperimentPanel::currentDevice() const
{
    return m_device->currentData().toString();
}

void ExperimentPanel::setParameters(const QString &first, const QString &second)
{
    m_param1->setText(first);
    m_param2->setText(second);
}

void ExperimentPanel::setWithPaths(bool on)
{
    m_withPaths->setChecked(on);
}

void ExperimentPanel::setWorkloads(const QStringList &templateIds, const QStringList &jobFiles)
{
    for (int i = 0; i < m_templates->count(); ++i) {
        QListWidgetItem *item = m_templates->item(i);
        item->setCheckState(templateIds.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
    }
    m_jobFiles->setText(jobFiles.join(QLatin1Char(';')));
}

void ExperimentPanel::setRepeats(int repeats)
{
    m_repeats->setValue(repeats);
}

void ExperimentPanel::setRuntimeSeconds(int seconds)
{
    m_runtime->setValue(seconds);
}

void ExperimentPanel::setSettleSeconds(int seconds)
{
    m_settle->setValue(seconds);
}

void ExperimentPanel::setOperationService(OperationService *service, const QString &host)
{
    if (m_operations && service != m_operations && !m_operations->isBusy()) {
        delete m_operations; // this machine's runner: another service plans and starts from now on
        m_operations = nullptr;
    }
    m_service = service;
    m_hostName = host;
    if (host.isEmpty())
        return;
    m_record->setChecked(false);
    m_record->setEnabled(false);
    m_recordDir->clear();
    m_recordDir->setEnabled(false);
    m_recordDir->setPlaceholderText(tr("not recorded: the results are in the table"));
    m_record->setToolTip(tr("A sweep on %1 is not recorded here; dmtunectl --host %1 sweep --record-dir DIR records "
                            "one there")
                             .arg(host));
    m_jobFiles->setPlaceholderText(tr("fio job files on %1 (paths there), separated by ';'").arg(host));
    m_browseJobFiles->setEnabled(false); // the chooser shows this machine's files
    m_browseJobFiles->setToolTip(tr("Type the job files' paths on %1").arg(host));
}

QString ExperimentPanel::devicePath(const QString &device) const
{
    const QString path = QStringLiteral("/dev/") + device;
    return m_hostName.isEmpty() ? path : m_hostName + QLatin1Char(':') + path;
}

void ExperimentPanel::setRecordDirectory(const QString &dir)
{
    if (!m_record->isEnabled())
        return; // a remote host's sweeps are not recorded
    m_record->setChecked(!dir.isEmpty());
    m_recordDir->setText(dir);
}

void ExperimentPanel::setRequest(const SweepRequest &request)
{
    showPage(Page::Sweep);
    selectDevice(request.device);
    const auto text = [](const SweepParameter &p) {
        return sweepParameterName(p.attribute) + QLatin1Char('=') + p.values.join(QLatin1Char(','));
    };
    setParameters(request.parameters.isEmpty() ? QString() : text(request.parameters.first()),
        request.parameters.size() > 1 ? text(request.parameters.at(1)) : QString());
    setWithPaths(request.withPaths);
    QStringList templates, jobFiles;
    int runtime = 0;
    for (const FioJob &job : request.workloads) {
        if (job.isCustom()) {
            jobFiles << job.jobFile;
        } else {
            templates << job.id;
            runtime = job.runtimeSeconds;
        }
    }
    setWorkloads(templates, jobFiles);
    setRepeats(request.repeats);
    setRuntimeSeconds(runtime);
    m_warmup->setValue(request.warmupSeconds);
    setSettleSeconds(request.settleSeconds);
    m_recordDir->clear(); // a new folder: the opened one already holds a sweep
}

Result<SweepRequest> ExperimentPanel::currentRequest() const
{
    SweepRequest request;
    request.device = currentDevice();
    if (request.device.isEmpty())
        return Result<SweepRequest>::failure(tr("Choose the device to sweep"));
    request.withPaths = m_withPaths->isChecked();
    for (const QLineEdit *edit : { m_param1, m_param2 }) {
        const QString text = edit->text().trimmed();
        if (text.isEmpty())
            continue;
        const auto parameter = parseSweepParameter(text);
        if (!parameter)
            return Result<SweepRequest>::failure(parameter.errorMessage());
        request.parameters.append(parameter.value());
    }
    if (request.parameters.isEmpty())
        return Result<SweepRequest>::failure(tr("Give a parameter and its values: queue_depth=2,8,32"));
    for (int i = 0; i < m_templates->count(); ++i) {
        const QListWidgetItem *item = m_templates->item(i);
        if (item->checkState() != Qt::Checked)
            continue;
        FioJob job = *fioTemplate(item->data(Qt::UserRole).toString());
        if (m_runtime->value() > 0)
            job.runtimeSeconds = m_runtime->value();
        request.workloads.append(job);
    }
    for (const QString &file : m_jobFiles->text().split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        FioJob job;
        job.id = QStringLiteral("custom");
        // A remote host's path is resolved there, never against this process's folder.
        if (!m_hostName.isEmpty() && !QDir::isAbsolutePath(file.trimmed()))
            return Result<SweepRequest>::failure(
                tr("A job file on %1 is given by its full path: %2").arg(m_hostName, file.trimmed()));
        job.jobFile = m_hostName.isEmpty() ? QFileInfo(file.trimmed()).absoluteFilePath() : file.trimmed();
        job.title = file.trimmed();
        request.workloads.append(job);
    }
    if (request.workloads.isEmpty())
        return Result<SweepRequest>::failure(tr("Check a workload template or give a job file"));
    request.repeats = m_repeats->value();
    request.warmupSeconds = m_warmup->value();
    request.settleSeconds = m_settle->value();
    if (m_record->isChecked()) {
        QString dir = m_recordDir->text().trimmed();
        if (dir.isEmpty())
            dir = QDir(recordingsDirectory())
                      .filePath(QStringLiteral("sweep-")
                          + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
        request.recordDir = QFileInfo(dir).absoluteFilePath();
    }
    if (const Status valid = validateSweepRequest(request); !valid)
        return Result<SweepRequest>::failure(valid.errorMessage());
    return request;
}

void ExperimentPanel::run()
{
    if (isBusy())
        return;
    if (!m_service)
        return setStatus(tr("Not connected to %1: nothing was planned").arg(m_hostName));
    if (m_hostName.isEmpty() && !m_root.isLive())
        return setStatus(tr("A captured system is read-only: sweeps run on this machine's own devices"));
    const auto request = currentRequest();
    if (!request)
        return setStatus(request.errorMessage());
    m_checking = true;
    updateButtons();
    setStatus(tr("Planning the sweep on %1...").arg(devicePath(request->device)));
    m_service->plan(
        QString::fromLatin1(ExperimentSweepKind), sweepRequestToJson(request.value()), this,
        [this](const OperationPlan &plan) {
            m_checking = false;
            updateButtons();
            onPlanned(plan);
        },
        [this](const QString &error) {
            m_checking = false;
            updateButtons();
            setStatus(error);
        });
}

void ExperimentPanel::onPlanned(const OperationPlan &plan)
{
    if (!plan.refusals.isEmpty())
        return setStatus(tr("Refused: %1").arg(plan.refusals.join(QLatin1String("; "))));
    // Every sweep shows its plan (the points, what is written, what is restored): it changes a live system for
    // minutes. A write to a device that holds data asks for its name.
    setStatus(tr("Waiting for confirmation of the plan"));
    m_confirm = new PlanDialog(plan, this);
    m_confirm->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_confirm, &PlanDialog::answered, this,
        [this, plan](const OperationAnswers &answers) { startChecked(plan, answers); });
    connect(m_confirm, &QDialog::rejected, this, [this] { setStatus(tr("Not started: not confirmed")); });
    m_confirm->open();
}

void ExperimentPanel::startChecked(const OperationPlan &plan, const OperationAnswers &answers)
{
    if (!m_service)
        return setStatus(tr("Not connected to %1: nothing was started").arg(m_hostName));
    m_began = false;
    setStatus(tr("Checking the plan again on %1...").arg(devicePath(plan.target)));
    m_sweep = m_service->start(
        plan, answers, this, [this](const QJsonObject &event) { onProgress(event); },
        [this](const OperationResult &result) { onResult(result); });
    updateButtons();
}

void ExperimentPanel::onProgress(const QJsonObject &event)
{
    const QString name = event.value(QLatin1String("event")).toString();
    if (name == QLatin1String("started")) {
        const auto request = sweepRequestFromJson(event.value(QLatin1String("request")).toObject());
        if (request)
            onStarted(request.value(), event.value(QLatin1String("points")).toInt());
    } else if (name == QLatin1String("point")) {
        log(tr("point %1/%2: %3")
                .arg(event.value(QLatin1String("point")).toInt())
                .arg(event.value(QLatin1String("points")).toInt())
                .arg(event.value(QLatin1String("label")).toString()));
        for (const QJsonValue &c : event.value(QLatin1String("changes")).toArray())
            log(QStringLiteral("  ") + c.toString());
    } else if (name == QLatin1String("run-started")) {
        setStatus(tr("Point %1 of %2, run %3: fio runs")
                      .arg(event.value(QLatin1String("point")).toInt())
                      .arg(m_points.size())
                      .arg(event.value(QLatin1String("repeat")).toInt()));
    } else if (name == QLatin1String("run")) {
        onRunFinished(sweepMeasurementFromJson(event.value(QLatin1String("run")).toObject()));
    }
}

void ExperimentPanel::onStarted(const SweepRequest &request, int points)
{
    showPage(Page::Results); // the log and the points as they come
    m_began = true;
    m_measurements.clear();
    m_points = sweepPoints(request);
    m_outcome = {};
    m_shownDir = request.recordDir;
    showResults(request, {});
    log(m_hostName.isEmpty() ? QStringLiteral("$ dmtunectl sweep %1 …").arg(request.device)
                             : QStringLiteral("$ dmtunectl --host %1 sweep %2 …").arg(m_hostName, request.device));
    if (!request.recordDir.isEmpty())
        log(tr("recording to %1").arg(request.recordDir));
    Q_EMIT targetChosen(request.device);
    setStatus(tr("Sweep started: %1 points x %2 runs").arg(points).arg(request.repeats));
    updateButtons();
}

void ExperimentPanel::onRunFinished(const SweepMeasurement &measurement)
{
    m_measurements.append(measurement);
    const QJsonObject device = measurement.devices.value(m_shown.device).toObject();
    log(tr("  run %1: %2 IOPS, %3 %wrqm %4, wareq-sz %5 kB")
            .arg(measurement.repeat)
            .arg(measurement.fio.value(QLatin1String("read_iops")).toDouble()
                    + measurement.fio.value(QLatin1String("write_iops")).toDouble(),
                0, 'f', 0)
            .arg(m_shown.device)
            .arg(device.value(QLatin1String("wrqm")).toDouble(), 0, 'f', 1)
            .arg(device.value(QLatin1String("wareq-sz")).toDouble(), 0, 'f', 1));
    showResults(m_shown, summarizeSweep(m_points, m_measurements));
}

void ExperimentPanel::onFinished(const SweepOutcome &outcome)
{
    m_outcome = outcome;
    showResults(m_shown, outcome.results);
    for (const QString &line : outcome.restored)
        log(tr("restored: %1").arg(line));
    for (const QString &e : outcome.restoreErrors)
        log(tr("NOT restored: %1").arg(e));
    if (!outcome.manifestError.isEmpty())
        log(tr("results not saved next to the recordings: %1").arg(outcome.manifestError));
    if (!outcome.status)
        setStatus(tr("The sweep failed: %1").arg(outcome.status.errorMessage()));
    else if (outcome.stopped)
        setStatus(tr("Stopped; %1 run(s) measured; the original values are back").arg(m_measurements.size()));
    else
        setStatus(tr("Done: %1 points measured; the original values are back").arg(outcome.results.size()));
    if (!outcome.restoreErrors.isEmpty())
        setStatus(tr("Not every value could be put back: %1").arg(outcome.restoreErrors.join(QLatin1String("; "))));
    updateButtons();
    Q_EMIT sweepFinished(outcome);
}

void ExperimentPanel::onResult(const OperationResult &result)
{
    m_sweep = nullptr; // the service deletes its handle
    const auto sweep = sweepOutcomeOf(result);
    if (!sweep) { // refused before it began (stale, not confirmed, no fio): nothing was written
        // Or a remote host's connection lost during the sweep: its agent stops it there and restores (its end).
        setStatus(m_began && !m_hostName.isEmpty()
                ? tr("%1: the sweep on %2 stops with the connection and puts the original values back there")
                      .arg(result.error, m_hostName)
                : result.error);
        updateButtons();
        return;
    }
    onFinished(sweep->outcome);
}

void ExperimentPanel::stop()
{
    if (!m_sweep)
        return;
    setStatus(tr("Stopping: fio, then the original values..."));
    m_sweep->cancel();
}

bool ExperimentPanel::openResults(const QString &dir)
{
    if (isRunning())
        return false;
    const auto manifest = readSweepManifestFile(dir);
    if (!manifest) {
        setStatus(manifest.errorMessage());
        return false;
    }
    m_outcome = manifest->outcome;
    m_shownDir = dir;
    setRequest(manifest->request);
    showResults(manifest->request, manifest->outcome.results);
    showPage(Page::Results);
    setStatus(
        tr("%1: %2 points of a sweep on %3%4")
            .arg(QDir::toNativeSeparators(dir))
            .arg(manifest->outcome.results.size())
            .arg(manifest->request.device,
                manifest->outcome.stopped      ? tr(" (stopped)")
                    : manifest->outcome.status ? QString()
                                               : tr(" (failed: %1)").arg(manifest->outcome.status.errorMessage())));
    return true;
}

void ExperimentPanel::showResults(const SweepRequest &request, const QList<SweepPointResult> &results)
{
    m_shown = request;
    m_model->setResults(request, results);
    const QString keep = m_resultDevice->currentText();
    {
        const QSignalBlocker block(m_resultDevice);
        m_resultDevice->clear();
        m_resultDevice->addItems(sweepDevices(request.device, results));
        const int i = m_resultDevice->findText(keep);
        m_resultDevice->setCurrentIndex(i >= 0 ? i : 0);
    }
    m_model->setDevice(m_resultDevice->currentText());
    for (int c = 0; c < m_model->columnCount(); ++c)
        m_table->setColumnHidden(c, m_model->isZeroColumn(c));
    updateChart();
    updateButtons();
}

void ExperimentPanel::updateChart()
{
    const SweepMetric *metric = sweepMetric(m_metric->currentData().toString());
    if (!metric)
        return;
    m_chart->setData(sweepChartData(m_shown, m_model->results(), *metric, m_resultDevice->currentText()));
}

void ExperimentPanel::updateButtons()
{
    m_run->setEnabled(!isBusy());
    m_stop->setEnabled(isRunning());
    m_open->setEnabled(!isBusy());
    m_report->setEnabled(!isBusy() && !m_shownDir.isEmpty() && m_model->rowCount() > 0);
}

Status ExperimentPanel::writeReport(const QString &path, ExistingFile existing)
{
    if (m_shownDir.isEmpty())
        return Status::failure(tr("A report needs a sweep with a folder: record it, or open one"));
    const Result<Report> report = buildSweepReport(m_shownDir);
    if (!report)
        return Status::failure(report.errorMessage());
    return dmtune::writeReport(report.value(), path, defaultReportPaper(), existing);
}

void ExperimentPanel::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString ExperimentPanel::statusText() const
{
    return m_status->text();
}

QString ExperimentPanel::logText() const
{
    return m_log->toPlainText();
}

void ExperimentPanel::log(const QString &line)
{
    m_log->appendPlainText(line);
}

} // namespace dmtune
