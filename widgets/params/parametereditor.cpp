#include "widgets/params/parametereditor.h"

#include "core/ops/tuningoperations.h"
#include "core/params/tuningsession.h"
#include "widgets/anywherewrapdelegate.h"
#include "widgets/messagestyle.h"
#include "widgets/ops/plandialog.h"
#include "widgets/params/applyresulttext.h"
#include "widgets/params/changepreviewmodel.h"
#include "widgets/params/tunablefilterproxy.h"
#include "widgets/params/tunabletablemodel.h"
#include "widgets/params/tunablevaluedelegate.h"

#include "core/jobs/jobtracker.h"
#include "core/ops/operationregistry.h"
#include "core/params/catalog.h"
#include "core/params/tunable.h"
#include "widgets/devices/deviceproperties.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShowEvent>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStyle>
#include <QTableView>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QVBoxLayout>

namespace dmtune {

namespace {

QString plain(const QString &html)
{
    return QTextDocumentFragment::fromHtml(html).toPlainText();
}

void setComboItemEnabled(QComboBox *combo, int row, bool enabled, const QString &toolTip)
{
    auto *model = qobject_cast<QStandardItemModel *>(combo->model());
    if (QStandardItem *item = model ? model->item(row) : nullptr) {
        item->setEnabled(enabled);
        item->setToolTip(toolTip);
    }
}

QString shortList(const QStringList &names, int keep = 6)
{
    if (names.size() <= keep)
        return names.join(QStringLiteral(", "));
    return QCoreApplication::translate("ParameterEditor", "%1, … (%2 in all)")
        .arg(names.mid(0, keep).join(QStringLiteral(", ")))
        .arg(names.size());
}

} // namespace

ParameterEditor::ParameterEditor(TuningSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
{
    m_title = new QLabel(this);
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter attributes"));
    m_filter->setClearButtonEnabled(true);

    m_model = new TunableTableModel(this);
    m_proxy = new TunableFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &TunableFilterProxy::setText);
    m_showRaw = new QCheckBox(tr("Show read-only attributes"), this);
    m_showRaw->setToolTip(tr("Also list the queue attributes that are not in dmtune's catalog (never written)."));
    connect(m_showRaw, &QCheckBox::toggled, this, [this](bool on) {
        m_proxy->setShowRaw(on);
        updateSummary();
    });

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("tunableTable"));
    m_table->setModel(m_proxy);
    m_table->setItemDelegateForColumn(TunableTableModel::NewValueColumn, new TunableValueDelegate(m_table));
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
        | QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(true);
    m_table->setTextElideMode(Qt::ElideNone);
    m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(TunableTableModel::NoteColumn, QHeaderView::Stretch);
    m_table->setItemDelegateForColumn(TunableTableModel::NoteColumn, new AnywhereWrapDelegate(m_table));
    // The Attribute column is as wide as the names of the knobs one can set. The name of one current kernels ignore
    // (dm/rq_based_seq_io_merge_deadline, struck out) wraps into two lines instead of widening it: the notes get the
    // room (half the width went to that name while the notes wrapped into four lines).
    header->setSectionResizeMode(TunableTableModel::AttributeColumn, QHeaderView::Interactive);
    m_table->setItemDelegateForColumn(TunableTableModel::AttributeColumn, new AnywhereWrapDelegate(m_table));
    const auto fitAttributeColumn = [this] {
        const int margin = 2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1) + 4;
        int width = m_table->horizontalHeader()->sectionSizeHint(TunableTableModel::AttributeColumn);
        for (int row = 0; row < m_proxy->rowCount(); ++row) {
            const QModelIndex index = m_proxy->index(row, TunableTableModel::AttributeColumn);
            const QVariant font = index.data(Qt::FontRole); // bold while an edit is pending
            const QFontMetrics metrics(font.isValid() ? font.value<QFont>() : m_table->font());
            const int text = metrics.horizontalAdvance(index.data().toString());
            const bool ignored = index.data(TunableTableModel::TunableRole).value<Tunable>().ignored;
            width = std::max(width, (ignored ? text / 2 + metrics.averageCharWidth() : text) + margin);
        }
        // At most a quarter of the table: a long module parameter's name wraps, and the notes keep a readable width
        // (at 1280x720 a map's module parameters took 335 px and left the notes 60, four lines a row).
        const int cap = std::max(m_table->horizontalHeader()->sectionSizeHint(TunableTableModel::AttributeColumn),
            m_table->viewport()->width() / 4);
        width = std::min(width, cap);
        if (m_table->horizontalHeader()->sectionSize(TunableTableModel::AttributeColumn) != width)
            m_table->horizontalHeader()->resizeSection(TunableTableModel::AttributeColumn, width);
    };
    connect(m_proxy, &QAbstractItemModel::modelReset, this, fitAttributeColumn);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, fitAttributeColumn);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, fitAttributeColumn);
    connect(m_proxy, &QAbstractItemModel::dataChanged, this, fitAttributeColumn);
    // The table's width changed (the window, the splitter): the stretched Note column is resized first.
    connect(header, &QHeaderView::sectionResized, this, [fitAttributeColumn](int section) {
        if (section == TunableTableModel::NoteColumn)
            fitAttributeColumn();
    });
    header->setMinimumSectionSize(fontMetrics().averageCharWidth() * 6);
    header->setHighlightSections(false);
    m_table->setSortingEnabled(false);

    // Preview: the writes in execution order, warnings, what stands in the way.
    auto *previewBox = new QGroupBox(tr("Preview"), this);
    m_scope = new QComboBox(previewBox);
    m_scope->setObjectName(QStringLiteral("scopeCombo"));
    m_scope->addItem(tr("This device"), int(ChangeScope::Device));
    m_scope->addItem(tr("This map and all its paths"), int(ChangeScope::MapAndPaths));
    m_scope->addItem(tr("All paths of the map"), int(ChangeScope::PathsOfMap));
    m_scope->addItem(tr("Selection (from the tree)"), int(ChangeScope::Selection));
    m_scope->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_scopeDevices = new QLabel(previewBox);
    m_scopeDevices->setWordWrap(true);
    m_scopeDevices->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_previewModel = new ChangePreviewModel(this);
    m_preview = new QTableView(previewBox);
    m_preview->setObjectName(QStringLiteral("previewTable"));
    m_preview->setModel(m_previewModel);
    m_preview->verticalHeader()->hide();
    m_preview->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_preview->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_preview->horizontalHeader()->setSectionResizeMode(ChangePreviewModel::NoteColumn, QHeaderView::Stretch);
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_preview->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_preview->setAlternatingRowColors(true);

    m_warnings = new QLabel(previewBox);
    m_warnings->setObjectName(QStringLiteral("stackingWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setTextFormat(Qt::RichText);
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems = new QLabel(previewBox);
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::RichText);
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result = new QLabel(previewBox);
    m_result->setObjectName(QStringLiteral("applyResult"));
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setFrameShape(QFrame::StyledPanel);
    m_result->setMargin(4);
    m_result->hide();

    m_previewButton = new QPushButton(tr("Pre&view"), previewBox);
    m_previewButton->setToolTip(tr("Plan the edits again against the values in place now (nothing is written)."));
    m_revert = new QPushButton(tr("&Revert"), previewBox);
    m_revert->setObjectName(QStringLiteral("revertButton"));
    m_revert->setToolTip(tr("Drop every pending edit."));
    m_apply = new QPushButton(tr("&Apply"), previewBox);
    m_apply->setObjectName(QStringLiteral("applyButton"));
    m_apply->setDefault(true);

    auto *scopeRow = new QHBoxLayout;
    scopeRow->addWidget(new QLabel(tr("Apply to:"), previewBox));
    scopeRow->addWidget(m_scope);
    scopeRow->addWidget(m_scopeDevices, 1);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_previewButton);
    buttons->addWidget(m_revert);
    buttons->addStretch(1);
    buttons->addWidget(m_apply);
    auto *previewLayout = new QVBoxLayout(previewBox);
    previewLayout->addLayout(scopeRow);
    previewLayout->addWidget(m_preview, 1);
    previewLayout->addWidget(m_warnings);
    previewLayout->addWidget(m_problems);
    previewLayout->addWidget(m_result);
    previewLayout->addLayout(buttons);

    auto *top = new QWidget(this);
    auto *topHeader = new QHBoxLayout;
    topHeader->addWidget(m_summary, 1);
    topHeader->addWidget(m_showRaw);
    topHeader->addWidget(m_filter);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(topHeader);
    topLayout->addWidget(m_table, 1);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(top);
    m_splitter->addWidget(previewBox);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_splitter, 1);

    m_jobs = new JobTracker(this, JobTracker::Order::Parallel);
    m_previewTimer = new QTimer(this);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(0);
    connect(m_previewTimer, &QTimer::timeout, this, &ParameterEditor::updatePreview);
    // Someone may tune the device from a shell: re-read every two seconds while shown (edits stay).
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setInterval(2000);
    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        // Not while an editor is open in the table: a reset would close it under the user's fingers.
        const QWidget *focus = QApplication::focusWidget();
        const bool editing = focus && m_table->viewport()->isAncestorOf(focus);
        if (isVisible() && !m_session->isBusy() && !m_device.isEmpty() && !editing && !isReading())
            refresh();
    });
    m_refreshTimer->start();

    connect(m_model, &TunableTableModel::pendingChanged, this, [this] {
        updateSummary();
        schedulePreview();
    });
    // A new edit makes the last outcome stale (re-reads after a transaction do not count).
    connect(m_model, &QAbstractItemModel::dataChanged, this,
        [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
            if (topLeft.row() == bottomRight.row() && !m_waiting)
                m_result->hide();
        });
    connect(m_model, &TunableTableModel::editRejected, this, [this](const QString &attribute, const QString &message) {
        m_result->setText(QStringLiteral("<span style=\"color:%3\">%1: %2</span>")
                              .arg(TunableTableModel::displayName(attribute).toHtmlEscaped(), message.toHtmlEscaped(),
                                  messagestyle::htmlColor(MessageTone::Error)));
        m_result->show();
    });
    connect(m_scope, &QComboBox::currentIndexChanged, this, &ParameterEditor::schedulePreview);
    connect(m_previewButton, &QPushButton::clicked, this, &ParameterEditor::refresh);
    connect(m_revert, &QPushButton::clicked, this, &ParameterEditor::revert);
    connect(m_apply, &QPushButton::clicked, this, &ParameterEditor::apply);
    connect(m_session, &TuningSession::busyChanged, this, &ParameterEditor::updateActions);
    connect(m_session, &TuningSession::finished, this, &ParameterEditor::onFinished);

    showDevice(QString());
}

