#include "widgets/presets/presetmanager.h"
#include "widgets/presets/newpresetdialog.h"

#include "widgets/filedialogs.h"
#include "widgets/messagestyle.h"

#include "core/dm/multipathchange.h"
#include "core/jobs/jobtracker.h"
#include "core/ops/operationrunner.h"
#include "core/ops/presetoperations.h"
#include "core/params/applyresult.h"
#include "core/params/tunable.h"
#include "core/params/tuningsession.h"
#include "core/presets/presetcapture.h"
#include "core/presets/presetexport.h"
#include "core/presets/presetjson.h"
#include "core/presets/presetkeeper.h"
#include "core/presets/presetresolution.h"
#include "core/presets/presetstore.h"
#include "widgets/ops/plandialog.h"
#include "widgets/presets/presetpreviewmodel.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace dmtune {

namespace {

constexpr int PathRole = Qt::UserRole + 1;

// JSON and exported text: fixed font, no wrapping (udev rules are long lines).
QPlainTextEdit *codeView(bool readOnly)
{
    auto *view = new QPlainTextEdit;
    view->setReadOnly(readOnly);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    return view;
}

// A tab page: the main widget, stretched, with a row of controls above or below it.
QWidget *page(QWidget *main, QLayout *controls, bool controlsAbove)
{
    auto *w = new QWidget;
    auto *layout = new QVBoxLayout(w);
    if (controlsAbove)
        layout->addLayout(controls);
    layout->addWidget(main, 1);
    if (!controlsAbove)
        layout->addLayout(controls);
    return w;
}
} // namespace

