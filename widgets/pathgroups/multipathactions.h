#pragma once
// The multipath operations offered on device-tree rows: fail / reinstate a path (path rows), switch /
// enable / disable a group (group rows), "Edit path groups…" (map rows). Each reads the map's state,
// asks when the operation is risky or changes where I/O goes (the map by name, operationRisks with
// their reasons, what multipathd may do), then hands it to MultipathControl. The results come back
// as the control's finished() signal, which the window shows.
#include "multipathconfirm.h"

#include "discovery/devicesnapshot.h"

#include <QObject>
#include <QPointer>

class QMenu;
class QModelIndex;
class QWidget;

namespace dmtune {

class DeviceMapper;
class MultipathControl;

// What a device-tree row stands for, as far as multipath operations go.
struct MultipathRowTarget {
    enum Kind { None, Map, Group, Path };
    Kind kind = None;
    QString map;
    int group = 0; // 1-based; 0 for a map row or a path whose group is unknown
    QString device; // path rows: MAJ:MIN ("8:16")
    QString pathName; // path rows: "sdb" when known
    QString groupState; // group rows: A, E, D
    QString pathState; // path rows: A, F; empty when unknown
};

class MultipathActions : public QObject
{
    Q_OBJECT
public:
    // control may be null (no device-mapper): the actions are then shown disabled with the reason.
    explicit MultipathActions(MultipathControl *control, QWidget *dialogParent, QObject *parent = nullptr);

    void setControl(MultipathControl *control);
    // Read the map's state fresh before asking (not owned); without one the snapshot's lines are used.
    void setDeviceMapper(DeviceMapper *dm);
    void setSnapshot(const DeviceSnapshot &snapshot);
    // Why operations are off (e.g. "device-mapper: not available (…)"); empty when they are possible.
    void setUnavailableReason(const QString &reason);
    void setConfirmer(Confirmer confirmer);

    MultipathRowTarget targetOf(const QModelIndex &treeIndex) const;
    // Adds the actions for a device-tree row (nothing for rows that are not maps, groups or paths).
    void fillMenu(QMenu *menu, const QModelIndex &treeIndex);

    // Each asks first when needed; false when refused, cancelled or the state could not be read.
    bool failPath(const QString &map, const QString &device);
    bool reinstatePath(const QString &map, const QString &device);
    bool switchGroup(const QString &map, int group);
    bool enableGroup(const QString &map, int group);
    bool disableGroup(const QString &map, int group);

    const Confirmation &lastConfirmation() const { return m_lastConfirmation; }

Q_SIGNALS:
    void editPathGroupsRequested(const QString &map);
    // "Failing path sdb of mpatha…": for the status bar until the result comes.
    void operationStarted(const QString &text);
    // The state could not be read or the control is missing.
    void operationRefused(const QString &text);

private:
    bool run(const QString &map, const MultipathMessage &message, bool alwaysAsk);
    QString pathLabel(const QString &map, const QString &device) const;

    QPointer<MultipathControl> m_control;
    QWidget *m_dialogParent = nullptr;
    DeviceMapper *m_dm = nullptr;
    DeviceSnapshot m_snapshot;
    QString m_unavailable;
    Confirmer m_confirmer;
    Confirmation m_lastConfirmation;
};

} // namespace dmtune
