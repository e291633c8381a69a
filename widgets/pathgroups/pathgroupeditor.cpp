#include "widgets/pathgroups/pathgroupeditor.h"
#include "widgets/messagestyle.h"

#include "core/dm/grammar/tablediff.h"
#include "core/dm/mapsafety.h"
#include "core/ops/operationservice.h"
#include "widgets/ops/plandialog.h"
#include "widgets/pathgroups/pathgroupcolumns.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace dmtune {

namespace {

QString groupStateWord(QChar state)
{
    if (state == QLatin1Char('A'))
        return QStringLiteral("active");
    if (state == QLatin1Char('D'))
        return QStringLiteral("disabled");
    return QStringLiteral("enabled");
}

} // namespace

PathGroupEditor::PathGroupEditor(QWidget *parent)
    : QWidget(parent)
{
    buildUi();
    // Two cards (most maps' groups) made now, hidden: the first map shown then only fills them, instead of
    // stalling the window for a card's first construction and polish (tens of ms) when its state comes in.
    columnAt(1);
    for (PathGroupColumn *column : std::as_const(m_columns))
        column->hide();
    setUnavailable(QString(), tr("Select a multipath map in the tree to see and edit its path groups."));
}

PathGroupEditor::~PathGroupEditor() = default;

void PathGroupEditor::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("pathGroupTitle"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.1);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    m_bannerLabel = new QLabel;
    m_bannerLabel->setObjectName(QStringLiteral("pathGroupBanner"));
    m_bannerLabel->setTextFormat(Qt::PlainText); // reasons come from the kernel, multipathd or a remote agent
    m_bannerLabel->setWordWrap(true);
    m_bannerLabel->setMargin(5);
    m_bannerLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_bannerLabel);

    // Features and hardware handler, one row.
    m_featureRow = new QWidget;
    m_featureRow->setObjectName(QStringLiteral("pathGroupFeatures"));
    auto *features = new QGridLayout(m_featureRow);
    features->setContentsMargins(0, 0, 0, 0);
    m_queueIfNoPath = new QCheckBox(QStringLiteral("queue_if_no_path"));
    m_queueIfNoPath->setToolTip(tr("Queue I/O while no path is left instead of failing it. multipathd's "
                                   "no_path_retry turns it off after that many checks."));
    m_pgInitRetriesOn = new QCheckBox(QStringLiteral("pg_init_retries"));
    m_pgInitRetries = new QSpinBox;
    m_pgInitRetries->setRange(1, 50);
    for (QWidget *w : std::initializer_list<QWidget *> { m_pgInitRetriesOn, m_pgInitRetries })
        w->setToolTip(tr("How often the hardware handler retries initialising a group (1-50). "
                         "Off: the kernel's default (no retries)."));
    m_pgInitDelayOn = new QCheckBox(QStringLiteral("pg_init_delay_msecs"));
    m_pgInitDelay = new QSpinBox;
    m_pgInitDelay->setRange(0, 60000);
    m_pgInitDelay->setSingleStep(100);
    for (QWidget *w : std::initializer_list<QWidget *> { m_pgInitDelayOn, m_pgInitDelay })
        w->setToolTip(tr("Milliseconds between those retries (0-60000). Off: the kernel's default, "
                         "2000 ms."));
    m_retainHwHandler = new QCheckBox(QStringLiteral("retain_attached_hw_handler"));
    m_retainHwHandler->setToolTip(tr("Keep a SCSI device handler already attached to the paths (e.g. "
                                     "alua by scsi_dh) instead of the one the table names."));
    m_hwHandler = new QComboBox;
    m_hwHandler->setEditable(true);
    m_hwHandler->addItems({ QStringLiteral("none"), QStringLiteral("alua"), QStringLiteral("emc"),
        QStringLiteral("rdac"), QStringLiteral("hp_sw") });
    m_hwHandler->setToolTip(tr("Hardware handler (scsi_dh module) that initialises a group before use"));
    m_hwHandlerArgs = new QLineEdit;
    m_hwHandlerArgs->setPlaceholderText(tr("handler args"));
    m_hwHandlerArgs->setMinimumWidth(90);
    m_hwHandlerArgs->setMaximumWidth(110);
    m_hwHandlerArgs->setToolTip(tr("Arguments for the handler (e.g. emc: \"1\" for short trespass); the "
                                   "kernel does not print them back"));
    m_initialGroup = new QSpinBox;
    m_initialGroup->setToolTip(tr("The group the first I/O uses after a reload"));
    // Three short rows, so that the tab stays narrow enough next to the device tree.
    features->setHorizontalSpacing(6);
    features->setVerticalSpacing(2);
    features->addWidget(m_queueIfNoPath, 0, 0, 1, 2);
    features->addWidget(m_retainHwHandler, 0, 2, 1, 2);
    features->addWidget(m_pgInitRetriesOn, 1, 0);
    features->addWidget(m_pgInitRetries, 1, 1, Qt::AlignLeft);
    features->addWidget(m_pgInitDelayOn, 1, 2);
    features->addWidget(m_pgInitDelay, 1, 3, Qt::AlignLeft);
    features->addWidget(new QLabel(tr("hw handler")), 2, 0);
    auto *handler = new QHBoxLayout;
    handler->addWidget(m_hwHandler);
    handler->addWidget(m_hwHandlerArgs);
    features->addLayout(handler, 2, 1);
    features->addWidget(new QLabel(tr("initial group")), 2, 2);
    features->addWidget(m_initialGroup, 2, 3, Qt::AlignLeft);
    features->setColumnStretch(4, 1);
    layout->addWidget(m_featureRow);

    for (QCheckBox *box : { m_queueIfNoPath, m_pgInitRetriesOn, m_pgInitDelayOn, m_retainHwHandler })
        connect(box, &QCheckBox::toggled, this, &PathGroupEditor::featuresEdited);
    for (QSpinBox *spin : { m_pgInitRetries, m_pgInitDelay })
        connect(spin, &QSpinBox::valueChanged, this, &PathGroupEditor::featuresEdited);
    connect(m_hwHandler, &QComboBox::currentTextChanged, this, &PathGroupEditor::featuresEdited);
    connect(m_hwHandlerArgs, &QLineEdit::editingFinished, this, &PathGroupEditor::featuresEdited);
    connect(m_initialGroup, &QSpinBox::valueChanged, this, [this](int group) {
        if (!m_updatingWidgets)
            setInitialGroup(group);
    });

    // The groups, side by side.
    m_groupScroll = new QScrollArea;
    m_groupScroll->setObjectName(QStringLiteral("pathGroupScroll"));
    m_groupScroll->setWidgetResizable(true);
    m_groupScroll->setFrameShape(QFrame::NoFrame);
    m_groupScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    auto *groups = new QWidget;
    auto *groupsAndNew = new QVBoxLayout(groups);
    groupsAndNew->setContentsMargins(0, 0, 0, 0);
    groupsAndNew->setSpacing(4);
    m_groupLayout = new QHBoxLayout;
    m_groupLayout->setContentsMargins(0, 0, 0, 0);
    groupsAndNew->addLayout(m_groupLayout, 1);
    m_newGroup = new NewGroupDropZone(this);
    groupsAndNew->addWidget(m_newGroup);
    m_unknownPaths = new QLabel;
    m_unknownPaths->setWordWrap(true);
    m_unknownPaths->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_groupLayout->addStretch(0);
    groupsAndNew->addWidget(m_unknownPaths, 1); // no cards: the paths read-only, the whole width
    m_groupScroll->setWidget(groups);
    layout->addWidget(m_groupScroll, 1);

    // The result: the table line, the difference, what is wrong, Apply.
    m_resultArea = new QWidget;
    auto *result = new QGridLayout(m_resultArea);
    result->setContentsMargins(0, 0, 0, 0);
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_preview = new QPlainTextEdit;
    m_preview->setObjectName(QStringLiteral("tablePreview"));
    m_diff = new QPlainTextEdit;
    m_diff->setObjectName(QStringLiteral("tableDiff"));
    for (QPlainTextEdit *edit : { m_preview, m_diff }) {
        edit->setReadOnly(true);
        edit->setFont(fixed);
        edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
        edit->setMaximumHeight(QFontMetrics(fixed).lineSpacing() * 4 + 12);
        edit->setMinimumHeight(QFontMetrics(fixed).lineSpacing() * 2 + 12);
    }
    m_diff->setPlaceholderText(tr("No changes: drag paths, pick selectors or features above."));
    result->addWidget(new QLabel(tr("New table (multipath params)")), 0, 0);
    result->addWidget(new QLabel(tr("Changes from the live table")), 0, 1);
    result->addWidget(m_preview, 1, 0);
    result->addWidget(m_diff, 1, 1);
    result->setColumnStretch(0, 1);
    result->setColumnStretch(1, 1);
    layout->addWidget(m_resultArea);

    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("pathGroupProblem"));
    m_problem->setWordWrap(true);
    QPalette red = m_problem->palette();
    red.setColor(QPalette::WindowText, messagestyle::text(MessageTone::Error, red));
    m_problem->setPalette(red);
    m_notes = new QLabel;
    m_notes->setObjectName(QStringLiteral("pathGroupNotes"));
    m_notes->setWordWrap(true);
    m_notes->setFont(pathgroupcolumns::smaller(font()));
    auto *buttons = new QHBoxLayout;
    auto *messages = new QVBoxLayout;
    messages->addWidget(m_problem);
    messages->addWidget(m_notes);
    buttons->addLayout(messages, 1);
    m_reset = new QPushButton(tr("&Reset"));
    m_reset->setToolTip(tr("Drop the edits: back to the live table"));
    m_apply = new QPushButton(tr("&Apply…"));
    m_apply->setObjectName(QStringLiteral("applyPathGroups"));
    m_apply->setToolTip(tr("Reload the map with the new table (asks first)"));
    buttons->addWidget(m_reset, 0, Qt::AlignBottom);
    buttons->addWidget(m_apply, 0, Qt::AlignBottom);
    layout->addLayout(buttons);
    connect(m_reset, &QPushButton::clicked, this, &PathGroupEditor::resetDraft);
    connect(m_apply, &QPushButton::clicked, this, &PathGroupEditor::apply);
}

