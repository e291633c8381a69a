#pragma once
// The "Path groups" tab: the shown map's path-group editor above, its selector chart below, fed by one
// status read a second while visible and at once on a device-mapper event of the map. Owns the
// window's device-mapper access for multipath work (a MultipathControl, the actions of the device
// tree's context menu, a DmEventWatcher on every map). Without device-mapper (or on a captured tree)
// it says why the groups are unknown and edits nothing.
#include "dm/multipathoperation.h"
#include "discovery/devicesnapshot.h"
#include "sysfs/sysfsroot.h"

#include <QWidget>

#include <memory>

class QSplitter;
class QTimer;

namespace dmtune {

class DeviceMapper;
class DmEventWatcher;
class MultipathActions;
class MultipathControl;
class PathGroupEditor;
class SelectorChart;

class PathGroupsPanel : public QWidget
{
    Q_OBJECT
public:
    // Live: libdevmapper when the kernel has device-mapper (checked once, here) and sysfs is the live
    // root; a captured tree or a kernel without it leaves everything read-only with the reason.
    explicit PathGroupsPanel(const SysfsRoot &sysfs, QWidget *parent = nullptr);
    // Tests and demos: this device-mapper (not owned, e.g. a FakeDeviceMapper), no event watcher.
    explicit PathGroupsPanel(DeviceMapper *dm, QWidget *parent = nullptr);
    ~PathGroupsPanel() override;

    void setSnapshot(const DeviceSnapshot &snapshot);
    // A map by dm name, its block device ("dm-3") or one of its paths ("sdb"); anything else shows
    // "select a map". Returns whether a map is shown.
    bool showDevice(const QString &nameOrDevice);
    void showMap(const QString &map);
    QString shownMap() const { return m_map; }
    bool deviceMapperAvailable() const { return m_readDm != nullptr; }
    QString unavailableReason() const { return m_unavailable; }

    // Reads the shown map's table and status now (a timer does it every interval while the panel is
    // visible).
    void readNow();
    void setReadInterval(int milliseconds);

    PathGroupEditor *editor() const { return m_editor; }
    SelectorChart *chart() const { return m_chart; }
    MultipathActions *actions() const { return m_actions; }
    MultipathControl *control() const { return m_control; }

Q_SIGNALS:
    // A multipath operation finished or device-mapper reported an event: discovery should rescan.
    void refreshRequested();
    void statusMessage(const QString &text, int timeoutMs);
    void operationFinished(const dmtune::MultipathOperationResult &result);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void init();
    // The editor gets the height its group cards (their path tables) ask for, the chart the rest but at least
    // its minimum; until the user drags the splitter, whose choice then stays.
    void fitSplitter();
    void onOperationFinished(const MultipathOperationResult &result);
    void onMapEvent(const QString &map);
    QHash<QString, QString> deviceNames() const;
    void showUnavailable();
    // Asks multipathd for the shown map's priorities and checker states on a thread of its own (its socket
    // may take seconds when multipathd is busy); one question at a time.
    void fetchMultipathdView();

    std::unique_ptr<DeviceMapper> m_ownedReadDm;
    std::unique_ptr<DeviceMapper> m_ownedControlDm;
    DeviceMapper *m_readDm = nullptr;
    QString m_unavailable;
    DeviceSnapshot m_snapshot;
    bool m_haveSnapshot = false;
    QString m_map;
    QSplitter *m_splitter = nullptr;
    QWidget *m_chartBox = nullptr;
    bool m_splitterMoved = false;
    bool m_askMultipathd = false; // the live system only, never in tests
    bool m_multipathdPending = false;

    MultipathControl *m_control = nullptr;
    DmEventWatcher *m_watcher = nullptr;
    MultipathActions *m_actions = nullptr;
    PathGroupEditor *m_editor = nullptr;
    SelectorChart *m_chart = nullptr;
    QTimer *m_readTimer = nullptr;
    QTimer *m_refreshDebounce = nullptr;
};

} // namespace dmtune