void ParameterEditor::setSnapshot(const DeviceSnapshot &snapshot)
{
    m_snapshot = snapshot;
    const QString requested = m_requested;
    m_requested.clear(); // force showDevice() to resolve again (a partition's disk may have changed)
    m_readBackOverCapture.clear(); // a new capture: it has them
    showDevice(requested);
}

void ParameterEditor::showDevice(const QString &name)
{
    if (name == m_requested && !name.isEmpty()) {
        refresh();
        return;
    }
    m_requested = name;
    QString device = name;
    QString partitionNote;
    if (const BlockDevice *disk = diskOfPartition(m_snapshot, name)) {
        device = disk->name;
        partitionNote = tr("%1 is a partition: it shares the queue of %2.").arg(name, disk->name);
    }
    if (device != m_device) {
        m_result->hide();
        m_filter->clear();
    }
    m_device = device;

    if (m_device.isEmpty()) {
        m_title->setText(QStringLiteral("<span style=\"font-size:large; font-weight:600\">%1</span>&nbsp;&nbsp;%2")
                             .arg(tr("Tune"), tr("select a block device or a multipath map in the tree")));
    } else {
        QString label = m_device;
        QString kind;
        if (const BlockDevice *d = m_snapshot.device(m_device)) {
            kind = deviceKindLabel(d->kind);
            if (const MultipathMap *map = d->kind == DeviceKind::Multipath ? m_snapshot.map(d->name) : nullptr)
                label = QStringLiteral("%1 (%2)").arg(map->name, d->name);
        }
        QString facts = kind;
        if (!partitionNote.isEmpty())
            facts += (facts.isEmpty() ? QString() : QStringLiteral(" · ")) + partitionNote;
        m_title->setText(QStringLiteral("<span style=\"font-size:large; font-weight:600\">%1</span>&nbsp;&nbsp;%2")
                             .arg(tr("Tune %1").arg(label.toHtmlEscaped()), facts.toHtmlEscaped()));
    }
    reloadTunables();
    updateScopeChoices();
    updateSummary();
    updatePreview();
}