void PathGroupEditor::setRunner(OperationService *runner)
{
    m_runner = runner;
    refreshResult();
}

PlanDialog *PathGroupEditor::pendingPlan() const
{
    return m_planDialog.data();
}

void PathGroupEditor::setMap(const QString &map, const MultipathTable &table, const MultipathStatus &status,
    const QHash<QString, QString> &deviceNames)
{
    const bool sameMap = map == m_map && m_editable;
    if (map != m_map)
        m_multipathd.reset(); // another map's priorities
    m_map = map;
    m_status = status;
    m_names = deviceNames;
    m_editable = true;
    if (!sameMap) {
        m_draft.reset(table);
        m_rebased = false;
        m_applying = false;
        setBanner(QString(), false);
    } else if (table == m_draft.current()) {
        // Only the live values moved.
    } else if (table == m_draft.table() || !m_draft.isModified()) {
        m_draft.reset(table);
        m_rebased = false;
    } else {
        m_draft.rebase(table);
        m_rebased = true;
        setBanner(tr("The live table of %1 changed while you edited (multipathd or someone else reloaded "
                     "it). Your edits stay; the changes below are against the new live table.")
                      .arg(map),
            false);
    }
    refresh();
}

void PathGroupEditor::setUnavailable(const QString &map, const QString &reason, const QStringList &paths)
{
    m_map = map;
    m_editable = false;
    m_applying = false;
    m_rebased = false;
    m_draft.reset(MultipathTable());
    m_status = MultipathStatus();
    m_names.clear();
    m_unknownPaths->setText(paths.isEmpty()
            ? QString()
            : tr("Paths of %1 (from sysfs; their groups are unknown): %2").arg(map, paths.join(QStringLiteral(", "))));
    setBanner(map.isEmpty() ? reason : tr("The path groups of %1 are unknown: %2. Editing is off.").arg(map, reason),
        !map.isEmpty());
    refresh();
}