PresetManager::PresetManager(TuningSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_keeper(new PresetKeeper(this))
    , m_runner(new OperationRunner(this))
    , m_jobs(new JobTracker(this))
{
    updateEnvironment();
    buildUi();
    // A remote host's session runs its transactions through the host's agent: preset.apply is planned and run there.
    setOperationService(m_session->remoteService(), m_session->remoteHostName());
    connect(m_keeper, &PresetKeeper::reapplyRequested, this, &PresetManager::onReapply);
    // What a transaction found before it wrote is a first-seen value when none was read yet.
    connect(m_session, &TuningSession::finished, this, [this](const ApplyResult &result) {
        for (const ChangeOutcome &c : result.changes) {
            if (const BlockDevice *device = m_snapshot.device(c.device); device && !c.oldValue.isNull())
                m_firstSeen.record(*device, c.attribute, c.oldValue);
        }
    });
    reload();
}

PresetManager::~PresetManager()
{
    // Before the backends go: the runner cancels what has not begun and waits for a run that has (a map it
    // suspended is resumed, with the old or the new table, before the window goes).
    delete m_runner;
    m_runner = nullptr;
    delete m_jobs;
    m_jobs = nullptr;
}

void PresetManager::updateEnvironment()
{
    // The window's host (its device-mapper: the kernel's, as root on the machine itself; multipathd) and the
    // session's rule for the attribute writes: in-process as root, else pkexec dmtune-helper.
    OperationEnvironment env = m_session->operationEnvironment();
    if (m_dmFromFactory)
        env.dm = m_dm.get();
    m_runner->setEnvironment(env);
}

void PresetManager::setOperationService(OperationService *service, const QString &host)
{
    m_service = service ? service : m_runner;
    m_remoteHost = service ? host : QString();
}

void PresetManager::callService(const Call &call, const QJsonObject &request)
{
    // The answers of a service replaced since (a window made remote) are not this manager's any more.
    OperationService *service = m_service;
    const auto planned = [this, service, call](const OperationPlan &plan) {
        if (service == m_service)
            onPlanned(plan, call);
    };
    const auto failed = [this, service](const QString &error) {
        if (service == m_service)
            onPlanFailed(error);
    };
    if (call.purpose == Call::DryRun) {
        m_service->plan(QStringLiteral("preset.apply"), request, this, planned, failed);
        return;
    }
    m_service->runUnlessAsked(QStringLiteral("preset.apply"), request, this, planned, failed,
        [this, service, call](const OperationResult &result) {
            if (service == m_service)
                onOperationFinished(result, call);
        });
}

void PresetManager::runOnService(const OperationPlan &plan, const OperationAnswers &answers, const Call &call)
{
    OperationService *service = m_service;
    m_service->run(plan, answers, this, [this, service, call](const OperationResult &result) {
        if (service == m_service)
            onOperationFinished(result, call);
    });
}

void PresetManager::onPlanFailed(const QString &error)
{
    --m_operations;
    refreshPreview();
    setStatus(error);
}

bool PresetManager::canApply() const
{
    // A remote host's capture is read-only here; the host's agent decides (and refuses while not connected).
    return m_remoteHost.isEmpty() ? m_session->canApply() : !m_service->isBusy();
}

void PresetManager::setDeviceMapperFactory(DeviceMapperFactory factory)
{
    if (m_dm)
        m_retiredDms.push_back(std::move(m_dm)); // a job in flight may still use it
    m_dm = factory ? factory() : nullptr;
    m_dmFromFactory = true;
    updateEnvironment();
    refreshPreview();
}

bool PresetManager::isApplying() const
{
    return m_operations > 0 || pendingPlanDialog();
}

void PresetManager::buildUi()
{
    m_list = new QListWidget;
    m_list->setMinimumWidth(220);
    m_list->setWordWrap(true); // long names wrap instead of being cut
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setSpacing(2);
    auto *newButton = new QPushButton(tr("&New from selection…"));
    auto *importButton = new QPushButton(tr("&Import…"));
    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list, 1);
    leftLayout->addWidget(newButton);
    leftLayout->addWidget(importButton);

    m_about = new QLabel;
    m_about->setWordWrap(true);
    m_about->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_about->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    // The reasoning can be long: it scrolls rather than squeezing the preview.
    auto *aboutScroll = new QScrollArea;
    aboutScroll->setWidget(m_about);
    aboutScroll->setWidgetResizable(true);
    aboutScroll->setFrameShape(QFrame::NoFrame);
    aboutScroll->setMinimumHeight(fontMetrics().lineSpacing() * 6 + 4);
    aboutScroll->setMaximumHeight(fontMetrics().lineSpacing() * 9);

    // Preview / verify
    m_model = new PresetPreviewModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_apply = new QPushButton(tr("&Apply"));
    m_apply->setToolTip(tr("Write the rows that differ as one transaction (rollback on any failure)"));
    auto *dryRun = new QPushButton(tr("&Dry run"));
    dryRun->setToolTip(tr("Plan the writes (order, stacking warnings); write nothing"));
    auto *verify = new QPushButton(tr("&Verify"));
    verify->setToolTip(tr("Show only the drift between the preset and the live system"));
    m_driftOnly = new QCheckBox(tr("Only drift"));
    m_keep = new QCheckBox(tr("&Keep applied"));
    m_keep->setObjectName(QStringLiteral("keepApplied"));
    m_keep->setToolTip(tr("When a matching device appears or a path is reinstated, apply the preset to it "
                          "(each time a transaction in the history)"));
    auto *previewButtons = new QHBoxLayout;
    previewButtons->addWidget(m_apply);
    previewButtons->addWidget(dryRun);
    previewButtons->addWidget(verify);
    previewButtons->addWidget(m_driftOnly);
    previewButtons->addStretch();
    previewButtons->addWidget(m_keep);

    // Edit
    m_editor = codeView(false);
    m_validation = new QLabel;
    m_validation->setWordWrap(true);
    auto *save = new QPushButton(tr("&Save as user preset"));
    auto *editButtons = new QHBoxLayout;
    editButtons->addWidget(m_validation, 1);
    editButtons->addWidget(save);

    // Export
    m_format = new QComboBox;
    m_format->addItem(tr("udev rules"), QStringLiteral("udev"));
    m_format->addItem(tr("tuned profile"), QStringLiteral("tuned"));
    m_format->addItem(QStringLiteral("multipath.conf"), QStringLiteral("multipath"));
    auto *exportSave = new QPushButton(tr("Save &to file…"));
    m_exportView = codeView(true);
    auto *exportButtons = new QHBoxLayout;
    exportButtons->addWidget(m_format);
    exportButtons->addStretch();
    exportButtons->addWidget(exportSave);

    m_tabs = new QTabWidget;
    m_tabs->addTab(page(m_table, previewButtons, false), tr("&Preview"));
    m_tabs->addTab(page(m_editor, editButtons, false), tr("&Edit"));
    m_tabs->addTab(page(m_exportView, exportButtons, true), tr("E&xport"));

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(aboutScroll);
    rightLayout->addWidget(m_tabs, 1);

    auto *splitter = new QSplitter;
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 300, 800 });
    m_status = new QLabel;
    m_status->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);

    connect(m_list, &QListWidget::currentRowChanged, this, &PresetManager::onCurrentRowChanged);
    connect(newButton, &QPushButton::clicked, this, [this] { promptNewFromSelection(); });
    connect(importButton, &QPushButton::clicked, this, &PresetManager::importFile);
    connect(m_apply, &QPushButton::clicked, this, [this] { applyCurrent(); });
    connect(dryRun, &QPushButton::clicked, this, [this] {
        if (!m_current)
            return;
        ++m_operations;
        callService({ Call::DryRun, {} }, presetRequest(*m_current));
    });
    connect(verify, &QPushButton::clicked, this, &PresetManager::verifyCurrent);
    connect(m_driftOnly, &QCheckBox::toggled, m_model, &PresetPreviewModel::setDriftOnly);
    connect(m_keep, &QCheckBox::toggled, this, [this](bool on) {
        if (on && m_current) {
            m_keeper->keep(*m_current, m_snapshot);
            setStatus(tr("Keeping \"%1\" applied to devices that appear or paths that come back").arg(m_current->name));
        } else {
            m_keeper->stop();
        }
    });
    connect(m_editor, &QPlainTextEdit::textChanged, this, &PresetManager::onEditorChanged);
    connect(save, &QPushButton::clicked, this, [this] {
        const auto path = saveEdited();
        setStatus(path ? tr("Saved %1").arg(*path) : path.errorMessage());
    });
    connect(m_format, &QComboBox::currentIndexChanged, this, &PresetManager::refreshExport);
    connect(exportSave, &QPushButton::clicked, this, &PresetManager::exportToFile);
}

