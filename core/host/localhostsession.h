#pragma once
// This machine as a window's host (host/hostsession.h): its live /sys (or a captured tree, read-only), its Sampler,
// operations run in this process on jobs, the lab devices it makes (removed when the session goes), and the probe
// loaded here.
#include "core/host/hostsession.h"
#include "core/sysfs/sysfsroot.h"

namespace dmtune {

class JobTracker;
class Sampler;

class LocalHostSession : public HostSession {
    Q_OBJECT
public:
    explicit LocalHostSession(const SysfsRoot &sysfs, QObject *parent = nullptr);
    ~LocalHostSession() override; // the lab devices' runner joins, then the devices it made are removed

    QString name() const override { return {}; }
    OperationService *newOperationService(QObject *parent) override;
    QString labUnavailableReason() const override { return m_labWhyNot; }
    QString labBaseDirectory() const override { return m_labBaseDir; }
    void setLabBaseDirectory(const QString &dir) override { m_labBaseDir = dir; }
    LabDevices *labDevices() const override { return m_labs.get(); }
    Hotplug hotplug() const override;

    Sampler *sampler() const { return m_sampler; }

private:
    Sampler *m_sampler = nullptr;
    std::unique_ptr<LabDevices> m_labs; // thread-safe; its calls are loop ioctls (jobs only)
    QString m_labWhyNot;
    QString m_labBaseDir;
    JobTracker *m_jobs = nullptr; // the stale lab devices' removal at start
};

} // namespace dmtune