void PathGroupEditor::setBanner(const QString &text, bool error)
{
    m_banner = text;
    m_bannerError = error;
    m_bannerLabel->setText(text);
    m_bannerLabel->setVisible(!text.isEmpty());
    m_bannerLabel->setStyleSheet(
        messagestyle::bannerStyleSheet(error ? MessageTone::Error : MessageTone::Warning, palette()));
}

QString PathGroupEditor::bannerText() const
{
    return m_banner;
}

bool PathGroupEditor::movePath(const QString &device, int group, int row)
{
    if (!m_editable || m_applying)
        return false;
    const Status moved = m_draft.movePath(device, group, row);
    if (!moved)
        setBanner(moved.errorMessage(), true);
    refresh();
    return bool(moved);
}

bool PathGroupEditor::movePathToNewGroup(const QString &device)
{
    if (!m_editable || m_applying)
        return false;
    const Status moved = m_draft.movePathToNewGroup(device);
    if (!moved)
        setBanner(moved.errorMessage(), true);
    refresh();
    return bool(moved);
}

QMessageBox *PathGroupEditor::pendingConfirmation() const
{
    return qobject_cast<QMessageBox *>(m_pendingBox.data());
}

void PathGroupEditor::setIdentity(const MapIdentity &identity)
{
    m_identity = identity;
}