void PresetManager::setSnapshot(const DeviceSnapshot &snapshot)
{
    m_snapshot = snapshot;
    m_keeper->onSnapshot(snapshot);
    recordFirstSeen(snapshot);
    // The preview reads every matched device's attributes: only while someone looks at it.
    if (isVisible())
        refreshPreview();
    else
        m_previewStale = true;
}

void PresetManager::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_previewStale)
        refreshPreview();
}

void PresetManager::setSelection(const QStringList &devices)
{
    m_selection = devices;
}

void PresetManager::reload()
{
    const QString current = m_list->currentItem() ? m_list->currentItem()->data(PathRole).toString() : QString();
    const QSignalBlocker block(m_list);
    m_list->clear();
    for (const auto &e : listPresets()) {
        auto *item = new QListWidgetItem(e.preset ? e.preset->name : QFileInfo(e.path).fileName(), m_list);
        item->setData(PathRole, e.path);
        item->setData(Qt::UserRole, QFileInfo(e.path).completeBaseName());
        item->setToolTip(e.preset
                ? QStringLiteral("%1\n%2").arg(e.builtIn ? tr("built-in") : e.path, e.preset->description)
                : e.preset.errorMessage());
        if (e.builtIn)
            item->setText(item->text() + QStringLiteral("  (%1)").arg(tr("built-in")));
        if (!e.preset)
            item->setForeground(messagestyle::viewText(MessageTone::Error));
        if (e.path == current)
            m_list->setCurrentItem(item);
    }
}

