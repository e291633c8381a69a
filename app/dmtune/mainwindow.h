#pragma once
// The main window: device tree on the left, the selected device's details on the right, the
// machine's facts in the status bar. It only wires core discovery to the widgets.
#include "sysfs/sysfsroot.h"

#include <QMainWindow>

class QLabel;
class QSplitter;
class QTimer;
class QTreeView;

namespace dmtune {

class DeviceDetailPane;
class DeviceSnapshot;
class DeviceTreeModel;
class DeviceTreeView;
class Discovery;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // sysfs: the live /sys, or a captured tree (then everything is read-only and the title says so).
    explicit MainWindow(SysfsRoot sysfs = SysfsRoot(), QWidget *parent = nullptr);
    ~MainWindow() override;

    // Starts discovery (and the udev monitor on the live root).
    void start();
    // Restores geometry and splitters; the window then saves them when it closes.
    void restoreSettings();
    // Selects the row that stands for a device; false when the tree does not show it.
    bool selectDevice(const QString &name);

    Discovery *discovery() const { return m_discovery; }
    DeviceTreeModel *treeModel() const { return m_model; }
    QTreeView *treeView() const;
    DeviceDetailPane *detailPane() const { return m_detail; }
    QString statusText() const;

Q_SIGNALS:
    // The tree, the pane and the status bar show a new snapshot.
    void snapshotShown();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void onSnapshot(const DeviceSnapshot &snapshot);
    void onCurrentRowChanged(const QModelIndex &current);
    void restoreSelection(const DeviceSnapshot &snapshot);
    void fitSplitterToTree();
    void updateStatusBar(const DeviceSnapshot &snapshot);
    void showAbout();
    QString kernelRelease() const;

    SysfsRoot m_sysfs;
    Discovery *m_discovery = nullptr;
    DeviceTreeModel *m_model = nullptr;
    DeviceTreeView *m_tree = nullptr;
    DeviceDetailPane *m_detail = nullptr;
    QSplitter *m_splitter = nullptr;
    QLabel *m_firstRunHint = nullptr;
    QLabel *m_kernelLabel = nullptr;
    QLabel *m_deviceMapperLabel = nullptr;
    QLabel *m_countLabel = nullptr;
    QLabel *m_hotplugLabel = nullptr;

    // The row the user chose, by key and by device: a refresh may remove the row (a path that
    // moved group) while the device is still shown elsewhere.
    QString m_selectedKey;
    QString m_selectedDevice;
    bool m_applyingSnapshot = false;
    bool m_autoFitTree = true;
    QTimer *m_fitTreeTimer = nullptr;
    bool m_saveSettings = false;
};

} // namespace dmtune