void ParameterEditor::setSelectedDevices(const QStringList &devices)
{
    if (devices == m_selection)
        return;
    m_selection = devices;
    updateScopeChoices();
    schedulePreview();
}

void ParameterEditor::reloadTunables()
{
    m_model->setReadOnly(m_session->isReadOnly());
    if (m_device.isEmpty()) {
        m_readingTunables = false;
        m_model->setTunables(QString(), {});
        m_table->setVisible(true);
        return;
    }
    if (m_model->device() != m_device)
        m_model->setTunables(m_device, {}); // another device: its rows, not the last one's, while they are read
    m_readingTunables = true;
    // A queue directory of many files, some of which the kernel computes (a stalled device can take its time).
    m_jobs->startLatest(
        QStringLiteral("tunables"), QStringLiteral("read tunables of %1").arg(m_device),
        [sysfs = m_session->sysfs(), device = m_device](JobContext &) { return readTunables(sysfs, device); },
        [this, device = m_device](QList<Tunable> rows) {
            m_readingTunables = false;
            if (device != m_device)
                return; // the user moved on; the read for the device shown now is on its way
            for (Tunable &row : rows)
                row.value = m_readBackOverCapture.value(device + u'/' + row.attribute, row.value);
            m_model->setTunables(device, rows);
            m_table->setVisible(!rows.isEmpty());
            updateSummary();
            updateActions();
            Q_EMIT tunablesRead();
        });
}

