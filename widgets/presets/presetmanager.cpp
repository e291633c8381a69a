#include "presetmanager.h"

#include "dm/libdevmapperbackend.h"
#include "dm/multipathdclient.h"
#include "params/planner.h"
#include "presets/presetcapture.h"
#include "presets/presetexport.h"
#include "presets/presetjson.h"
#include "presets/presetkeeper.h"
#include "presets/presetresolution.h"
#include "presets/presetstore.h"
#include "presetpreviewmodel.h"
#include "tuningsession.h"

#include <algorithm>
#include <unistd.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
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
{
    // Reloads need the kernel's device-mapper, as root, on the machine itself (not a captured tree).
    if (m_session->sysfs().isLive() && ::geteuid() == 0)
        m_dmFactory = [sysfs = m_session->sysfs()] { return std::unique_ptr<DeviceMapper>(new LibDevmapperBackend(sysfs)); };
    buildUi();
    connect(m_session, &TuningSession::finished, this, [this](const ApplyResult &r, bool) { onFinished(r); });
    connect(m_keeper, &PresetKeeper::reapplyRequested, this, &PresetManager::onReapply);
    reload();
}

void PresetManager::buildUi()
{
    m_list = new QListWidget;
    m_list->setMinimumWidth(220);
    m_list->setWordWrap(true); // long names wrap instead of being cut
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setSpacing(2);
    auto *newButton = new QPushButton(QStringLiteral("&New from selection…"));
    auto *importButton = new QPushButton(QStringLiteral("&Import…"));
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
    m_apply = new QPushButton(QStringLiteral("&Apply"));
    m_apply->setToolTip(QStringLiteral("Write the rows that differ as one transaction (rollback on any failure)"));
    auto *dryRun = new QPushButton(QStringLiteral("&Dry run"));
    dryRun->setToolTip(QStringLiteral("Plan the writes (order, stacking warnings); write nothing"));
    auto *verify = new QPushButton(QStringLiteral("&Verify"));
    verify->setToolTip(QStringLiteral("Show only the drift between the preset and the live system"));
    m_driftOnly = new QCheckBox(QStringLiteral("Only drift"));
    m_keep = new QCheckBox(QStringLiteral("&Keep applied"));
    m_keep->setObjectName(QStringLiteral("keepApplied"));
    m_keep->setToolTip(QStringLiteral("When a matching device appears or a path is reinstated, apply the preset to it "
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
    auto *save = new QPushButton(QStringLiteral("&Save as user preset"));
    auto *editButtons = new QHBoxLayout;
    editButtons->addWidget(m_validation, 1);
    editButtons->addWidget(save);

    // Export
    m_format = new QComboBox;
    m_format->addItem(QStringLiteral("udev rules"), QStringLiteral("udev"));
    m_format->addItem(QStringLiteral("tuned profile"), QStringLiteral("tuned"));
    m_format->addItem(QStringLiteral("multipath.conf"), QStringLiteral("multipath"));
    auto *exportSave = new QPushButton(QStringLiteral("Save &to file…"));
    m_exportView = codeView(true);
    auto *exportButtons = new QHBoxLayout;
    exportButtons->addWidget(m_format);
    exportButtons->addStretch();
    exportButtons->addWidget(exportSave);

    m_tabs = new QTabWidget;
    m_tabs->addTab(page(m_table, previewButtons, false), QStringLiteral("&Preview"));
    m_tabs->addTab(page(m_editor, editButtons, false), QStringLiteral("&Edit"));
    m_tabs->addTab(page(m_exportView, exportButtons, true), QStringLiteral("E&xport"));

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
    connect(newButton, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(this, QStringLiteral("New preset"),
            QStringLiteral("Name for the preset of %1:").arg(m_selection.join(QStringLiteral(", "))), QLineEdit::Normal,
            QString(), &ok);
        if (!ok || name.trimmed().isEmpty())
            return;
        const auto path = newFromSelection(name.trimmed());
        setStatus(path ? QStringLiteral("Saved %1").arg(*path) : path.errorMessage());
    });
    connect(importButton, &QPushButton::clicked, this, &PresetManager::importFile);
    connect(m_apply, &QPushButton::clicked, this, &PresetManager::applyCurrent);
    connect(dryRun, &QPushButton::clicked, this, [this] {
        const Plan plan = planChanges(m_session->sysfs(), m_model->resolution().changes());
        QStringList lines;
        for (const auto &w : plan.writes)
            lines << QStringLiteral("%1 %2=%3").arg(w.device, w.attribute.section(QLatin1Char('/'), -1), w.value);
        for (const auto &e : plan.errors)
            lines << QStringLiteral("error: %1").arg(e.text());
        for (const auto &w : plan.warnings)
            lines << QStringLiteral("warning: %1").arg(w.message);
        setStatus(lines.isEmpty() ? QStringLiteral("Dry run: nothing to write")
                                  : QStringLiteral("Dry run, in this order: %1").arg(lines.join(QStringLiteral("; "))));
    });
    connect(verify, &QPushButton::clicked, this, &PresetManager::verifyCurrent);
    connect(m_driftOnly, &QCheckBox::toggled, m_model, &PresetPreviewModel::setDriftOnly);
    connect(m_keep, &QCheckBox::toggled, this, [this](bool on) {
        if (on && m_current) {
            m_keeper->keep(*m_current, m_snapshot);
            setStatus(QStringLiteral("Keeping \"%1\" applied to devices that appear or paths that come back").arg(m_current->name));
        } else {
            m_keeper->stop();
        }
    });
    connect(m_editor, &QPlainTextEdit::textChanged, this, &PresetManager::onEditorChanged);
    connect(save, &QPushButton::clicked, this, [this] {
        const auto path = saveEdited();
        setStatus(path ? QStringLiteral("Saved %1").arg(*path) : path.errorMessage());
    });
    connect(m_format, &QComboBox::currentIndexChanged, this, &PresetManager::refreshExport);
    connect(exportSave, &QPushButton::clicked, this, &PresetManager::exportToFile);
}

void PresetManager::setSnapshot(const DeviceSnapshot &snapshot)
{
    m_snapshot = snapshot;
    m_keeper->onSnapshot(snapshot);
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
        item->setToolTip(e.preset ? QStringLiteral("%1\n%2").arg(e.builtIn ? QStringLiteral("built-in") : e.path, e.preset->description)
                                  : e.preset.errorMessage());
        if (e.builtIn)
            item->setText(item->text() + QStringLiteral("  (built-in)"));
        if (!e.preset)
            item->setForeground(Qt::red);
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
    QString about = QStringLiteral("<b>%1</b><br>%2").arg(preset.name.toHtmlEscaped(), preset.description.toHtmlEscaped());
    if (!preset.reasoning.isEmpty())
        about += QStringLiteral("<br><i>Why:</i> %1").arg(preset.reasoning.toHtmlEscaped());
    if (!preset.host.isEmpty())
        about += QStringLiteral("<br><small>made on %1%2%3</small>")
                     .arg(preset.host.toHtmlEscaped(), preset.kernel.isEmpty() ? QString() : QStringLiteral(", kernel ") + preset.kernel,
                         preset.created.isValid() ? QStringLiteral(", ") + preset.created.toString(Qt::ISODate) : QString());
    m_about->setText(about);
    {
        const QSignalBlocker block(m_editor);
        m_editor->setPlainText(QString::fromUtf8(presetToJson(preset)));
    }
    m_validation->setText(QStringLiteral("valid"));
    if (m_keep->isChecked())
        m_keeper->keep(preset, m_snapshot);
    refreshPreview();
    refreshExport();
}

void PresetManager::onEditorChanged()
{
    const auto preset = parsePreset(m_editor->toPlainText().toUtf8());
    if (!preset) {
        m_validation->setText(QStringLiteral("<span style='color:#b02020'>%1</span>").arg(preset.errorMessage().toHtmlEscaped()));
        m_apply->setEnabled(false);
        return;
    }
    m_validation->setText(QStringLiteral("valid"));
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
    if (!m_current) {
        m_model->setResolution({}, {});
        m_apply->setEnabled(false);
        return;
    }
    const PresetResolution res = resolvePreset(m_session->sysfs(), m_snapshot, *m_current);
    m_model->setResolution(*m_current, res);
    m_table->resizeColumnsToContents();
    QStringList differingMaps;
    for (const PresetMapItem &m : res.maps) {
        if (m.differs)
            differingMaps << m.map;
    }
    m_apply->setEnabled(m_session->canApply() && !m_reloading && (!res.changes().isEmpty() || !differingMaps.isEmpty()));
    QStringList notes = res.unmatched;
    if (!differingMaps.isEmpty())
        notes << (m_dmFactory ? QStringLiteral("Multipath tables differ (%1): Apply reloads them first, then writes the "
                                               "attributes; all or nothing")
                              : QStringLiteral("Multipath tables differ (%1): reloading them needs root on this machine "
                                               "(or: sudo dmtunectl preset apply)"))
                     .arg(differingMaps.join(QStringLiteral(", ")));
    if (!notes.isEmpty())
        m_status->setText(notes.join(QLatin1Char('\n')));
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

bool PresetManager::applyCurrent()
{
    if (!m_current || !m_session->canApply() || m_reloading)
        return false;
    const PresetResolution res = resolvePreset(m_session->sysfs(), m_snapshot, *m_current);
    QList<PresetMapItem> maps;
    for (const PresetMapItem &m : res.maps) {
        if (m.differs)
            maps.append(m);
    }
    if (maps.isEmpty()) {
        if (res.changes().isEmpty()) {
            setStatus(QStringLiteral("\"%1\": nothing to write, the live values are the preset's").arg(m_current->name));
            return false;
        }
        applyQueueSettings(0);
        return m_ownTransaction;
    }
    if (!m_dmFactory) {
        setStatus(QStringLiteral("\"%1\" changes %2 multipath map tables: that needs root on this machine "
                                 "(or: sudo dmtunectl preset apply); nothing applied")
                      .arg(m_current->name)
                      .arg(maps.size()));
        return false;
    }
    // Tables first (a reload resets the map's queue limits), then the queue attributes as one transaction;
    // if that fails, the old tables go back. libdevmapper blocks: a worker thread does the reloads.
    struct Outcome {
        Result<QList<PresetMapReload>> prepared = QList<PresetMapReload>();
        MapReloadOutcome reload;
    };
    auto outcome = std::make_shared<Outcome>();
    QThread *worker = QThread::create([outcome, maps, factory = m_dmFactory] {
        const std::unique_ptr<DeviceMapper> dm = factory();
        outcome->prepared = prepareMapReloads(*dm, maps);
        if (outcome->prepared)
            outcome->reload = executeMapReloads(*dm, *outcome->prepared, MultipathdClient::isRunning());
    });
    m_reloading = true;
    m_apply->setEnabled(false);
    setStatus(QStringLiteral("Applying \"%1\": reloading %2 multipath tables…").arg(m_current->name).arg(maps.size()));
    connect(worker, &QThread::finished, this, [this, outcome] {
        m_reloading = false;
        if (!outcome->prepared) {
            refreshPreview();
            setStatus(QStringLiteral("Multipath settings: %1; nothing applied").arg(outcome->prepared.errorMessage()));
            return;
        }
        if (!outcome->reload.ok()) {
            refreshPreview();
            setStatus(QStringLiteral("Multipath settings not applied (maps restored): %1").arg(outcome->reload.error));
            return;
        }
        for (const QString &done : outcome->reload.done)
            Q_EMIT message(done);
        m_reloaded = *outcome->prepared;
        applyQueueSettings(int(m_reloaded.size()));
    });
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
    return true;
}

void PresetManager::applyQueueSettings(int reloadedMaps)
{
    // After a reload the maps' limits are the stacked ones again: resolve afresh.
    const ChangeSet changes = resolvePreset(m_session->sysfs(), m_snapshot, *m_current).changes();
    if (changes.isEmpty()) {
        m_reloaded.clear();
        refreshPreview();
        setStatus(QStringLiteral("Applied \"%1\": %2 map tables reloaded, no queue writes needed").arg(m_current->name).arg(reloadedMaps));
        return;
    }
    m_ownTransaction = m_session->apply(changes);
    if (m_ownTransaction)
        setStatus(QStringLiteral("Applying \"%1\": %2 writes…").arg(m_current->name).arg(changes.size()));
    else if (!m_reloaded.isEmpty()) {
        ApplyResult busy;
        ApplyError error;
        error.stage = ApplyError::Stage::Validate;
        error.message = QStringLiteral("another transaction is running");
        busy.errors.append(error);
        onFinished(busy);
    }
}

void PresetManager::verifyCurrent()
{
    m_driftOnly->setChecked(true);
    refreshPreview();
    if (!m_current)
        return;
    const PresetResolution &res = m_model->resolution();
    setStatus(res.hasDrift() ? QStringLiteral("Verify \"%1\": %2 settings drifted").arg(m_current->name).arg(m_model->rowCount())
                             : QStringLiteral("Verify \"%1\": no drift (%2 settings checked)").arg(m_current->name).arg(res.items.size()));
}

Result<QString> PresetManager::newFromSelection(const QString &name)
{
    if (m_selection.isEmpty())
        return Result<QString>::failure(QStringLiteral("Select devices in the tree first"));
    const auto preset = presetFromDevices(m_session->sysfs(), m_snapshot, m_selection, {}, name);
    if (!preset)
        return Result<QString>::failure(preset.errorMessage());
    return storeAndSelect(*preset);
}

Result<QString> PresetManager::storeAndSelect(const Preset &preset)
{
    const auto path = storeUserPreset(preset);
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

void PresetManager::onFinished(const ApplyResult &result)
{
    const bool mine = m_ownTransaction || !m_pendingReason.isEmpty() || !m_reloaded.isEmpty();
    m_ownTransaction = false;
    if (!m_reloaded.isEmpty() && !result.ok()) {
        // All or nothing: the queue writes were rolled back, so the tables go back too.
        const QList<PresetMapReload> reloads = std::exchange(m_reloaded, {});
        auto errors = std::make_shared<QStringList>();
        QThread *worker = QThread::create([errors, reloads, factory = m_dmFactory] {
            const std::unique_ptr<DeviceMapper> dm = factory();
            *errors = restoreMapReloads(*dm, reloads);
        });
        connect(worker, &QThread::finished, this, [this, errors, why = result.errorMessage()] {
            const QString text = QStringLiteral("Apply failed and rolled back (%1); %2").arg(why,
                errors->isEmpty() ? QStringLiteral("multipath tables restored")
                                  : QStringLiteral("restoring tables: ") + errors->join(QStringLiteral("; ")));
            refreshPreview();
            setStatus(text);
            Q_EMIT message(text);
        });
        connect(worker, &QThread::finished, worker, &QObject::deleteLater);
        worker->start();
        return;
    }
    m_reloaded.clear();
    if (mine) {
        const QString what = m_pendingReason.isEmpty() ? QStringLiteral("Applied") : QStringLiteral("Kept applied (%1):").arg(m_pendingReason);
        const auto written = std::count_if(result.changes.cbegin(), result.changes.cend(),
            [](const ChangeOutcome &c) { return c.written && !c.sideEffect; });
        const QString text = result.ok() ? QStringLiteral("%1 %2 writes").arg(what).arg(written)
                                         : QStringLiteral("%1 failed and rolled back: %2").arg(what, result.errorMessage());
        m_pendingReason.clear();
        refreshPreview();
        setStatus(text);
        Q_EMIT message(text);
        return;
    }
    m_pendingReason.clear();
    refreshPreview();
}

void PresetManager::onReapply(const QStringList &devices, const QString &reason)
{
    if (!m_current)
        return;
    const ChangeSet changes = resolvePreset(m_session->sysfs(), m_snapshot, m_keeper->preset()).changes(devices);
    if (changes.isEmpty() || !m_session->canApply()) {
        setStatus(QStringLiteral("Keep applied: %1 (%2)").arg(reason,
            changes.isEmpty() ? QStringLiteral("already at the preset's values") : QStringLiteral("busy; not applied")));
        return;
    }
    m_pendingReason = reason;
    m_session->apply(changes);
}

void PresetManager::importFile()
{
    const QString file = QFileDialog::getOpenFileName(this, QStringLiteral("Import preset"), QString(), QStringLiteral("Presets (*.json)"));
    if (file.isEmpty())
        return;
    const auto preset = loadPresetFile(file);
    if (!preset) {
        setStatus(preset.errorMessage());
        return;
    }
    const auto path = storeAndSelect(*preset);
    setStatus(path ? QStringLiteral("Imported into %1").arg(*path) : path.errorMessage());
}

void PresetManager::exportToFile()
{
    if (!m_current)
        return;
    const auto format = parsePresetExportFormat(m_format->currentData().toString());
    const QString file = QFileDialog::getSaveFileName(this, QStringLiteral("Export preset"),
        presetExportFileName(*m_current, *format));
    if (file.isEmpty())
        return;
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(m_exportView->toPlainText().toUtf8()) < 0) {
        setStatus(QStringLiteral("%1: %2").arg(file, f.errorString()));
        return;
    }
    setStatus(QStringLiteral("Exported to %1").arg(file));
}

void PresetManager::setStatus(const QString &text)
{
    m_status->setText(text);
}

} // namespace dmtune
