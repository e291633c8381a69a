#pragma once
// Asynchronous multipath operations without the plan/confirm step, for the VM tests that drive real
// maps from a program (the GUI and dmtunectl go through ops/multipathoperations.h): each runs as a job
// of a serial JobTracker (in the order asked, so a fail then a reinstate stay in that order) and comes
// back as finished() on the owner's thread. The work is dm/multipathchange.h.
#include "core/dm/backend/devicemapper.h"
#include "core/dm/grammar/multipathtable.h"
#include "core/dm/multipathchange.h"
#include "core/jobs/jobtracker.h"
#include "core/sysfs/sysfsroot.h"

#include <QObject>
#include <QString>

#include <functional>

namespace dmtune {

// prepare + execute in one call, the risks as warnings (the test decided to go ahead): the product always plans
// first (ops/multipathoperations.h) and asks.
MultipathOperationResult runMultipathOperation(DeviceMapper &dm, const SysfsRoot &sysfs, const QString &map,
    const MultipathMessage &message, const MultipathdCommand &multipathd);

class MultipathControl : public QObject {
    Q_OBJECT
public:
    explicit MultipathControl(DeviceMapper *dm, QObject *parent = nullptr); // dm not owned
    ~MultipathControl() override; // waits for the operation in progress

    // Checked per call: abstract socket @/org/kernel/linux/storage/multipathd listening.
    bool multipathdRunning() const;

    // path: "8:16", "sdb" or "/dev/sdb"; groups are 1-based. All asynchronous; never block the
    // caller, no nested event loops.
    void failPath(const QString &map, const QString &path);
    void reinstatePath(const QString &map, const QString &path);
    void switchGroup(const QString &map, int group);
    void enableGroup(const QString &map, int group);
    void disableGroup(const QString &map, int group);
    void setQueueIfNoPath(const QString &map, bool on);
    // Safe reload (load, resume without flush or lockfs; the old table stays on failure); warns that
    // multipathd may reload the map from multipath.conf, and when a path reports another LUN.
    void reload(const QString &map, const MultipathTable &table);

    // For tests: another sysfs root (path names) and another way to multipathd. The provider is
    // asked per operation; it returns an empty function when multipathd is not to be used.
    void setSysfsRoot(const SysfsRoot &sysfs);
    void setMultipathdProvider(std::function<MultipathdCommand()> provider);

Q_SIGNALS:
    void finished(const dmtune::MultipathOperationResult &result);

private:
    void runMessage(const QString &map, const MultipathMessage &message);
    void start(std::function<MultipathOperationResult()> work);

    DeviceMapper *m_dm;
    SysfsRoot m_sysfs;
    std::function<MultipathdCommand()> m_multipathd;
    JobTracker *m_jobs; // child, Serial; deleted (joined) in the destructor before the rest goes
};

} // namespace dmtune