void ParameterEditor::refresh()
{
    if (m_device.isEmpty())
        return;
    reloadTunables();
    updateSummary();
    updatePreview();
}

void ParameterEditor::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (event->spontaneous())
        return;
    if (!m_splitSized) {
        // The table gets most of the height; the preview what a handful of writes needs.
        m_splitSized = true;
        const int total = m_splitter->height() - m_splitter->handleWidth();
        if (total > 0)
            m_splitter->setSizes({ total * 62 / 100, total - total * 62 / 100 });
    }
    refresh();
}

QString ParameterEditor::mapDevice() const
{
    if (const BlockDevice *d = m_snapshot.device(m_device)) {
        if (d->isDeviceMapper() && !d->slaves.isEmpty())
            return d->name;
    }
    if (const MultipathMap *map = m_snapshot.mapOfPath(m_device))
        return map->device;
    return {};
}

void ParameterEditor::updateScopeChoices()
{
    const QString map = mapDevice();
    const BlockDevice *mapDev = m_snapshot.device(map);
    const MultipathMap *mp = m_snapshot.map(map);
    const QString mapName = mp ? mp->name : map;
    const auto paths = mapDev ? mapDev->slaves.size() : 0;
    const bool mapOk = !map.isEmpty() && paths > 0;
    const bool selectionOk = !m_selection.isEmpty() && m_selection != QStringList { m_device };

    m_scope->setItemText(0, m_device.isEmpty() ? tr("This device") : tr("This device (%1)").arg(m_device));
    m_scope->setItemText(
        1, mapOk ? tr("Map %1 and its %2 paths").arg(mapName).arg(paths) : tr("This map and all its paths"));
    m_scope->setItemText(2, mapOk ? tr("The %1 paths of %2").arg(paths).arg(mapName) : tr("All paths of the map"));
    m_scope->setItemText(
        3, selectionOk ? tr("Selection: %1 devices").arg(m_selection.size()) : tr("Selection (from the tree)"));
    const QString noMap = tr("%1 is neither a multipath map nor one of its paths").arg(m_device);
    setComboItemEnabled(m_scope, 1, mapOk, mapOk ? QString() : noMap);
    setComboItemEnabled(m_scope, 2, mapOk, mapOk ? QString() : noMap);
    setComboItemEnabled(m_scope, 3, selectionOk,
        selectionOk ? shortList(m_selection) : tr("Select several devices in the tree (Ctrl+click) to use this scope"));
    if (!isScopeAvailable(scope()))
        m_scope->setCurrentIndex(0);
}

bool ParameterEditor::isScopeAvailable(ChangeScope s) const
{
    const int row = m_scope->findData(int(s));
    auto *model = qobject_cast<QStandardItemModel *>(m_scope->model());
    return row >= 0 && model && model->item(row) && model->item(row)->isEnabled();
}

