#include "widgets/presets/newpresetdialog.h"

#include "widgets/messagestyle.h"

#include "core/presets/presetstore.h"
#include "widgets/windowfit.h"

#include <algorithm>

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace dmtune {

namespace {
constexpr int MaxNameLength = 120;
}

NewPresetDialog::NewPresetDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("New preset from selection"));
    m_name = new QLineEdit;
    m_name->setPlaceholderText(tr("e.g. NetApp paths, merge-friendly"));
    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);

    auto *about = new QLabel(
        tr("The checked attributes are saved (and pinned by an export). Checked by default: those changed through "
           "dmtune in this session and those whose value differs from the one dmtune first saw on the device."));
    about->setWordWrap(true);

    m_list = new QTreeWidget;
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setHeaderLabels({ tr("Attribute"), tr("Device"), tr("Value"), tr("Why checked") });
    m_list->header()->setSectionResizeMode(AttributeColumn, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(DeviceColumn, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(ValueColumn, QHeaderView::Interactive);
    m_list->header()->setStretchLastSection(true);

    auto *all = new QPushButton(tr("&All"));
    auto *none = new QPushButton(tr("N&one"));
    m_summary = new QLabel;
    auto *row = new QHBoxLayout;
    row->addWidget(all);
    row->addWidget(none);
    row->addWidget(m_summary, 1);

    m_problem = new QLabel;
    m_problem->setWordWrap(true);
    messagestyle::setTextTone(m_problem, MessageTone::Error);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("&Save"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(about);
    layout->addWidget(m_list, 1);
    layout->addLayout(row);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    windowfit::resizeOnScreen(this, { 760, 560 });

    connect(m_name, &QLineEdit::textChanged, this, &NewPresetDialog::updateState);
    connect(m_list, &QTreeWidget::itemChanged, this, &NewPresetDialog::updateState);
    connect(all, &QPushButton::clicked, this, [this] { checkAll(true); });
    connect(none, &QPushButton::clicked, this, [this] { checkAll(false); });
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (problem().isEmpty()) // Enter in the name field with OK disabled does nothing
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateState();
}

void NewPresetDialog::setChoices(const QList<AttributeChoice> &choices)
{
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (const AttributeChoice &c : choices) {
        auto *item = new QTreeWidgetItem(m_list, { c.attribute, c.device, c.value, c.reason });
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setCheckState(AttributeColumn, c.checked ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(ValueColumn, c.value);
    }
    m_list->resizeColumnToContents(ValueColumn);
    updateState();
}

void NewPresetDialog::setName(const QString &name)
{
    m_name->setText(name);
}

QString NewPresetDialog::name() const
{
    return m_name->text().trimmed();
}

QList<DeviceAttributes> NewPresetDialog::checkedSelection() const
{
    QList<DeviceAttributes> selection;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->checkState(AttributeColumn) != Qt::Checked)
            continue;
        const QString device = item->text(DeviceColumn);
        auto it = std::find_if(
            selection.begin(), selection.end(), [&device](const DeviceAttributes &d) { return d.device == device; });
        if (it == selection.end())
            selection << DeviceAttributes { device, { item->text(AttributeColumn) } };
        else
            it->attributes << item->text(AttributeColumn);
    }
    return selection;
}

void NewPresetDialog::checkAll(bool checked)
{
    {
        const QSignalBlocker blocker(m_list);
        for (int i = 0; i < m_list->topLevelItemCount(); ++i)
            m_list->topLevelItem(i)->setCheckState(AttributeColumn, checked ? Qt::Checked : Qt::Unchecked);
    }
    m_list->viewport()->update();
    updateState();
}

QString NewPresetDialog::nameProblem(const QString &typed)
{
    const QString name = typed.trimmed();
    if (name.isEmpty())
        return tr("Name the preset");
    if (name.size() > MaxNameLength)
        return tr("The name is longer than %1 characters").arg(MaxNameLength);
    for (const QChar ch : name) {
        if (ch.category() == QChar::Other_Control)
            return tr("The name has a control character");
    }
    Preset probe;
    probe.name = name;
    const QString file = userPresetPath(probe);
    for (const PresetEntry &entry : listPresets()) {
        const bool sameName = entry.preset && entry.preset->name.compare(name, Qt::CaseInsensitive) == 0;
        if (sameName || (!entry.builtIn && QFileInfo(entry.path) == QFileInfo(file))) {
            if (entry.builtIn)
                return tr("\"%1\" is a built-in preset's name: choose another").arg(name);
            return entry.preset
                ? tr("A preset \"%1\" is already stored as %2: choose another name").arg(entry.preset->name, entry.path)
                : tr("A preset is already stored as %1: choose another name").arg(entry.path);
        }
    }
    if (QFileInfo::exists(file))
        return tr("%1 exists: choose another name").arg(file);
    return {};
}

QString NewPresetDialog::problem() const
{
    if (const QString p = nameProblem(m_name->text()); !p.isEmpty())
        return p;
    if (m_list->topLevelItemCount() == 0)
        return tr("The selected devices have no writable attributes");
    if (checkedSelection().isEmpty())
        return tr("Check at least one attribute to save");
    return {};
}

void NewPresetDialog::updateState()
{
    int checked = 0;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        checked += m_list->topLevelItem(i)->checkState(AttributeColumn) == Qt::Checked ? 1 : 0;
    m_summary->setText(tr("%1 of %2 attributes checked").arg(checked).arg(m_list->topLevelItemCount()));
    const QString why = problem();
    m_problem->setText(why);
    m_ok->setEnabled(why.isEmpty());
    m_ok->setToolTip(why);
}

} // namespace dmtune
