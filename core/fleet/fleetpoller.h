#pragma once
// The fleet's counters: one MetricsSource per host, opened and fetched on jobs (never on the owner's thread), one
// job in flight per host, every interval. A host that fails to open or fetch reports its one-line error and is
// tried again at the next interval.
#include "core/fleet/fleethosts.h"
#include "core/fleet/fleetsummary.h"
#include "core/jobs/jobtracker.h"
#include "core/metrics/metricssource.h"

#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace dmtune {

class FleetPoller : public QObject {
    Q_OBJECT
public:
    static constexpr int MinIntervalSeconds = 1;
    static constexpr int MaxIntervalSeconds = 300;
    static constexpr int DefaultIntervalSeconds = 5;

    // Opens a host's source; runs on a job thread. The default opens PCP hosts with PcpSource::openHost and
    // Prometheus instances with PrometheusSource::open.
    using SourceOpener = std::function<Result<std::shared_ptr<MetricsSource>>(const FleetHost &)>;
    static Result<std::shared_ptr<MetricsSource>> openSource(const FleetHost &host);

    explicit FleetPoller(QObject *parent = nullptr);
    ~FleetPoller() override;

    void setSourceOpener(SourceOpener opener); // before setHosts
    // Replaces the fleet: the old hosts' sources are dropped (a job still running keeps its own until it ends,
    // its result is not handed back) and the new ones are opened at once.
    void setHosts(const QList<FleetHost> &hosts);
    const QList<FleetHost> &hosts() const { return m_hosts; }

    void setIntervalSeconds(int seconds); // clamped to MinIntervalSeconds .. MaxIntervalSeconds
    int intervalSeconds() const { return m_timer.interval() / 1000; }

    void start();
    void stop();
    bool isRunning() const { return m_timer.isActive(); }
    // A round now: every host without a job in flight is opened or fetched.
    void pollNow();

    QString description(int host) const; // the source's description once open, else empty
    QStringList limits(int host) const;

Q_SIGNALS:
    void hostOpened(int host, const QString &description, const QStringList &limits);
    // A new frame of the host and the one before it (prev.timeNs 0 for the first); the charts' input.
    void framesFetched(int host, const dmtune::CounterFrame &prev, const dmtune::CounterFrame &cur);
    void summaryReady(int host, const dmtune::FleetHostSummary &summary);
    void hostFailed(int host, const QString &message);

private:
    struct HostState {
        std::shared_ptr<MetricsSource> source;
        CounterFrame last;
        bool haveLast = false;
        bool inFlight = false;
        QString description;
        QStringList limits;
    };
    struct FetchOutcome {
        std::shared_ptr<MetricsSource> opened; // set when this job opened the source
        QString openError;
        Result<CounterFrame> frame;
        // With the first frame of a source that keeps history (Prometheus): the sample before it.
        Result<CounterFrame> previous = Result<CounterFrame>::failure({});
    };

    void poll(int host);
    void onFetched(int host, FetchOutcome outcome);

    SourceOpener m_opener;
    QList<FleetHost> m_hosts;
    QList<HostState> m_states; // parallel to m_hosts
    quint64 m_generation = 0; // bumped by setHosts: hand-backs of an older fleet are dropped
    QTimer m_timer;
    JobTracker m_jobs { this, JobTracker::Order::Parallel }; // last: joins before the states go
};

} // namespace dmtune