void ParameterEditor::setScope(ChangeScope s)
{
    const int row = m_scope->findData(int(s));
    if (row >= 0 && isScopeAvailable(s))
        m_scope->setCurrentIndex(row);
}

ChangeScope ParameterEditor::scope() const
{
    return ChangeScope(m_scope->currentData().toInt());
}

Result<QStringList> ParameterEditor::scopeDevices() const
{
    if (m_device.isEmpty())
        return Result<QStringList>::failure(tr("no device selected"));
    switch (scope()) {
    case ChangeScope::Device:
        return dmtune::scopeDevices(m_snapshot, ChangeScope::Device, { m_device });
    case ChangeScope::MapAndPaths:
    case ChangeScope::PathsOfMap: {
        const QString map = mapDevice();
        if (map.isEmpty())
            return Result<QStringList>::failure(tr("%1 is not a map with paths").arg(m_device));
        return dmtune::scopeDevices(m_snapshot, scope(), { map });
    }
    case ChangeScope::Selection:
        return dmtune::scopeDevices(m_snapshot, ChangeScope::Selection, m_selection);
    }
    return Result<QStringList>::failure(tr("unknown scope"));
}

Result<ChangeSet> ParameterEditor::changeSet() const
{
    const QList<Assignment> assignments = m_model->pendingAssignments();
    if (assignments.isEmpty())
        return ChangeSet();
    const auto devices = scopeDevices();
    if (!devices)
        return Result<ChangeSet>::failure(devices.errorMessage());
    return makeChangeSet(*devices, assignments);
}

void ParameterEditor::schedulePreview()
{
    m_previewTimer->start();
}

void ParameterEditor::updatePreview()
{
    m_previewTimer->stop();
    const auto devices = scopeDevices();
    // "This device (sdb)" says it all; other scopes list what they cover.
    m_scopeDevices->setText(devices && scope() != ChangeScope::Device ? shortList(*devices) : QString());
    m_scopeDevices->setToolTip(devices ? devices->join(QStringLiteral(", ")) : QString());

    const quint64 generation = ++m_previewGeneration;
    const auto changes = changeSet();
    if (!changes || changes->isEmpty()) {
        m_planning = false;
        m_applyWhenPlanned = false;
        showPlan(changes, Result<OperationPlan>::failure(QString()));
        return;
    }
    // The plan reads the current value of every attribute it writes: a job. The run re-reads them and refuses the
    // plan if they changed.
    m_planning = true;
    m_problems->setText(tr("<i>Reading the current values…</i>"));
    m_problems->setVisible(true);
    updateActions();
    m_jobs->startLatest(
        QStringLiteral("preview"), QStringLiteral("plan tuning.apply"),
        [env = m_session->operationEnvironment(), planned = *changes](
            JobContext &) { return planOperation(env, QString::fromLatin1(TuningApplyKind), tuningRequest(planned)); },
        [this, generation, changes](const Result<OperationPlan> &operation) {
            if (generation != m_previewGeneration)
                return; // the edits, the scope or the device changed since: a newer plan is on its way
            m_planning = false;
            showPlan(changes, operation);
            if (std::exchange(m_applyWhenPlanned, false))
                applyPlanned();
        });
}

void ParameterEditor::showPlan(const Result<ChangeSet> &changes, const Result<OperationPlan> &operation)
{
    m_plan = Plan();
    m_operation = OperationPlan();
    m_planned.clear();
    QString problems;
    if (!changes) {
        problems = QStringLiteral("<span style=\"color:%2\">%1</span>")
                       .arg(changes.errorMessage().toHtmlEscaped(), messagestyle::htmlColor(MessageTone::Error));
    } else if (!changes->isEmpty()) {
        if (operation && tuningPlanOf(operation.value())) {
            m_operation = operation.value();
            m_plan = *tuningPlanOf(m_operation);
            m_planned = *changes;
        } else {
            problems = QStringLiteral("<span style=\"color:%2\">%1</span>")
                           .arg(operation.errorMessage().toHtmlEscaped(), messagestyle::htmlColor(MessageTone::Error));
        }
        if (!m_plan.ok()) {
            QStringList lines;
            for (const auto &e : m_plan.errors)
                lines << QStringLiteral("<li>%1</li>").arg(e.text().toHtmlEscaped());
            problems = tr("<span style=\"color:%2; font-weight:600\">Cannot apply</span> "
                          "(nothing would be written):<ul style=\"margin:0\">%1</ul>")
                           .arg(lines.join(QString()), messagestyle::htmlColor(MessageTone::Error));
        }
    }
    m_previewModel->setPlan(m_plan);
    m_preview->resizeColumnsToContents();
    QString warnings = warningsHtml(m_plan.warnings);
    for (const DataRisk &r : std::as_const(m_plan.risks))
        warnings += tr("<p><span style=\"color:%2; font-weight:600\">Puts data at risk:</span> %1 "
                       "(Apply asks you to confirm)</p>")
                        .arg(r.text().toHtmlEscaped(), messagestyle::htmlColor(MessageTone::Error));
    m_warnings->setText(warnings);
    m_warnings->setVisible(!warnings.isEmpty());
    m_problems->setText(problems);
    m_problems->setVisible(!problems.isEmpty());
    updateActions();
    Q_EMIT previewUpdated();
}