QString PathGroupEditor::devnumOf(const QString &device) const
{
    if (m_names.contains(device))
        return device;
    for (auto it = m_names.cbegin(); it != m_names.cend(); ++it) {
        if (it.value() == device)
            return it.key();
    }
    for (const PathIdentity &path : m_identity.paths) {
        if (path.name == device || path.device == device)
            return path.device;
    }
    return {};
}

QStringList PathGroupEditor::addRisks(const QString &devnum, int group, int row) const
{
    PathGroupDraft trial = m_draft;
    if (!trial.addPath(devnum, group, row))
        return {};
    MapIdentity identity = m_identity;
    identity.map = m_map;
    return identityRisks(identity, m_draft.current(), trial.table());
}

bool PathGroupEditor::addPath(const QString &device, int group, int row)
{
    if (!m_editable || m_applying)
        return false;
    if (m_pendingBox) {
        setBanner(tr("Answer the question about %1 first.").arg(m_pendingAdd.devnum), true);
        return false;
    }
    const QString devnum = devnumOf(device);
    if (devnum.isEmpty()) {
        setBanner(tr("%1 is not a block device of this machine (as last discovered).").arg(device), true);
        return false;
    }
    PathGroupDraft trial = m_draft;
    if (const Status added = trial.addPath(devnum, group, row); !added) {
        setBanner(added.errorMessage(), true);
        refresh();
        return false;
    }
    const QStringList risks = addRisks(devnum, group, row);
    if (risks.isEmpty()) {
        m_draft = trial;
        refresh();
        return true;
    }
    const QString name = m_names.value(devnum);
    const QString label = name.isEmpty() ? devnum : QStringLiteral("%1 (%2)").arg(name, devnum);
    m_pendingAdd = PendingAdd { m_map, devnum, group, row, m_draft.table(), risks,
        addPathConfirmation(m_map, label, group + 1, risks) };
    const OpenedConfirmation opened = openConfirmation(this, m_pendingAdd.confirmation);
    opened.box->setObjectName(QStringLiteral("addPathConfirmation"));
    m_pendingBox = opened.box;
    connect(opened.box, &QMessageBox::buttonClicked, this, [this, accept = opened.accept](QAbstractButton *button) {
        if (button == accept) {
            addAccepted();
        } else {
            setBanner(tr("%1 was not added to %2.").arg(m_pendingAdd.devnum, m_pendingAdd.map), false);
            refresh();
        }
    });
    Q_EMIT confirmationOpened(m_pendingAdd.confirmation);
    return false;
}