bool PresetManager::selectPreset(const QString &name)
{
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *item = m_list->item(i);
        if (item->data(Qt::UserRole).toString() == name || item->text().startsWith(name)) {
            m_list->setCurrentRow(i);
            onCurrentRowChanged(i); // also when it was already current
            return true;
        }
    }
    return false;
}

void PresetManager::onCurrentRowChanged(int row)
{
    QListWidgetItem *item = m_list->item(row);
    if (!item)
        return;
    const auto preset = findPreset(item->data(PathRole).toString());
    if (!preset) {
        m_current.reset();
        m_about->setText(preset.errorMessage());
        m_model->setResolution({}, {});
        return;
    }
    showPreset(*preset);
}

void PresetManager::showPreset(const Preset &preset)
{
    m_current = preset;
    QString about
        = QStringLiteral("<b>%1</b><br>%2").arg(preset.name.toHtmlEscaped(), preset.description.toHtmlEscaped());
    if (!preset.reasoning.isEmpty())
        about += tr("<br><i>Why:</i> %1").arg(preset.reasoning.toHtmlEscaped());
    if (!preset.host.isEmpty()) {
        QString made = tr("made on %1").arg(preset.host.toHtmlEscaped());
        if (!preset.kernel.isEmpty())
            made += QStringLiteral(", ") + tr("kernel %1").arg(preset.kernel);
        if (preset.created.isValid())
            made += QStringLiteral(", ") + preset.created.toString(Qt::ISODate);
        about += QStringLiteral("<br><small>%1</small>").arg(made);
    }
    m_about->setText(about);
    {
        const QSignalBlocker block(m_editor);
        m_editor->setPlainText(QString::fromUtf8(presetToJson(preset)));
    }
    m_validation->setText(tr("valid"));
    if (m_keep->isChecked())
        m_keeper->keep(preset, m_snapshot);
    refreshPreview();
    refreshExport();
}

void PresetManager::onEditorChanged()
{
    const auto preset = parsePreset(m_editor->toPlainText().toUtf8());
    if (!preset) {
        m_validation->setText(messagestyle::htmlSpan(MessageTone::Error, preset.errorMessage().toHtmlEscaped()));
        m_apply->setEnabled(false);
        return;
    }
    m_validation->setText(tr("valid"));
    m_current = *preset;
    refreshPreview();
    refreshExport();
}

QString PresetManager::validationText() const
{
    return m_validation->text();
}

QString PresetManager::statusText() const
{
    return m_status->text();
}

void PresetManager::refreshPreview()
{
    m_previewStale = false;
    const quint64 generation = ++m_previewGeneration;
    if (!m_current) {
        m_resolving = false;
        m_model->setResolution({}, {});
        m_apply->setEnabled(false);
        Q_EMIT previewShown();
        return;
    }
    m_resolving = true;
    m_apply->setEnabled(false); // until the preview says there is something to apply
    m_jobs->startLatest(
        QStringLiteral("preview"), QStringLiteral("resolve preset %1").arg(m_current->name),
        [sysfs = m_session->sysfs(), snapshot = m_snapshot, preset = *m_current](
            JobContext &) { return resolvePreset(sysfs, snapshot, preset); },
        [this, generation, preset = *m_current, status = m_statusGeneration](const PresetResolution &res) {
            if (generation != m_previewGeneration)
                return; // another preset or a newer snapshot: its own read is on its way
            m_resolving = false;
            showResolution(preset, res, status == m_statusGeneration);
        });
}

