#pragma once
// The multipath operations offered on device-tree rows: fail / reinstate a path (path rows), switch /
// enable / disable a group (group rows), "Edit path groups…" (map rows). Each is a core operation
// (ops/multipathoperations.h): planned through the OperationService (off the UI thread), shown in a
// PlanDialog (open(), never exec()) when it is risky or changes where I/O goes, and run on its answer;
// the core re-validates the map at run time. Each call's plan comes back to its own continuation; the results
// are the runner's finished() (every run's), which the panel shows.
#include "core/discovery/devicesnapshot.h"
#include "core/ops/operation.h"
#include "widgets/ops/plandialog.h" // planOpened(PlanDialog *): a complete type for the meta-type

#include <QJsonObject>
#include <QObject>
#include <QPointer>

class QMenu;
class QModelIndex;
class QWidget;

namespace dmtune {

class OperationService;
class PlanDialog;

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

class MultipathActions : public QObject {
    Q_OBJECT
public:
    // runner may be null (no device-mapper): the actions are then shown disabled with the reason.
    explicit MultipathActions(OperationService *runner, QWidget *dialogParent, QObject *parent = nullptr);

    void setRunner(OperationService *runner);
    void setSnapshot(const DeviceSnapshot &snapshot);
    // Why operations are off (e.g. "device-mapper: not available (…)"); empty when they are possible.
    void setUnavailableReason(const QString &reason);

    MultipathRowTarget targetOf(const QModelIndex &treeIndex) const;
    // Adds the actions for a device-tree row (nothing for rows that are not maps, groups or paths).
    void fillMenu(QMenu *menu, const QModelIndex &treeIndex);

    // Each plans the operation; the answer comes later (a PlanDialog when it must ask, else it runs).
    // False when it could not even be planned (no runner).
    bool failPath(const QString &map, const QString &device);
    bool reinstatePath(const QString &map, const QString &device);
    bool switchGroup(const QString &map, int group);
    bool enableGroup(const QString &map, int group);
    bool disableGroup(const QString &map, int group);
    bool setQueueing(const QString &map, bool queueIfNoPath);

    // The open PlanDialog, else null; the last plan shown in one.
    PlanDialog *pendingPlan() const;
    const OperationPlan &lastAskedPlan() const { return m_lastAsked; }

Q_SIGNALS:
    void editPathGroupsRequested(const QString &map);
    // "Failing path sdb of mpatha…": for the status bar until the result comes.
    void operationStarted(const QString &text);
    // It could not be planned, the plan refuses, or the runner is missing.
    void operationRefused(const QString &text);
    // A PlanDialog opened for an operation (tests, the status bar).
    void planOpened(dmtune::PlanDialog *dialog);

private:
    bool run(
        const QString &map, const QString &kind, const QJsonObject &request, const QString &startText, bool alwaysAsk);
    // alwaysAsk: shown in a PlanDialog even when it has no risk (it changes where I/O goes).
    void onPlanned(const OperationPlan &plan, const QString &startText, bool alwaysAsk);
    QString pathLabel(const QString &map, const QString &device) const;

    QPointer<OperationService> m_runner;
    QWidget *m_dialogParent = nullptr;
    DeviceSnapshot m_snapshot;
    QString m_unavailable;
    QPointer<PlanDialog> m_dialog;
    OperationPlan m_lastAsked;
};

} // namespace dmtune