bool ParameterEditor::apply()
{
    if (!m_session->canApply() || pendingRiskConfirmation() || m_waiting)
        return false;
    const auto changes = changeSet();
    if (!changes || changes->isEmpty())
        return false;
    if (m_planning || m_planned != *changes) {
        // The preview is not this change set's plan yet: plan it (a job), then apply what it says.
        m_applyWhenPlanned = true;
        updatePreview();
        return true;
    }
    return applyPlanned();
}

bool ParameterEditor::applyPlanned()
{
    if (m_planned.isEmpty() || !m_operation.runnable() || !m_session->canApply() || pendingRiskConfirmation())
        return false;
    if (!m_operation.needsAnswers())
        return startRun(m_operation, acceptAll(m_operation));
    // The operation found the risk; this only asks. No nested event loop: the plan shown runs on answered(),
    // and the run refuses it if the attributes changed since (edits made meanwhile are planned and asked anew).
    m_confirmRisk = new PlanDialog(m_operation, this);
    m_confirmRisk->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_confirmRisk, &PlanDialog::answered, this,
        [this, asked = m_operation](const OperationAnswers &answers) { startRun(asked, answers); });
    m_confirmRisk->open();
    return true;
}

PlanDialog *ParameterEditor::pendingRiskConfirmation() const
{
    return m_confirmRisk && m_confirmRisk->isVisible() ? m_confirmRisk.data() : nullptr;
}

bool ParameterEditor::startRun(const OperationPlan &plan, const OperationAnswers &answers)
{
    if (!m_session->run(plan, answers))
        return false;
    m_waiting = true;
    m_result->setText(m_session->applier()->usesHelper()
            ? tr("Applying through pkexec dmtune-helper… (authorization may be asked)")
            : tr("Applying…"));
    m_result->show();
    updateActions();
    return true;
}

void ParameterEditor::revert()
{
    m_model->clearPending();
    m_result->hide();
}

void ParameterEditor::onFinished(const ApplyResult &result, bool wasUndo)
{
    // The transaction read its values back: the table shows them at once, before the re-read below (a job) arrives.
    if (!result.dryRun && m_model->device() == m_device) {
        QList<Tunable> rows = m_model->tunables();
        bool changed = false;
        for (const auto &c : result.changes) {
            if (!m_session->sysfs().isLive() && !c.newValue.isEmpty())
                m_readBackOverCapture.insert(c.device + u'/' + c.attribute, c.newValue);
            const int row = c.device == m_device && !c.newValue.isEmpty() ? m_model->rowOf(c.attribute) : -1;
            if (row >= 0 && rows[row].value != c.newValue) {
                rows[row].value = c.newValue;
                changed = true;
            }
        }
        if (changed)
            m_model->setTunables(m_device, rows);
    }
    // Applied edits drop out of the table (also when the kernel kept another value: the outcome
    // says so); the edits of a failed transaction stay for another try.
    if (m_waiting && !wasUndo && result.ok()) {
        for (const auto &c : result.changes) {
            if (c.device == m_device && c.written) {
                const int row = m_model->rowOf(c.attribute);
                if (row >= 0 && m_model->tunables().at(row).pending == c.requested)
                    m_model->setPending(c.attribute, QString());
            }
        }
    }
    refresh();
    if (m_waiting && !wasUndo) {
        m_waiting = false;
        m_result->setText(result.ok()
                ? applySuccessHtml(result)
                : applyErrorHtml(result, result.rejected() ? tr("Not applied") : tr("Apply failed")));
        m_result->show();
        updateActions();
        Q_EMIT applyFinished(result);
    }
}