void PresetManager::showResolution(const Preset &preset, const PresetResolution &res, bool notesInStatus)
{
    m_model->setResolution(preset, res);
    m_table->resizeColumnsToContents();
    QStringList differingMaps;
    for (const PresetMapItem &m : res.maps) {
        if (m.differs)
            differingMaps << m.map;
    }
    m_apply->setEnabled(canApply() && !isApplying() && (!res.changes().isEmpty() || !differingMaps.isEmpty()));
    QStringList notes = res.unmatched;
    for (const PresetItem &i : res.risky())
        notes << tr("Puts data at risk: %1 %2 → %3: %4 (Apply asks you to confirm)")
                     .arg(i.device, i.attribute, i.wanted, i.risk);
    const QString maps = differingMaps.join(QStringLiteral(", "));
    if (!differingMaps.isEmpty() && !m_remoteHost.isEmpty())
        notes << tr("Multipath tables differ (%1): Apply reloads them on %2 first, then writes the "
                    "attributes there; all or nothing")
                     .arg(maps, m_remoteHost);
    else if (!differingMaps.isEmpty())
        notes << (m_dm ? tr("Multipath tables differ (%1): Apply reloads them first, then writes the "
                            "attributes; all or nothing")
                       : tr("Multipath tables differ (%1): reloading them needs root on this machine "
                            "(or: sudo dmtunectl preset apply)"))
                     .arg(maps);
    if (std::exchange(m_verifyWhenResolved, false)) {
        setStatus(res.hasDrift()
                ? tr("Verify \"%1\": %2 settings drifted").arg(preset.name).arg(m_model->rowCount())
                : tr("Verify \"%1\": no drift (%2 settings checked)").arg(preset.name).arg(res.items.size()));
    } else if (!notes.isEmpty() && notesInStatus) {
        // A line set since the preview was asked for (an apply's outcome) stays.
        m_status->setText(notes.join(QLatin1Char('\n')));
    }
    Q_EMIT previewShown();
}

void PresetManager::refreshExport()
{
    m_exportView->setPlainText(exportText(m_format->currentData().toString()));
}

QString PresetManager::exportText(const QString &format) const
{
    const auto f = parsePresetExportFormat(format);
    if (!m_current || !f)
        return {};
    return exportPreset(*m_current, *f).text;
}

bool PresetManager::applyCurrent(const QStringList &devices)
{
    if (!m_current || !canApply() || isApplying())
        return false;
    // Every rule is the core's (ops/presetoperations.h): this asks for the plan, shows it, asks, and runs.
    ++m_operations;
    m_apply->setEnabled(false);
    setStatus(m_remoteHost.isEmpty() ? tr("Applying \"%1\": planning…").arg(m_current->name)
                                     : tr("Applying \"%1\" on %2: planning there…").arg(m_current->name, m_remoteHost));
    callService({ Call::Apply, {} }, presetRequest(*m_current, devices));
    return true;
}