void PathGroupEditor::addAccepted()
{
    const PendingAdd plan = m_pendingAdd;
    // Asked about one draft of one map: anything else is not what the user said yes to.
    if (!m_editable || m_applying || m_map != plan.map || !(m_draft.table() == plan.draft)) {
        setBanner(tr("%1 was not added: %2 or its draft changed while you were asked. Drag it in again.")
                      .arg(plan.devnum, plan.map),
            true);
        refresh();
        return;
    }
    PathGroupDraft trial = m_draft;
    const Status added = trial.addPath(plan.devnum, plan.group, plan.row);
    if (!added || addRisks(plan.devnum, plan.group, plan.row) != plan.risks) {
        setBanner(tr("%1 was not added: what the disks report changed while you were asked. Drag it in "
                     "again.")
                      .arg(plan.devnum),
            true);
        refresh();
        return;
    }
    m_draft = trial;
    setBanner(tr("%1 is in the draft although it may be another disk than %2: %3 Apply asks again.")
                  .arg(plan.devnum, plan.map, plan.risks.join(QStringLiteral("; "))),
        true);
    refresh();
}

bool PathGroupEditor::moveGroup(int from, int to)
{
    if (!m_editable || m_applying)
        return false;
    const Status moved = m_draft.moveGroup(from, to);
    refresh();
    return bool(moved);
}

bool PathGroupEditor::setSelector(int group, const QString &selector)
{
    if (!m_editable || m_applying)
        return false;
    const Status set = m_draft.setSelector(group, selector);
    refresh();
    return bool(set);
}

bool PathGroupEditor::setSelectorArgs(int group, const QStringList &args)
{
    if (!m_editable || m_applying)
        return false;
    const Status set = m_draft.setSelectorArgs(group, args);
    refresh();
    return bool(set);
}

bool PathGroupEditor::setPathArg(const QString &device, int index, const QString &value)
{
    if (!m_editable || m_applying)
        return false;
    const Status set = m_draft.setPathArg(device, index, value);
    refresh();
    return bool(set);
}

bool PathGroupEditor::setInitialGroup(int group)
{
    if (!m_editable || m_applying)
        return false;
    const Status set = m_draft.setInitialGroup(group);
    refresh();
    return bool(set);
}

void PathGroupEditor::setFeatures(const MultipathFeatures &features)
{
    if (!m_editable || m_applying)
        return;
    m_draft.setFeatures(features);
    refresh();
}

void PathGroupEditor::setHwHandler(const QStringList &words)
{
    if (!m_editable || m_applying)
        return;
    m_draft.setHwHandler(words);
    refresh();
}

void PathGroupEditor::featuresEdited()
{
    if (m_updatingWidgets || !m_editable)
        return;
    MultipathFeatures f = m_draft.features();
    f.queueIfNoPath = m_queueIfNoPath->isChecked();
    f.pgInitRetries = m_pgInitRetriesOn->isChecked() ? m_pgInitRetries->value() : 0;
    f.pgInitDelayMsecs = m_pgInitDelayOn->isChecked() ? m_pgInitDelay->value() : -1;
    f.retainAttachedHwHandler = m_retainHwHandler->isChecked();
    m_draft.setFeatures(f);
    const QString handler = m_hwHandler->currentText().trimmed();
    QStringList hw;
    if (!handler.isEmpty() && handler != QLatin1String("none"))
        hw << handler << pathgroupcolumns::words(m_hwHandlerArgs->text());
    m_draft.setHwHandler(hw);
    refresh();
}

void PathGroupEditor::resetDraft()
{
    if (!m_editable || m_applying)
        return;
    m_draft.reset(m_draft.current());
    m_rebased = false;
    setBanner(QString(), false);
    refresh();
}

void PathGroupEditor::setMultipathdView(const std::optional<MultipathdMapView> &view)
{
    if (view == m_multipathd)
        return;
    m_multipathd = view;
    if (m_editable)
        refresh();
}

// multipathd's group of that number in the shown map's view; null when it does not know it.
static const MultipathdGroupView *multipathdGroup(const std::optional<MultipathdMapView> &view, int number)
{
    if (!view)
        return nullptr;
    for (const MultipathdGroupView &group : view->groups) {
        if (group.number == number)
            return &group;
    }
    return nullptr;
}

