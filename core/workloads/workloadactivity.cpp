#include "core/workloads/workloadactivity.h"

#include "core/discovery/discovery.h"
#include "core/latency/blocklatencyprobe.h"
#include "core/latency/latencyintervals.h"
#include "core/latency/latencystream.h"
#include "core/ops/workloadoperations.h"
#include "core/recordings/recordingwriter.h"
#include "core/workloads/fiorun.h"

#include <QJsonArray>

namespace dmtune {

WorkloadActivity::WorkloadActivity(
    const SysfsRoot &sysfs, CheckedWorkload run, OperationResult checked, QObject *parent)
    : OperationActivity(parent)
    , m_run(std::move(run))
    , m_checked(std::move(checked))
    , m_sampler(sysfs)
    , m_session(&m_sampler)
{
    m_sampler.setWatched(m_run.watched);
    m_sampler.setInterval(1000);
    m_session.setFioProgram(m_run.fio);
    m_session.setLatencyProbe(m_run.probe.get());
    connect(
        &m_sampler, &SampleSource::samplesAvailable, this, [this](const SampleBatch &batch) { m_lastBatch = batch; });
    connect(&m_session, &WorkloadSession::started, this, [this](double t, const QStringList &argv) {
        Q_EMIT progress(QJsonObject { { QStringLiteral("event"), QStringLiteral("started") },
            { QStringLiteral("t"), t }, { QStringLiteral("argv"), QJsonArray::fromStringList(argv) },
            { QStringLiteral("command"), fioCommandLine(argv.value(0), m_run.job, m_run.devicePath) },
            { QStringLiteral("device"), m_run.devicePath },
            { QStringLiteral("devices"), QJsonArray::fromStringList(m_run.watched) },
            { QStringLiteral("record"), m_run.recordPath } });
    });
    connect(&m_session, &WorkloadSession::progress, this, &WorkloadActivity::onProgress);
    connect(&m_session, &WorkloadSession::finished, this, &WorkloadActivity::onFinished);
    connect(&m_session, &WorkloadSession::failed, this, &WorkloadActivity::fail);
    connect(&m_session, &WorkloadSession::recordingFailed, this, [this](const QString &message) {
        Q_EMIT progress(QJsonObject {
            { QStringLiteral("event"), QStringLiteral("recording-failed") }, { QStringLiteral("message"), message } });
    });
    connect(m_session.fio(), &FioRun::outputLine, this, [this](const QString &line) {
        Q_EMIT progress(
            QJsonObject { { QStringLiteral("event"), QStringLiteral("output") }, { QStringLiteral("line"), line } });
    });
}

WorkloadActivity::~WorkloadActivity()
{
    // What the members say while they go (a recording closed, fio killed) is no event: this is half gone by then.
    m_session.disconnect(this);
    m_session.fio()->disconnect(this);
    m_sampler.disconnect(this);
}

void WorkloadActivity::start()
{
    if (!m_run.probeNote.isEmpty())
        Q_EMIT progress(QJsonObject { { QStringLiteral("event"), QStringLiteral("note") },
            { QStringLiteral("without"), QStringLiteral("latency") }, { QStringLiteral("reason"), m_run.probeNote },
            { QStringLiteral("text"), QStringLiteral("without latency histograms: ") + m_run.probeNote } });
    m_sampler.start(); // the baseline before fio starts: the first interval is the run's own
    DeviceHold hold;
    if (m_run.hold)
        hold = std::move(*m_run.hold);
    const Status started = m_session.start(m_run.job, m_run.devicePath, m_run.recordPath,
        m_run.recordPath.isEmpty() ? nullptr : &m_run.meta, std::move(hold), m_run.existingRecording);
    if (!started)
        fail(started.errorMessage());
}

void WorkloadActivity::cancel()
{
    m_session.stop(); // fio prints its result on SIGINT: finished() follows with "stopped"
}

void WorkloadActivity::onProgress(const FioProgress &p)
{
    QJsonArray rates;
    for (const FioRates &r : p.rates) {
        if (r.seconds <= 0)
            continue; // fio's final object after the jobs stopped: no new interval
        if (r.iops() == 0 && p.parsed.groups.value(0).runtimeMs < 1000)
            continue; // fio's first status before any I/O: a line of zeros says nothing
        rates.append(fioRatesToJson(r));
    }
    if (rates.isEmpty())
        return;
    QJsonObject event { { QStringLiteral("event"), QStringLiteral("progress") },
        { QStringLiteral("t"), p.epochSeconds },
        { QStringLiteral("runtime_ms"), double(p.parsed.groups.value(0).runtimeMs) },
        { QStringLiteral("rates"), rates } };
    if (m_lastBatch) {
        QJsonObject devices;
        for (const DeviceSample &d : m_lastBatch->devices)
            devices.insert(d.name(), metricsToJson(d.metrics(m_lastBatch->elapsedSeconds)));
        event.insert(QStringLiteral("devices"), devices);
        m_lastBatch.reset(); // each sample once: not again under fio's next status
    }
    Q_EMIT progress(event);
}

void WorkloadActivity::onFinished(const FioOutcome &outcome, const QJsonObject &summary)
{
    if (m_ended)
        return;
    m_ended = true;
    m_sampler.stop();
    OperationResult result = m_checked;
    result.ok = true;
    result.error.clear();
    result.details = summary;
    const DeviceRunTotals &totals = m_session.totals();
    result.details.insert(QStringLiteral("window_from"), totals.hasWindow() ? totals.windowFrom() : 0.0);
    result.details.insert(QStringLiteral("window_to"), totals.hasWindow() ? totals.windowTo() : 0.0);
    if (m_run.probe) {
        QJsonObject histograms;
        for (const QString &name : totals.devices())
            histograms.insert(name, deviceLatencyJson(m_session.latencyTotal(name)));
        result.details.insert(QStringLiteral("latency_histograms"), histograms);
    }
    result.changes = { QStringLiteral("fio %1 after %2 s on %3")
                           .arg(outcome.stopped ? QStringLiteral("stopped") : QStringLiteral("done"))
                           .arg(outcome.endedAt - outcome.startedAt, 0, 'f', 1)
                           .arg(m_run.devicePath) };
    Q_EMIT finished(result);
}

void WorkloadActivity::fail(const QString &message)
{
    if (m_ended)
        return;
    m_ended = true;
    m_sampler.stop();
    OperationResult result = m_checked;
    result.ok = false;
    result.error = message;
    result.changes.clear();
    Q_EMIT finished(result);
}

OperationStart startWorkloadOperation(
    const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers)
{
    // The plan's hold goes first: the fresh plan takes the device again (an O_EXCL open fails while another one, ours
    // too, is open). Anything that claims it in between makes the fresh plan refuse.
    if (const PreparedWorkload *mine = preparedWorkloadOf(plan); mine && mine->hold)
        mine->hold->release();
    OperationStart out;
    out.result.kind = plan.kind;
    out.result.planId = plan.id;
    out.result.target = plan.target;
    if (answers.dryRun) {
        out.result.error = QStringLiteral("workload.start: a dry run is run(), not started");
        return out;
    }
    const auto fio = FioRun::findFio();
    if (!fio) {
        out.result.error = fio.errorMessage();
        return out;
    }
    OperationPlan fresh;
    out.result = checkOperation(env, plan, answers, &fresh);
    const PreparedWorkload *prepared = preparedWorkloadOf(fresh);
    if (!out.result.ok || !prepared)
        return out;

    CheckedWorkload run;
    run.job = prepared->job;
    run.devicePath = prepared->devicePath;
    run.hold = prepared->hold;
    run.fio = fio.value();
    const DeviceSnapshot snapshot = Discovery::scan(env.sysfs);
    run.watched = workloadDevices(snapshot, prepared->device);
    run.recordPath = fresh.request.value(QLatin1String("record")).toString();
    run.existingRecording = fresh.request.value(QLatin1String("replace_recording")).toBool() ? ExistingFile::Replace
                                                                                             : ExistingFile::Refuse;
    if (!run.recordPath.isEmpty())
        run.meta = workloadRecordingMeta(env.sysfs, snapshot, run.watched, run.job.title);
    const QString latency = fresh.request.value(QLatin1String("latency")).toString();
    if (!latency.isEmpty()) {
        auto probe = openLatencyProbeFor(env.sysfs, run.watched);
        if (probe) {
            run.probe = std::shared_ptr<BlockLatencyProbe>(std::move(probe.value()));
        } else if (latency == QLatin1String(WorkloadLatencyRequired)) {
            if (prepared->hold)
                prepared->hold->release();
            out.result.ok = false;
            out.result.error = probe.errorMessage();
            return out;
        } else {
            run.probeNote = probe.errorMessage();
        }
    }
    out.result.changes = { QStringLiteral("started: %1").arg(prepared->command) };
    out.make = [sysfs = env.sysfs, run = std::move(run), checked = out.result]() mutable {
        return std::make_unique<WorkloadActivity>(sysfs, std::move(run), checked);
    };
    return out;
}

} // namespace dmtune
