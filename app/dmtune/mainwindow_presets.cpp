// The Presets menu and the preset manager window: fed with every snapshot (preview, verify, keep
// applied) and the tree's selection (new from selection); it applies through the core operation preset.apply
// and records each transaction in the window's TuningSession (undo history, chart markers). Closing the window
// waits for an apply that has begun (the manager's OperationRunner joins).
#include "mainwindow.h"

#include "core/discovery/discovery.h"
#include "widgets/devices/devicetreemodel.h"
#include "widgets/devices/devicetreeview.h"
#include "widgets/presets/presetmanager.h"
#include "widgets/windowfit.h"

#include <QAction>
#include <QDialog>
#include <QItemSelectionModel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QVBoxLayout>

namespace dmtune {

void MainWindow::setupPresets()
{
    auto *dialog = new QDialog(this);
    dialog->setWindowTitle(hostName().isEmpty() ? tr("Presets — dmtune") : tr("Presets — %1 — dmtune").arg(hostName()));
    windowfit::resizeOnScreen(dialog, { 1100, 700 });
    // A remote host's session has preset.apply planned and run on the host; the preview reads its capture.
    m_presets = new PresetManager(m_session, dialog);
    auto *layout = new QVBoxLayout(dialog);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_presets);

    connect(m_discovery, &Discovery::snapshotChanged, m_presets, &PresetManager::setSnapshot);
    connect(m_tree->selectionModel(), &QItemSelectionModel::selectionChanged, m_presets, [this] {
        QStringList devices;
        for (const QModelIndex &row : m_tree->selectionModel()->selectedRows()) {
            const QString name = row.data(DeviceTreeModel::DeviceNameRole).toString();
            if (!name.isEmpty() && !devices.contains(name))
                devices << name;
        }
        m_presets->setSelection(devices);
    });
    connect(m_presets, &PresetManager::message, this,
        [this](const QString &text) { statusBar()->showMessage(text, 10000); });
    connect(m_presets, &PresetManager::newPresetSaved, this, [this](bool ok, const QString &pathOrError) {
        statusBar()->showMessage(ok ? tr("Saved %1").arg(pathOrError) : pathOrError, 10000);
    });

    QMenu *menu = new QMenu(tr("&Presets"), this);
    menu->addAction(tr("&Preset manager…"), this, [this, dialog] {
        m_presets->setSnapshot(m_discovery->snapshot());
        dialog->show();
        dialog->raise();
    });
    menu->addAction(tr("&New from selection…"), this, [this, dialog] {
        m_presets->setSnapshot(m_discovery->snapshot());
        dialog->show();
        // A name and the attributes to keep are asked (the changed ones checked), then the preset is saved.
        m_presets->promptNewFromSelection(tr("From %1").arg(m_selectedDevice));
    });
    // Before Help, as the last menu of the tools.
    QAction *before = menuBar()->actions().isEmpty() ? nullptr : menuBar()->actions().constLast();
    menuBar()->insertMenu(before, menu);
}

} // namespace dmtune