void PresetManager::onPlanned(const OperationPlan &plan, const Call &call)
{
    --m_operations;
    if (call.purpose == Call::DryRun) {
        QStringList lines = plan.steps;
        for (const QString &r : plan.refusals)
            lines << tr("error: %1").arg(r);
        for (const OperationRisk &r : plan.risks)
            lines << tr("needs confirmation (Apply asks): %1").arg(r.text);
        for (const QString &n : plan.notes)
            lines << tr("note: %1").arg(n);
        setStatus(plan.steps.isEmpty() && plan.refusals.isEmpty() && plan.risks.isEmpty()
                ? tr("Dry run: nothing to write")
                : tr("Dry run, in this order: %1").arg(lines.join(QStringLiteral("; "))));
        return;
    }
    if (call.purpose == Call::Keep) {
        // Nobody is asked for a device that just appeared: a plan that needs answers is not run.
        const QString why
            = plan.refusals.isEmpty() ? tr("needs confirmation") : plan.refusals.join(QStringLiteral("; "));
        setStatus(tr("Keep applied: %1 (%2; not applied)").arg(call.keepReason, why));
        refreshPreview();
        return;
    }
    if (!plan.refusals.isEmpty()) {
        const QString text = tr("\"%1\": not applied: %2").arg(plan.target, plan.refusals.join(QStringLiteral("; ")));
        refreshPreview();
        setStatus(text);
        Q_EMIT message(text);
        return;
    }
    auto *dialog = new PlanDialog(plan, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_planDialog = dialog;
    connect(dialog, &PlanDialog::answered, this, [this](const OperationAnswers &answers) {
        if (!m_planDialog)
            return;
        ++m_operations;
        setStatus(tr("Applying \"%1\"…").arg(m_planDialog->plan().target));
        runOnService(m_planDialog->plan(), answers, { Call::Apply, {} });
    });
    connect(dialog, &QDialog::rejected, this, [this, name = plan.target] {
        refreshPreview();
        setStatus(tr("\"%1\": not applied (not confirmed)").arg(name));
    });
    setStatus(tr("\"%1\" needs confirmation: %2 risks").arg(plan.target).arg(plan.risks.size()));
    dialog->open();
}

void PresetManager::onOperationFinished(const OperationResult &result, const Call &call)
{
    --m_operations;
    const bool keep = call.purpose == Call::Keep;
    // The transaction goes into the window's history (Undo) and puts markers on the charts.
    const auto apply = applyResultFromJson(result.details);
    if (apply && result.details.contains(QLatin1String("changes")) && !result.dryRun)
        m_session->record(*apply);
    const qsizetype written = apply ? std::count_if(apply->changes.cbegin(), apply->changes.cend(),
                                  [](const ChangeOutcome &c) { return c.written && !c.sideEffect; })
                                    : 0;
    const int reloaded = int(result.details.value(QLatin1String("reloaded")).toArray().size());
    const QString &reason = call.keepReason;
    const QString writes = QString::number(written);
    const QString tables = QString::number(reloaded);
    QString text;
    if (result.ok && written == 0 && reloaded == 0)
        text = keep ? tr("Keep applied: %1 (already at the preset's values)").arg(reason)
                    : tr("\"%1\": nothing to write, the live values are the preset's").arg(result.target);
    else if (result.ok && keep)
        text = reloaded ? tr("Kept applied (%1): %2 writes, %3 map tables reloaded").arg(reason, writes, tables)
                        : tr("Kept applied (%1): %2 writes").arg(reason, writes);
    else if (result.ok)
        text = reloaded ? tr("Applied %1 writes, %2 map tables reloaded").arg(writes, tables)
                        : tr("Applied %1 writes").arg(writes);
    else if (apply && result.details.contains(QLatin1String("changes"))) {
        const QString error = QString(result.error).replace(QLatin1Char('\n'), QStringLiteral("; "));
        text = keep ? tr("Kept applied (%1): failed and rolled back: %2").arg(reason, error)
                    : tr("Apply failed and rolled back: %1").arg(error);
    } else if (!result.error.isEmpty())
        text = result.error.left(1).toUpper() + result.error.mid(1);
    for (const QString &w : result.warnings)
        text += QLatin1Char('\n') + tr("warning: %1").arg(w);
    refreshPreview();
    setStatus(text);
    Q_EMIT message(text);
}

PlanDialog *PresetManager::pendingPlanDialog() const
{
    return m_planDialog && m_planDialog->isVisible() ? m_planDialog.data() : nullptr;
}

NewPresetDialog *PresetManager::pendingNewPresetDialog() const
{
    return m_newDialog && m_newDialog->isVisible() ? m_newDialog.data() : nullptr;
}

void PresetManager::recordFirstSeen(const DeviceSnapshot &snapshot)
{
    // The first snapshot a device is in: its tunables as they were before anything of this session touched them.
    QStringList devices;
    for (const BlockDevice &device : snapshot.devices) {
        const QString key = firstSeenKey(device);
        if (!m_firstSeen.contains(device) && !m_firstSeenPending.contains(key)) {
            devices << device.name;
            m_firstSeenPending << key;
        }
    }
    if (devices.isEmpty())
        return;
    m_jobs->start(
        QStringLiteral("first-seen values of %1 devices").arg(devices.size()),
        [sysfs = m_session->sysfs(), snapshot, devices](JobContext &job) {
            QList<std::pair<BlockDevice, QList<Tunable>>> read;
            for (const QString &name : devices) {
                if (job.isCancelled())
                    break; // the window closes: a thousand devices' attributes are not read for nothing
                if (const BlockDevice *device = snapshot.device(name))
                    read.append({ *device, readTunables(sysfs, name) });
            }
            return read;
        },
        [this](const QList<std::pair<BlockDevice, QList<Tunable>>> &read) {
            for (const auto &[device, tunables] : read) {
                m_firstSeen.record(device, tunables);
                m_firstSeenPending.removeAll(firstSeenKey(device));
            }
        });
}

bool PresetManager::promptNewFromSelection(const QString &suggestedName)
{
    if (pendingNewPresetDialog()) {
        pendingNewPresetDialog()->raise();
        return true;
    }
    if (m_selection.isEmpty()) {
        setStatus(tr("Select devices in the tree first"));
        return false;
    }
    setStatus(tr("Reading the attributes of %1…").arg(m_selection.join(QStringLiteral(", "))));
    QList<BlockDevice> devices;
    for (const QString &name : std::as_const(m_selection)) {
        if (const BlockDevice *device = m_snapshot.device(name))
            devices << *device;
    }
    QList<ApplyResult> history;
    for (const HistoryEntry &entry : m_session->history()->entries())
        history << entry.result;
    QList<QHash<QString, QString>> firstSeen;
    for (const BlockDevice &device : std::as_const(devices))
        firstSeen << m_firstSeen.values(device);
    m_jobs->startLatest(
        QStringLiteral("new from selection: attributes"),
        QStringLiteral("attributes of %1").arg(m_selection.join(QLatin1Char(' '))),
        [sysfs = m_session->sysfs(), devices, history, firstSeen](JobContext &) {
            QList<AttributeChoice> choices;
            for (qsizetype i = 0; i < devices.size(); ++i)
                choices << defaultAttributeChoices(
                    devices[i].name, readTunables(sysfs, devices[i].name), history, firstSeen[i]);
            return choices;
        },
        [this, suggestedName](const QList<AttributeChoice> &choices) {
            if (pendingNewPresetDialog())
                return;
            auto *dialog = new NewPresetDialog(this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->setChoices(choices);
            dialog->setName(suggestedName);
            m_newDialog = dialog;
            connect(dialog, &QDialog::accepted, this,
                [this, dialog] { newFromSelection(dialog->name(), dialog->checkedSelection()); });
            setStatus({});
            dialog->open();
        });
    return true;
}

QMessageBox *PresetManager::pendingReplaceConfirmation() const
{
    return m_confirmReplace && m_confirmReplace->isVisible() ? m_confirmReplace.data() : nullptr;
}

void PresetManager::verifyCurrent()
{
    m_driftOnly->setChecked(true);
    if (!m_current)
        return;
    // The drift is read afresh (a job); the status line follows it.
    m_verifyWhenResolved = true;
    setStatus(tr("Verify \"%1\": reading…").arg(m_current->name));
    refreshPreview();
}

bool PresetManager::newFromSelection(const QString &name, const QList<DeviceAttributes> &attributes)
{
    QList<DeviceAttributes> selection = attributes;
    if (selection.isEmpty()) {
        for (const QString &device : std::as_const(m_selection))
            selection << DeviceAttributes { device, {} };
    }
    if (selection.isEmpty()) {
        setStatus(tr("Select devices in the tree first"));
        Q_EMIT newPresetSaved(false, tr("Select devices in the tree first"));
        return false;
    }
    QStringList devices;
    for (const DeviceAttributes &d : std::as_const(selection))
        devices << d.device;
    setStatus(tr("Reading the settings of %1…").arg(devices.join(QStringLiteral(", "))));
    m_jobs->startLatest(
        QStringLiteral("new from selection"), QStringLiteral("preset from %1").arg(devices.join(QLatin1Char(' '))),
        [sysfs = m_session->sysfs(), snapshot = m_snapshot, selection, name](
            JobContext &) { return presetFromSelection(sysfs, snapshot, selection, name); },
        [this](const Result<Preset> &preset) {
            const Result<QString> path
                = preset ? storeAndSelect(*preset) : Result<QString>::failure(preset.errorMessage());
            setStatus(path ? tr("Saved %1").arg(*path) : path.errorMessage());
            Q_EMIT newPresetSaved(path.ok(), path ? *path : path.errorMessage());
        });
    return true;
}

Result<QString> PresetManager::storeAndSelect(const Preset &preset, ExistingFile existing)
{
    const QString target = userPresetPath(preset);
    if (existing == ExistingFile::Refuse && QFileInfo::exists(target)) {
        if (pendingReplaceConfirmation())
            return Result<QString>::failure(tr("Waiting for the answer about %1").arg(target));
        const auto there = loadPresetFile(target);
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Replace preset?"),
            there ? tr("A stored preset (\"%1\") is already saved as %2. Replace it with \"%3\"?")
                        .arg(there->name, target, preset.name)
                  : tr("A stored preset is already saved as %1. Replace it with \"%2\"?").arg(target, preset.name),
            QMessageBox::Cancel, this);
        QPushButton *replace = box->addButton(tr("Replace"), QMessageBox::DestructiveRole);
        box->setDefaultButton(QMessageBox::Cancel);
        box->setAttribute(Qt::WA_DeleteOnClose);
        m_confirmReplace = box;
        connect(box, &QMessageBox::buttonClicked, this, [this, replace, preset](QAbstractButton *clicked) {
            if (clicked != replace) {
                setStatus(tr("Not saved: \"%1\" kept").arg(userPresetPath(preset)));
                return;
            }
            const auto path = storeAndSelect(preset, ExistingFile::Replace);
            setStatus(path ? tr("Saved %1 (replaced)").arg(*path) : path.errorMessage());
        });
        box->open();
        return Result<QString>::failure(tr("%1 exists: confirm to replace it").arg(target));
    }
    const auto path = storeUserPreset(preset, existing);
    if (path) {
        reload();
        selectPreset(QFileInfo(*path).completeBaseName());
    }
    return path;
}

Result<QString> PresetManager::saveEdited()
{
    const auto preset = parsePreset(m_editor->toPlainText().toUtf8());
    if (!preset)
        return Result<QString>::failure(preset.errorMessage());
    return storeAndSelect(*preset);
}

void PresetManager::onReapply(const QStringList &devices, const QString &reason)
{
    if (!m_current)
        return;
    if (!canApply() || m_operations > 0) {
        setStatus(tr("Keep applied: %1 (busy; not applied)").arg(reason));
        return;
    }
    ++m_operations;
    callService({ Call::Keep, reason }, presetRequest(m_keeper->preset(), devices));
}

void PresetManager::importFile()
{
    filedialogs::open(this,
        { QStringLiteral("presets"), tr("Import preset"), QDir::homePath(), tr("Presets (*.json)") },
        [this](const QStringList &files) {
            const auto preset = loadPresetFile(files.constFirst());
            if (!preset) {
                setStatus(preset.errorMessage());
                return;
            }
            const auto path = storeAndSelect(*preset);
            setStatus(path ? tr("Imported into %1").arg(*path) : path.errorMessage());
        });
}

void PresetManager::exportToFile()
{
    if (!m_current)
        return;
    const auto format = parsePresetExportFormat(m_format->currentData().toString());
    // The text is taken now: what the user saw when asking to export is what is written.
    const QByteArray text = m_exportView->toPlainText().toUtf8();
    filedialogs::open(this,
        { QStringLiteral("presets"), tr("Export preset"),
            QDir::home().filePath(presetExportFileName(*m_current, *format)), QString(), QFileDialog::AnyFile,
            QFileDialog::AcceptSave },
        [this, text](const QStringList &files) {
            const QString &file = files.constFirst();
            // The dialog asked before replacing a file; a symbolic link at the name is still refused.
            if (const Status s = writeFileAtomically(file, text, ExistingFile::Replace); !s) {
                setStatus(s.errorMessage());
                return;
            }
            setStatus(tr("Exported to %1").arg(file));
        });
}

void PresetManager::setStatus(const QString &text)
{
    ++m_statusGeneration;
    m_status->setText(text);
}

} // namespace dmtune
