#include "core/fleet/fleetpoller.h"

#include "core/metrics/localsource.h"
#include "core/metrics/pcpsource.h"
#include "core/metrics/prometheussource.h"

using namespace Qt::StringLiterals;

namespace dmtune {

Result<std::shared_ptr<MetricsSource>> FleetPoller::openSource(const FleetHost &host)
{
    using Opened = Result<std::shared_ptr<MetricsSource>>;
    if (host.kind == FleetHost::Kind::PrometheusTargets) {
        // Listed when the fleet opened (expandFleetHosts); still here: the server did not answer then.
        const Result<QStringList> instances = PrometheusSource::diskInstances(host.address);
        return Opened::failure(instances
                ? u"the server answers now: open the fleet again to list its %1 instances"_s.arg(instances->size())
                : instances.errorMessage());
    }
    if (host.kind == FleetHost::Kind::PcpFind) // still here: pmfind found nothing when the fleet opened
        return Opened::failure(
            u"pmfind found no pmcd in %1 when the fleet opened (open it again to probe anew)"_s.arg(host.address));
    if (host.kind == FleetHost::Kind::Local)
        return std::shared_ptr<MetricsSource>(std::make_shared<LocalMetricsSource>());
    if (host.kind == FleetHost::Kind::Pcp) {
        auto source = PcpSource::openHost(host.address);
        if (!source)
            return Opened::failure(source.errorMessage());
        return std::shared_ptr<MetricsSource>(std::move(source.value()));
    }
    auto source = PrometheusSource::open(host.address, host.instance);
    if (!source)
        return Opened::failure(source.errorMessage());
    return std::shared_ptr<MetricsSource>(std::move(source.value()));
}

FleetPoller::FleetPoller(QObject *parent)
    : QObject(parent)
    , m_opener(&FleetPoller::openSource)
{
    m_timer.setInterval(DefaultIntervalSeconds * 1000);
    connect(&m_timer, &QTimer::timeout, this, &FleetPoller::pollNow);
}

FleetPoller::~FleetPoller() = default;

void FleetPoller::setSourceOpener(SourceOpener opener)
{
    m_opener = std::move(opener);
}

void FleetPoller::setHosts(const QList<FleetHost> &hosts)
{
    ++m_generation;
    m_hosts = hosts;
    m_states = QList<HostState>(hosts.size());
    pollNow();
}

void FleetPoller::setIntervalSeconds(int seconds)
{
    m_timer.setInterval(qBound(MinIntervalSeconds, seconds, MaxIntervalSeconds) * 1000);
}

void FleetPoller::start()
{
    m_timer.start();
}

void FleetPoller::stop()
{
    m_timer.stop();
}

void FleetPoller::pollNow()
{
    for (int host = 0; host < m_hosts.size(); ++host)
        poll(host);
}

QString FleetPoller::description(int host) const
{
    return host >= 0 && host < m_states.size() ? m_states[host].description : QString();
}

QStringList FleetPoller::limits(int host) const
{
    return host >= 0 && host < m_states.size() ? m_states[host].limits : QStringList();
}

void FleetPoller::poll(int host)
{
    HostState &state = m_states[host];
    if (state.inFlight)
        return; // a slow host gets no second job: its answer comes when it comes
    state.inFlight = true;
    const FleetHost target = m_hosts[host];
    // The job owns a reference: a fleet replaced meanwhile does not pull the source from under a fetch.
    auto work = [source = state.source, opener = m_opener, target](JobContext &context) {
        FetchOutcome outcome;
        std::shared_ptr<MetricsSource> use = source;
        if (!use) {
            Result<std::shared_ptr<MetricsSource>> opened = opener(target);
            if (!opened) {
                outcome.openError = opened.errorMessage();
                return outcome;
            }
            use = outcome.opened = opened.value();
        }
        if (!context.isCancelled())
            outcome.frame = use->fetch();
        if (outcome.opened && outcome.frame && !context.isCancelled())
            outcome.previous = use->fetchBefore(outcome.frame->timeNs);
        return outcome;
    };
    // Keyed by the row: a new fleet's job for row N supersedes the old fleet's, whose answer is for another host.
    const QString key = u"fleet host %1"_s.arg(host);
    m_jobs.startLatest(key, u"fetch %1"_s.arg(target.displayName()), std::move(work),
        [this, host, generation = m_generation](FetchOutcome outcome) {
            if (generation == m_generation)
                onFetched(host, std::move(outcome));
        });
}

void FleetPoller::onFetched(int host, FetchOutcome outcome)
{
    HostState &state = m_states[host];
    state.inFlight = false;
    if (!outcome.openError.isEmpty()) {
        Q_EMIT hostFailed(host, outcome.openError);
        return;
    }
    if (outcome.opened) {
        state.source = outcome.opened;
        state.description = state.source->description();
        state.limits = state.source->limits();
        Q_EMIT hostOpened(host, state.description, state.limits);
    }
    if (!outcome.frame) {
        Q_EMIT hostFailed(host, outcome.frame.errorMessage());
        return;
    }
    const CounterFrame &cur = outcome.frame.value();
    if (state.haveLast && cur.timeNs == state.last.timeNs)
        return; // the source has nothing newer yet (Prometheus between two scrapes)
    // The first frame of an engine that keeps history comes with the sample before it: figures at once.
    const bool fromHistory = !state.haveLast && outcome.previous && outcome.previous->timeNs < cur.timeNs;
    const CounterFrame prev = state.haveLast ? state.last : fromHistory ? outcome.previous.value() : CounterFrame {};
    state.last = cur;
    const bool hadPrev = state.haveLast || fromHistory;
    state.haveLast = true;
    Q_EMIT framesFetched(host, prev, cur);
    if (!hadPrev) {
        // A second frame soon, so the first figures need not wait a whole (maybe minutes long) interval.
        QTimer::singleShot(1000, this, [this, host, generation = m_generation] {
            if (generation == m_generation && m_timer.isActive())
                poll(host);
        });
        return;
    }
    Result<FleetHostSummary> summary = summarizeFleetInterval(prev, cur);
    if (summary)
        Q_EMIT summaryReady(host, summary.value());
}

} // namespace dmtune