QSize PathGroupEditor::sizeHint() const
{
    QSize hint = QWidget::sizeHint();
    if (const QWidget *cards = m_groupScroll->widget()) {
        const int wanted = cards->sizeHint().height() + m_groupScroll->horizontalScrollBar()->sizeHint().height();
        hint.rheight() += std::max(0, wanted - m_groupScroll->sizeHint().height());
    }
    return hint;
}

QHash<QString, LivePath> PathGroupEditor::livePaths() const
{
    QHash<QString, LivePath> live;
    const MultipathTable &current = m_draft.current();
    for (int g = 0; g < m_status.groups.size(); ++g) {
        const QString selector = g < current.groups.size() ? current.groups.at(g).selector : QString();
        const MultipathdGroupView *mpd = multipathdGroup(m_multipathd, g + 1);
        for (const PathStatus &path : m_status.groups.at(g).paths) {
            LivePath entry { path, selector, g + 1 };
            for (const MultipathdPathView &p : mpd ? mpd->paths : QList<MultipathdPathView>()) {
                if (p.devT == path.device) {
                    entry.priority = p.priority;
                    entry.checkerState = p.checkerState;
                    entry.deviceState = p.deviceState;
                }
            }
            live.insert(path.device, entry);
        }
    }
    return live;
}

QStringList PathGroupEditor::failedDevices() const
{
    QStringList failed;
    for (const GroupStatus &group : m_status.groups) {
        for (const PathStatus &path : group.paths) {
            if (!path.active)
                failed << path.device;
        }
    }
    return failed;
}

PathGroupColumn *PathGroupEditor::columnAt(int index)
{
    while (m_columns.size() <= index) {
        auto *column = new PathGroupColumn(this);
        m_groupLayout->insertWidget(int(m_columns.size()), column);
        m_columns.append(column);
    }
    return m_columns.at(index);
}

void PathGroupEditor::refresh()
{
    m_updatingWidgets = true;
    const MultipathTable &table = m_draft.table();
    if (m_map.isEmpty()) {
        m_title->setText(tr("Path groups"));
    } else if (!m_editable) {
        m_title->setText(tr("Path groups of %1").arg(m_map));
    } else {
        int active = 0;
        int paths = 0;
        for (const GroupStatus &group : m_status.groups) {
            active += group.activePathCount();
            paths += int(group.paths.size());
        }
        QString title = tr("Path groups of %1 · %2 of %3 paths active").arg(m_map).arg(active).arg(paths);
        title += QStringLiteral(" · ")
            + (m_status.activeGroup() ? tr("group %1 in use").arg(m_status.activeGroup())
                                      : tr("no group in use yet (next: %1)").arg(m_status.nextGroup));
        if (m_draft.isModified())
            title += QStringLiteral(" · ") + tr("edited");
        m_title->setText(title);
    }
    m_featureRow->setEnabled(m_editable && !m_applying);
    refreshFeatures();
    refreshGroups();
    m_initialGroup->setRange(table.groups.isEmpty() ? 0 : 1, int(table.groups.size()));
    m_initialGroup->setValue(table.initialGroup);
    m_updatingWidgets = false;
    refreshResult();
}

void PathGroupEditor::refreshFeatures()
{
    const MultipathFeatures f = m_draft.features();
    m_queueIfNoPath->setChecked(f.queueIfNoPath);
    m_pgInitRetriesOn->setChecked(f.pgInitRetries > 0);
    m_pgInitRetries->setEnabled(f.pgInitRetries > 0);
    if (f.pgInitRetries > 0)
        m_pgInitRetries->setValue(f.pgInitRetries);
    m_pgInitDelayOn->setChecked(f.pgInitDelayMsecs >= 0);
    m_pgInitDelay->setEnabled(f.pgInitDelayMsecs >= 0);
    m_pgInitDelay->setValue(f.pgInitDelayMsecs >= 0 ? f.pgInitDelayMsecs : 2000);
    m_retainHwHandler->setChecked(f.retainAttachedHwHandler);
    const QStringList &hw = m_draft.table().hwHandler;
    m_hwHandler->setCurrentText(hw.isEmpty() ? QStringLiteral("none") : hw.first());
    if (!m_hwHandlerArgs->hasFocus())
        m_hwHandlerArgs->setText(hw.mid(1).join(QLatin1Char(' ')));
    m_hwHandlerArgs->setEnabled(!hw.isEmpty());
}

