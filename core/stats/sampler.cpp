#include "core/stats/sampler.h"

#include <QDateTime>

#include <ctime>

namespace dmtune {

namespace {

// Names are shared QStrings from tick to tick (the reader keeps them): comparing or assigning the same string
// data is a pointer test, not a memcmp and two atomic reference count updates, thousands of times a tick.
bool sameName(const QString &a, const QString &b)
{
    return a.constData() == b.constData() || a == b;
}

void assignCounters(DiskCounters &to, const DiskCounters &from)
{
    if (to.name.constData() != from.name.constData())
        to.name = from.name;
    to.devnum = from.devnum;
    to.fields = from.fields;
    to.fieldCount = from.fieldCount;
}

} // namespace

qint64 monotonicNowNs()
{
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

const DeviceSample *SampleBatch::find(const QString &name) const
{
    for (const auto &d : devices) {
        if (d.counters.name == name)
            return &d;
    }
    return nullptr;
}

Sampler::Sampler(SysfsRoot root, QObject *parent)
    : SampleSource(parent)
    , m_reader(std::move(root))
{
    // A coarse timer may fire 5 % early or late; at 100 ms that is visible, so ask for precision.
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(DefaultIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &Sampler::tick);
}

Sampler::~Sampler() = default;

void Sampler::setWatched(const QStringList &names)
{
    // Devices no longer read end their series at the next tick (deviceVanished), new ones start one.
    m_names = names;
    m_names.removeDuplicates();
    m_names.removeAll(QString());
}

void Sampler::watchAll(bool includePartitions)
{
    m_names.clear();
    m_includePartitions = includePartitions;
}

bool Sampler::setInterval(int ms)
{
    if (ms < MinIntervalMs || ms > MaxIntervalMs)
        return false;
    m_timer.setInterval(ms); // restarts a running timer; elapsed time still runs from the last read
    return true;
}

void Sampler::start()
{
    if (m_timer.isActive())
        return;
    resetBaseline();
    tick(); // the baseline
    m_timer.start();
}

void Sampler::stop()
{
    m_timer.stop();
    // Every series ends; a later start() begins new ones from a fresh baseline.
    const auto previous = std::exchange(m_previous, {});
    for (const auto &c : previous)
        Q_EMIT deviceVanished(c.name);
    resetBaseline();
}

void Sampler::sampleNow()
{
    tick();
}

void Sampler::resetBaseline()
{
    m_haveBaseline = false;
    m_batchMirrorsPrevious = false;
    m_previous.clear();
    m_previousIndex.clear();
    m_sequence = 0;
}

void Sampler::tick()
{
    const Status status = m_reader.read(m_names, m_includePartitions, &m_read);
    const qint64 nowNs = monotonicNowNs();
    const qint64 wallMs = QDateTime::currentMSecsSinceEpoch();
    if (!status) {
        Q_EMIT samplingFailed(status.errorMessage());
        return;
    }
    m_lastSource = m_read.source;
    const QList<DiskCounters> &current = m_read.devices;

    if (!m_haveBaseline) {
        m_haveBaseline = true;
        m_lastMonotonicNs = nowNs;
        m_previous.swap(m_read.devices);
        m_previousIndex.clear();
        for (const auto &c : std::as_const(m_previous))
            Q_EMIT deviceAppeared(c.name);
        return;
    }

    // The batch's elements are overwritten in place from the last tick (no construction, no destruction)
    // unless a receiver kept a copy of the batch, which detaches it.
    SampleBatch &batch = m_batch;
    qsizetype filled = 0;
    batch.wallMs = wallMs;
    batch.monotonicNs = nowNs;
    batch.elapsedSeconds = double(nowNs - m_lastMonotonicNs) / 1e9;
    batch.sequence = ++m_sequence;

    // Devices come back in the same order tick after tick: try the same position first and fall back to a
    // lookup only when the list changed, so the steady state does no hashing.
    m_matched.fill(false, m_previous.size());
    // In the steady state the batch's slots hold the previous read's counters in the previous read's order:
    // take them from there (the slot is rewritten anyway) instead of reading a second 700 KB list.
    const bool previousInBatch = m_batchMirrorsPrevious && batch.devices.size() == m_previous.size();
    QStringList appeared;
    bool samePositions = current.size() == m_previous.size();
    for (qsizetype i = 0; i < current.size(); ++i) {
        const DiskCounters &cur = current[i];
        qsizetype p = -1;
        if (i < m_previous.size() && sameName(m_previous[i].name, cur.name)) {
            p = i;
        } else {
            samePositions = false;
            if (m_previousIndex.isEmpty()) {
                for (qsizetype k = 0; k < m_previous.size(); ++k)
                    m_previousIndex.insert(m_previous[k].name, k);
            }
            p = m_previousIndex.value(cur.name, -1);
        }
        if (p < 0 || m_matched[p]) {
            appeared.append(cur.name);
            continue;
        }
        m_matched[p] = true;
        DeviceSample &sample = filled < batch.devices.size() ? batch.devices[filled] : batch.devices.emplaceBack();
        if (previousInBatch && p == filled)
            counterDeltas(sample.counters, cur, &sample.deltas);
        else
            counterDeltas(m_previous[p], cur, &sample.deltas);
        assignCounters(sample.counters, cur);
        // Field 9 is the sum of the two: when it is 0 the split is {0, 0} without a file read.
        if (cur[DiskField::InFlight] == 0)
            sample.inflight = { 0, 0 };
        else if (m_readInflight)
            sample.inflight = m_reader.inflight(cur.name);
        else
            sample.inflight = { InflightUnknown, InflightUnknown };
        ++filled;
    }
    batch.devices.resize(filled);
    m_batchMirrorsPrevious = appeared.isEmpty(); // then slot k holds the counters of this read's line k

    QStringList vanished;
    for (qsizetype k = 0; k < m_previous.size(); ++k) {
        if (!m_matched[k])
            vanished.append(m_previous[k].name);
    }
    m_previous.swap(m_read.devices); // the next read refills the old list's storage
    if (!samePositions)
        m_previousIndex.clear(); // built from the old order; rebuilt on the next miss
    m_lastMonotonicNs = nowNs;

    // A vanished device's series ended with the previous batch; an appeared one is in the next batch.
    for (const QString &name : std::as_const(vanished)) {
        m_reader.forget(name);
        Q_EMIT deviceVanished(name);
    }
    Q_EMIT samplesAvailable(batch);
    for (const QString &name : std::as_const(appeared))
        Q_EMIT deviceAppeared(name);
}

} // namespace dmtune