void ParameterEditor::updateSummary()
{
    if (m_device.isEmpty()) {
        m_summary->clear();
        return;
    }
    const auto &rows = m_model->tunables();
    if (rows.isEmpty()) {
        m_summary->setText(m_readingTunables ? tr("<i>Reading the queue attributes of %1…</i>").arg(m_device)
                                             : tr("%1 has no queue attributes to tune.").arg(m_device));
        return;
    }
    int writable = 0, ignored = 0, pending = 0, raw = 0, readOnly = 0;
    for (const auto &t : rows) {
        writable += TunableTableModel::isEditable(t) ? 1 : 0;
        ignored += t.ignored ? 1 : 0;
        raw += t.known ? 0 : 1;
        readOnly += t.known && !t.ignored && !TunableTableModel::isEditable(t) ? 1 : 0;
        pending += t.hasPending() && t.pending != t.value ? 1 : 0;
    }
    QStringList parts { tr("%1 tunable").arg(writable) };
    if (ignored)
        parts << tr("%1 ignored by current kernels (grey)").arg(ignored);
    if (readOnly)
        parts << tr("%1 read-only").arg(readOnly);
    if (raw)
        parts << (m_proxy->showRaw() ? tr("%1 other attributes") : tr("%1 other attributes (hidden)")).arg(raw);
    QString text = parts.join(QStringLiteral(", "));
    if (pending)
        text += QStringLiteral(" · ")
            + (pending == 1 ? tr("<b>%1 pending edit</b>") : tr("<b>%1 pending edits</b>")).arg(pending);
    else if (m_session->isReadOnly())
        text += QStringLiteral(" · ") + tr("read-only here (a captured system): Writable says what that system allows");
    else
        text += QStringLiteral(" · ") + tr("double-click a New value to edit");
    if (const BlockDevice *d = m_snapshot.device(m_device); d && d->kind == DeviceKind::Multipath) {
        QStringList knobs;
        for (const auto &k : catalog::ignoredTableKnobs()) {
            if (!k.name.contains(QLatin1Char('/')))
                knobs << QStringLiteral("%1 (%2)").arg(k.name, k.note);
        }
        if (!knobs.isEmpty())
            text
                += QStringLiteral("<br>") + tr("Not offered: %1").arg(knobs.join(QStringLiteral("; ")).toHtmlEscaped());
    }
    m_summary->setText(text);
}

void ParameterEditor::updateActions()
{
    const bool busy = m_session->isBusy();
    const bool pending = m_model->hasPending();
    m_revert->setEnabled(pending && !m_waiting);
    // Revert drops pending edits; applied values are not edits any more: Edit > Undo last change puts them back.
    m_revert->setToolTip(m_waiting ? tr("Applying: the edits are being written")
            : pending              ? tr("Drop every pending edit (nothing is written)")
                                   : tr("Nothing to revert: no pending edits (applied values stay; "
                                                     "Edit > Undo last change puts the last applied change back)"));
    m_previewButton->setEnabled(!m_device.isEmpty());
    bool anyChange = false;
    for (const auto &w : m_plan.writes) {
        const TunableDef *def = catalog::find(w.attribute);
        anyChange = anyChange || w.oldValue.isEmpty() || !def || !sameValue(*def, w.oldValue, w.value);
    }
    m_apply->setEnabled(!busy && !m_planning && !m_session->isReadOnly() && m_plan.ok() && anyChange);
    if (m_session->isReadOnly())
        m_apply->setToolTip(tr("Read-only: a captured tree is inspected, never written."));
    else if (m_session->applier()->usesHelper())
        m_apply->setToolTip(tr("Write the previewed values through pkexec dmtune-helper, as one transaction."));
    else
        m_apply->setToolTip(tr("Write the previewed values in this process, as one transaction."));
}

QString ParameterEditor::warningText() const
{
    return plain(m_warnings->text());
}

QString ParameterEditor::problemText() const
{
    return plain(m_problems->text());
}

QString ParameterEditor::resultText() const
{
    return m_result->isHidden() ? QString() : plain(m_result->text());
}

} // namespace dmtune