void PathGroupEditor::refreshGroups()
{
    const MultipathTable &table = m_draft.table();
    const QHash<QString, LivePath> live = livePaths();
    const int count = m_editable ? int(table.groups.size()) : 0;
    for (int g = 0; g < count; ++g) {
        const PathGroupSpec &spec = table.groups.at(g);
        const int origin = m_draft.originOf(g);
        const GroupStatus *status
            = origin >= 0 && origin < m_status.groups.size() ? &m_status.groups.at(origin) : nullptr;
        QString title = origin < 0 ? tr("New group %1").arg(g + 1)
            : origin == g          ? tr("Group %1").arg(g + 1)
                                   : tr("Group %1 (was %2)").arg(g + 1).arg(origin + 1);
        if (status)
            title += QStringLiteral(" · ") + groupStateWord(status->state);
        int active = 0;
        for (const PathSpec &path : spec.paths)
            active += live.value(path.device).status.active && live.contains(path.device) ? 1 : 0;
        QString subtitle = tr("%1 of %2 paths active").arg(active).arg(spec.paths.size());
        if (table.initialGroup == g + 1)
            subtitle += QStringLiteral(" · ") + tr("initial group");
        if (m_status.activeGroup() == 0 && origin >= 0 && m_status.nextGroup == origin + 1)
            subtitle += QStringLiteral(" · ") + tr("next");
        if (const MultipathdGroupView *mpd = origin >= 0 ? multipathdGroup(m_multipathd, origin + 1) : nullptr)
            subtitle += QStringLiteral(" · prio %1").arg(mpd->priority); // multipathd's, as multipath -ll
        const bool isActive = status && status->state == QLatin1Char('A');
        PathGroupColumn *column = columnAt(g);
        column->update(m_map, g, spec, title, subtitle, isActive, count, live, m_names, m_editable && !m_applying);
        column->show();
    }
    for (int g = count; g < m_columns.size(); ++g)
        m_columns.at(g)->hide();
    m_newGroup->setVisible(m_editable);
    m_unknownPaths->setVisible(!m_editable && !m_unknownPaths->text().isEmpty());
}

QString PathGroupEditor::previewText() const
{
    return m_editable ? m_draft.tableText() : QString();
}

QString PathGroupEditor::diffText() const
{
    return m_editable ? tableDiff(m_draft.current(), m_draft.table()) : QString();
}

QString PathGroupEditor::problemText() const
{
    if (!m_editable)
        return {};
    const Status valid = m_draft.validate();
    return valid ? QString() : valid.errorMessage();
}

QStringList PathGroupEditor::notes() const
{
    return m_editable ? m_draft.notes(failedDevices()) : QStringList();
}

bool PathGroupEditor::canApply() const
{
    return m_editable && !m_applying && !m_planning && !m_planDialog && m_runner && m_draft.isModified()
        && problemText().isEmpty();
}

void PathGroupEditor::refreshResult()
{
    m_resultArea->setVisible(m_editable);
    m_preview->setPlainText(previewText());
    m_diff->setPlainText(diffText());
    const QString problem = problemText();
    m_problem->setText(problem.isEmpty() ? QString() : tr("Cannot apply: %1").arg(problem));
    m_problem->setVisible(!problem.isEmpty());
    const QStringList advice = notes();
    m_notes->setText(advice.join(QLatin1Char('\n')));
    m_notes->setVisible(!advice.isEmpty());
    m_reset->setEnabled(m_editable && !m_applying && m_draft.isModified());
    m_apply->setEnabled(canApply());
    if (m_editable && !m_runner)
        m_apply->setToolTip(tr("No device-mapper access: the editor only shows"));
    else if (m_applying)
        m_apply->setToolTip(tr("Reloading %1…").arg(m_map));
    else
        m_apply->setToolTip(tr("Reload the map with the new table (asks first)"));
}

