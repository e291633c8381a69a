#include "core/host/localhostsession.h"

#include "core/discovery/discovery.h"
#include "core/jobs/jobtracker.h"
#include "core/ops/hostcontext.h"
#include "core/ops/operationrunner.h"
#include "core/stats/sampler.h"
#include "core/workloads/labdevices.h"
#include "core/workloads/labloop.h"

namespace dmtune {

LocalHostSession::LocalHostSession(const SysfsRoot &sysfs, QObject *parent)
    : HostSession(std::make_shared<const HostContext>(sysfs), parent)
    , m_labs(std::make_unique<LabDevices>()) // no device until asked
    , m_labBaseDir(LabDevices::defaultBaseDirectory())
{
    m_sampler = new Sampler(sysfs, this);
    auto *labRunner = new OperationRunner(this);
    OperationEnvironment env = context()->environment();
    env.labs = m_labs.get(); // the session's own: lab.create and lab.remove run here
    labRunner->setEnvironment(env);
    refreshAfterResults(labRunner);
    setParts(new Discovery(sysfs, this), m_sampler, labRunner);

    // A captured tree is another machine's: nothing to create there. (canCreate: the euid and whether
    // /dev/loop-control exists; no device is opened.)
    if (!sysfs.isLive())
        m_labWhyNot = tr("a captured system is read-only");
    else
        LabDevices::canCreate(&m_labWhyNot);
    m_jobs = new JobTracker(this);
    if (m_labWhyNot.isEmpty()) {
        // A crashed dmtune's lab devices (their owner is gone) go at start; loop ioctls, so off the UI thread.
        m_jobs->start(
            QStringLiteral("remove stale lab devices"),
            [base = m_labBaseDir](JobContext &) { return LabLoop::removeStale(base); },
            [this](const QStringList &removed) {
                if (!removed.isEmpty())
                    Q_EMIT message(tr("Stale lab devices: %1").arg(removed.join(QLatin1String("; "))));
            });
    }
}

LocalHostSession::~LocalHostSession()
{
    delete operations(); // joins a lab operation that runs; its result is dropped
    delete m_jobs;
    m_labs.reset(); // detaches what the session made (only what is still provably ours)
}

OperationService *LocalHostSession::newOperationService(QObject *parent)
{
    auto *runner = new OperationRunner(parent);
    runner->setEnvironment(context()->environment()); // multipathd asked per operation, on the runner's job
    refreshAfterResults(runner);
    return runner;
}

HostSession::Hotplug LocalHostSession::hotplug() const
{
    const QString source = discovery()->monitorSource();
    if (source == QLatin1String("udev"))
        return Hotplug::Udev;
    if (source == QLatin1String("kernel"))
        return Hotplug::KernelUevents;
    return sysfs().isLive() ? Hotplug::Off : Hotplug::CapturedTree;
}

} // namespace dmtune
