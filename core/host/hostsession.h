#pragma once
// The host a window shows and acts on, this machine or a remote one through its agent: one object per host that
// owns what is the host's (its environment, its devices' discovery, its counters, its latency readings, who plans
// and runs its operations, its connection) and makes the per-widget parts (an operation service of a panel's own,
// a tuning session). The window makes one and wires its widgets to it; neither asks which kind it is. This
// machine's: LocalHostSession (localhostsession.h); a remote host's: RemoteHostSession (remote/remotehostsession.h).
#include "core/remote/hostaddress.h"

#include <QDateTime>
#include <QObject>

#include <functional>
#include <memory>

namespace dmtune {

class Discovery;
class HostContext;
class LabDevices;
class MapStream;
class LatencySource;
class OperationService;
class SampleSource;
class SysfsRoot;
class TuningSession;
class WorkloadRuns;

class HostSession : public QObject {
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Connected };
    Q_ENUM(State)
    // How the device list follows devices coming and going: udev's or the kernel's uevents here, the remote agent's
    // udev events, a fetch on request (F5), not at all (a captured tree, no monitor), or not while disconnected.
    enum class Hotplug { Udev, KernelUevents, AgentEvents, OnRequest, CapturedTree, Off, NotConnected };
    Q_ENUM(Hotplug)

    ~HostSession() override;

    // Empty for this machine; a remote host's as the user wrote it ("root@db1:2222"): on the title, every pane and
    // every chart.
    virtual QString name() const = 0;
    // The ssh address of a remote host (empty for this machine): the password prompt, the recent hosts.
    virtual HostAddress address() const { return {}; }
    // The far side's own name (its agent's hello); empty for this machine and before the first connection.
    virtual QString agentHostName() const { return {}; }

    // Its tree (the live /sys, a captured tree, a remote host's fetched capture), device-mapper, privilege.
    const std::shared_ptr<const HostContext> &context() const { return m_context; }
    const SysfsRoot &sysfs() const;
    // Its devices: a scan of its tree, again on every hotplug event, fetch and refresh().
    Discovery *discovery() const { return m_discovery; }
    // Its counters: this machine's Sampler, or the agent's stream.
    SampleSource *samples() const { return m_samples; }
    // What makes the Latency tab's source when the readings are not this process's probe's (a remote host's agent);
    // empty: this process loads the probe (or dmtune-helper does for a normal user).
    virtual std::function<LatencySource *()> latencySourceMaker() const { return {}; }

    // A follower of one map's state as the host reports it (mapstream.h), owned by `parent`; null where a panel
    // reads the host's device-mapper and its events itself (this machine's, or a captured tree's recorded maps).
    virtual MapStream *newMapStream(QObject *parent)
    {
        Q_UNUSED(parent)
        return nullptr;
    }

    // The session's own operation service (the lab device's operations; tests); its results refresh the devices.
    OperationService *operations() const { return m_operations; }
    // A service of a panel's own (its busy state its own), owned by `parent`: this process's runner on a job, or
    // the agent. Every result that may have changed the host (not a dry run) refreshes the devices.
    virtual OperationService *newOperationService(QObject *parent) = 0;
    // The workloads a panel starts on the host (host/workloadruns.h), owned by `parent`: workload.start planned and
    // run through a service of its own; a remote host's as jobs of its agent that outlive a lost connection.
    virtual WorkloadRuns *newWorkloadRuns(QObject *parent);
    // The window's tuning session (the Tune tab, History, Undo, presets), owned by `parent`: read-only on a
    // captured tree; a remote host's plans on its capture and runs through its agent.
    virtual TuningSession *newTuningSession(QObject *parent);

    // Why a lab device cannot be made on this host (empty: it can; a remote host's agent decides when asked).
    virtual QString labUnavailableReason() const { return {}; }
    // Where this host's lab devices go (empty: the side that makes them takes its default).
    virtual QString labBaseDirectory() const { return {}; }
    virtual void setLabBaseDirectory(const QString &) { }
    // The lab devices this process made for the session (null when the host's agent makes them).
    virtual LabDevices *labDevices() const { return nullptr; }

    // The connection: this machine is always connected.
    virtual State state() const { return State::Connected; }
    virtual QString problem() const { return {}; } // the last failed or lost connection's line
    virtual bool needsPassword() const { return false; } // sudo there asked for one
    virtual qint64 msecsUntilRetry() const { return -1; }
    virtual int attempts() const { return 0; } // failed attempts since the last connection
    // Connects (again) now; `sudoPassword` goes once to the far side's sudo -S, never kept. Nothing for this machine.
    virtual void connectToHost(const QByteArray &sudoPassword = {}) { Q_UNUSED(sudoPassword) }
    // When the devices shown were read: a fetched capture's time; invalid while they are read live.
    virtual QDateTime devicesTime() const { return {}; }
    // The tree is a capture fetched from a live host (again after its events and after every operation) that the
    // session acts on: read the maps from the capture, act through the services. False for this machine (a
    // captured tree opened to inspect is read-only; the live one is read and acted on directly).
    virtual bool fetchesCaptures() const { return false; }
    virtual Hotplug hotplug() const = 0;

    // Starts the device scan (and the hotplug monitor of a live tree).
    void start();
    // Reads the devices again: a rescan of this machine, a new capture of a remote host (its rescan follows).
    virtual void refresh();

Q_SIGNALS:
    void stateChanged(dmtune::HostSession::State state);
    void retryScheduled(int ms);
    // One line for the window's status bar (a capture that could not be fetched, stale lab devices removed).
    void message(const QString &text);

protected:
    HostSession(std::shared_ptr<const HostContext> context, QObject *parent);
    // Made by the implementation's constructor: the session owns them.
    void setParts(Discovery *discovery, SampleSource *samples, OperationService *operations);
    // A service's results that may have changed the host refresh the devices.
    void refreshAfterResults(OperationService *service);

private:
    std::shared_ptr<const HostContext> m_context;
    Discovery *m_discovery = nullptr;
    SampleSource *m_samples = nullptr;
    OperationService *m_operations = nullptr;
};

} // namespace dmtune