int PathGroupEditor::groupColumnCount() const
{
    int visible = 0;
    for (PathGroupColumn *column : m_columns)
        visible += column->isVisibleTo(const_cast<PathGroupEditor *>(this)) ? 1 : 0;
    return m_editable ? int(m_draft.table().groups.size()) : visible;
}

PathGroupModel *PathGroupEditor::groupModel(int group) const
{
    return group >= 0 && group < m_columns.size() && group < groupColumnCount() ? m_columns.at(group)->model()
                                                                                : nullptr;
}

bool PathGroupEditor::apply()
{
    if (!canApply())
        return false;
    // Plan on a job (the core reads the map, checks the paths' LUNs, computes the risks), ask with a
    // PlanDialog opened, never exec(): the poll goes on meanwhile, and the run re-checks the map against
    // the plan's basis, so a map that changed while the user read the dialog is refused as stale.
    m_planning = true;
    OperationService *runner = m_runner;
    m_runner->plan(
        QStringLiteral("multipath.reload"),
        { { QLatin1String("map"), m_map }, { QLatin1String("table"), formatMultipathTable(m_draft.table()) } }, this,
        [this, runner](const OperationPlan &plan) {
            if (runner == m_runner) // not a runner replaced since
                onPlanned(plan);
        },
        [this, runner](const QString &error) {
            if (runner != m_runner)
                return;
            m_planning = false;
            setBanner(tr("Cannot reload %1: %2").arg(m_map, error), true);
            refresh();
        });
    refresh();
    return true;
}

void PathGroupEditor::onPlanned(const OperationPlan &plan)
{
    m_planning = false;
    if (!plan.runnable()) {
        setBanner(tr("Cannot reload %1: %2")
                      .arg(plan.target, plan.refusals.isEmpty() ? plan.risks.first().text : plan.refusals.first()),
            true);
        refresh();
        return;
    }
    // A reload changes where I/O goes: always asked, risks or not.
    auto *dialog = new PlanDialog(plan, this);
    dialog->setObjectName(QStringLiteral("reloadPlanDialog"));
    dialog->setWindowTitle(tr("Reload %1").arg(plan.target));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_planDialog = dialog;
    connect(dialog, &PlanDialog::answered, this, [this, plan](const OperationAnswers &answers) {
        if (!m_runner)
            return;
        m_applying = true;
        setBanner(tr("Reloading %1…").arg(plan.target), false);
        OperationService *runner = m_runner;
        m_runner->run(plan, answers, this, [this, runner](const OperationResult &result) {
            if (runner == m_runner)
                onRunFinished(result);
        });
        Q_EMIT applyStarted(plan.target);
        refresh();
    });
    // Apply is off while the dialog is open; on again once it is gone (queued: the pointer is cleared by then).
    connect(dialog, &QObject::destroyed, this, [this] { QTimer::singleShot(0, this, [this] { refresh(); }); });
    dialog->open();
    Q_EMIT planOpened(dialog);
    refresh();
}

void PathGroupEditor::onRunFinished(const OperationResult &result)
{
    m_applying = false;
    const QString via = result.details.value(QLatin1String("via")).toString();
    QString text;
    if (result.ok)
        text = tr("Reloaded %1 (via %2).").arg(result.target, via.isEmpty() ? QStringLiteral("device-mapper") : via);
    else if (result.stale)
        text = tr("Not reloaded: %1 Your edits are kept; check them against the live table and apply again.")
                   .arg(result.error);
    else
        text = tr("Reload of %1 failed: %2").arg(result.target, result.error);
    for (const QString &warning : result.warnings)
        text += QLatin1Char(' ') + warning;
    setBanner(text, !result.ok);
    refresh();
    Q_EMIT applyFinished(result);
}

} // namespace dmtune
