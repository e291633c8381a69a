#include "core/experiments/sweeprunner.h"

#include "core/discovery/discovery.h"
#include "core/ops/tuningoperations.h"
#include "core/recordings/recordingwriter.h"
#include "core/util/atomicfile.h"
#include "core/workloads/fiorun.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>

namespace dmtune {

SweepRunner::SweepRunner(OperationEnvironment env, std::shared_ptr<const PreparedSweep> sweep, QObject *parent)
    : QObject(parent)
    , m_env(std::move(env))
    , m_sweep(std::move(sweep))
    , m_sampler(m_env.sysfs)
    , m_session(&m_sampler)
{
    m_originals = m_sweep->originals;
    m_settle.setSingleShot(true);
    connect(&m_settle, &QTimer::timeout, this, &SweepRunner::startFio);
    connect(&m_session, &WorkloadSession::finished, this,
        [this](const FioOutcome &outcome, const QJsonObject &) { onFioFinished(outcome); });
    connect(&m_session, &WorkloadSession::failed, this,
        // Stopped while fio was starting: a stop, not a failure.
        [this](const QString &message) {
            end(m_stopping ? Status() : Status::failure(QStringLiteral("fio: ") + message));
        });
}

SweepRunner::~SweepRunner()
{
    // An owner that goes away mid-sweep (a window closed) still gets its values back.
    if (m_running) {
        m_session.stop();
        restoreSweepValues(m_env, m_originals);
        restoreSweepTable(m_env, *m_sweep);
    }
}

void SweepRunner::start()
{
    if (m_running)
        return;
    m_running = true;
    m_sampler.setWatched(m_sweep->watched);
    m_sampler.setInterval(1000);
    m_sampler.start();
    beginRun();
}

void SweepRunner::stop()
{
    if (!m_running || m_stopping)
        return;
    m_stopping = true;
    m_outcome.stopped = true;
    if (m_session.isRunning())
        m_session.stop(); // onFioFinished() ends the sweep
    else
        end({});
}

void SweepRunner::beginRun()
{
    if (m_stopping)
        return end({});
    const SweepPoint &point = m_sweep->points.at(m_point);
    if (m_repeat == 1) {
        // The point's values, planned again on the state now: the same devices, values the kernel takes.
        const auto plans = planSweepPoint(m_env, *m_sweep, point);
        if (!plans)
            return end(Status::failureOf(plans));
        QStringList changes;
        if (plans->tuning) {
            const ApplyResult applied = m_env.executeTransaction(*tuningPlanOf(*plans->tuning), false);
            for (const ChangeOutcome &c : applied.changes) {
                changes.append(c.summary());
                const bool known = std::any_of(m_originals.cbegin(), m_originals.cend(),
                    [&](const Change &o) { return o.device == c.device && o.attribute == c.attribute; });
                if (!known && !c.oldValue.isEmpty())
                    m_originals.append({ c.device, c.attribute, c.oldValue });
            }
            if (!applied.ok())
                return end(Status::failure(
                    QStringLiteral("%1: %2").arg(sweepPointLabel(m_sweep->request, point), applied.errorMessage())));
        }
        if (plans->reload) {
            const OperationResult reloaded = runSweepReload(sweepEnvironment(m_env, *m_sweep), *plans->reload);
            changes.append(reloaded.changes);
            if (!reloaded)
                return end(Status::failure(
                    QStringLiteral("%1: %2").arg(sweepPointLabel(m_sweep->request, point), reloaded.error)));
        }
        Q_EMIT pointApplied(point.index, changes);
    }
    m_settle.start(m_sweep->request.settleSeconds * 1000);
}

void SweepRunner::startFio()
{
    if (m_stopping)
        return end({});
    const SweepPoint &point = m_sweep->points.at(m_point);
    const SweepWorkload &workload = m_sweep->workloads.at(point.workload);
    DeviceHold hold;
    if (workload.writes) {
        if (!m_sweep->hold || !m_sweep->hold->isHeld())
            return end(Status::failure(QStringLiteral("%1 is no longer held").arg(m_sweep->devicePath)));
        auto copy = m_sweep->hold->duplicate();
        if (!copy)
            return end(Status::failureOf(copy));
        hold = std::move(copy.value());
    }
    QString recordPath;
    RecordingMeta meta;
    if (!m_sweep->request.recordDir.isEmpty()) {
        recordPath = QDir(m_sweep->request.recordDir).filePath(sweepRecordingName(point, m_repeat));
        // The configuration as this point has it, in the recording's header.
        meta = workloadRecordingMeta(m_env.sysfs, Discovery::scan(m_env.sysfs), m_sweep->watched,
            QStringLiteral("sweep point %1/%2: %3, repeat %4")
                .arg(point.index + 1)
                .arg(m_sweep->points.size())
                .arg(sweepPointLabel(m_sweep->request, point))
                .arg(m_repeat));
    }
    if (const Status started = m_session.start(
            workload.job, m_sweep->devicePath, recordPath, recordPath.isEmpty() ? nullptr : &meta, std::move(hold));
        !started)
        return end(started);
    Q_EMIT runStarted(point.index, m_repeat);
}

void SweepRunner::onFioFinished(const FioOutcome &outcome)
{
    if (!m_running)
        return;
    if (m_stopping)
        return end({}); // a stopped run's numbers are partial: not a measurement
    const SweepPoint &point = m_sweep->points.at(m_point);
    if (outcome.exitCode != 0 || outcome.overall.isEmpty())
        return end(Status::failure(
            QStringLiteral("%1: fio exited with %2%3")
                .arg(sweepPointLabel(m_sweep->request, point))
                .arg(outcome.exitCode)
                .arg(outcome.otherLines.isEmpty() ? QString() : QStringLiteral(": ") + outcome.otherLines.last())));
    SweepMeasurement m;
    m.point = point.index;
    m.repeat = m_repeat;
    m.fio = fioRatesToJson(outcome.overall.first());
    for (const QString &name : m_session.totals().devices())
        m.devices.insert(name, metricsToJson(m_session.totals().metrics(name)));
    m.recording = m_session.recordPath();
    m_measurements.append(m);
    writeManifest();
    Q_EMIT runFinished(m);
    if (++m_repeat > m_sweep->request.repeats) {
        m_repeat = 1;
        if (++m_point >= m_sweep->points.size())
            return end({});
    }
    beginRun();
}

void SweepRunner::end(const Status &how)
{
    if (!m_running)
        return;
    m_running = false;
    m_settle.stop();
    if (m_session.isRunning())
        m_session.stop();
    m_sampler.stop();
    if (m_sweep->hold)
        m_sweep->hold->release(); // fio has ended: the device may be claimed again
    m_outcome.status = how;
    m_outcome.results = summarizeSweep(m_sweep->points, m_measurements);
    const ApplyResult restored = restoreSweepValues(m_env, m_originals);
    for (const ChangeOutcome &c : restored.changes) {
        if (c.written || c.sideEffect)
            m_outcome.restored.append(c.summary());
    }
    for (const ApplyError &e : restored.errors)
        m_outcome.restoreErrors.append(e.text());
    const OperationResult table = restoreSweepTable(m_env, *m_sweep);
    m_outcome.restored.append(table.changes);
    if (!table)
        m_outcome.restoreErrors.append(table.error);
    writeManifest();
    Q_EMIT finished(m_outcome);
}

void SweepRunner::writeManifest()
{
    if (m_sweep->request.recordDir.isEmpty())
        return;
    SweepOutcome sofar = m_outcome;
    sofar.results = summarizeSweep(m_sweep->points, m_measurements);
    const QString path = QDir(m_sweep->request.recordDir).filePath(QLatin1String(SweepManifestName));
    // A manifest that cannot be written loses nothing measured: the recordings are there.
    if (const Status written = writeFileAtomically(path,
            QJsonDocument(sweepManifest(m_sweep->request, m_measurements, sofar)).toJson(QJsonDocument::Indented),
            ExistingFile::Replace); // rewritten after every run, in the new (or empty) directory the sweep made
        !written)
        m_outcome.manifestError = written.errorMessage();
}

SweepActivity::SweepActivity(OperationEnvironment env, std::shared_ptr<const PreparedSweep> sweep, const QString &fio,
    OperationResult checked, QObject *parent)
    : OperationActivity(parent)
    , m_runner(std::move(env), std::move(sweep), this)
    , m_checked(std::move(checked))
{
    m_runner.setFioProgram(fio);
    const SweepRequest &request = m_runner.sweep().request;
    const int points = int(m_runner.sweep().points.size());
    connect(&m_runner, &SweepRunner::pointApplied, this, [this, points](int point, const QStringList &changes) {
        Q_EMIT progress(QJsonObject { { QStringLiteral("event"), QStringLiteral("point") },
            { QStringLiteral("point"), point + 1 }, { QStringLiteral("points"), points },
            { QStringLiteral("label"), sweepPointLabel(m_runner.sweep().request, m_runner.sweep().points.at(point)) },
            { QStringLiteral("changes"), QJsonArray::fromStringList(changes) } });
    });
    connect(&m_runner, &SweepRunner::runStarted, this, [this](int point, int repeat) {
        Q_EMIT progress(QJsonObject { { QStringLiteral("event"), QStringLiteral("run-started") },
            { QStringLiteral("point"), point + 1 }, { QStringLiteral("repeat"), repeat } });
    });
    connect(&m_runner, &SweepRunner::runFinished, this, [this](const SweepMeasurement &measurement) {
        Q_EMIT progress(QJsonObject { { QStringLiteral("event"), QStringLiteral("run") },
            { QStringLiteral("run"), sweepMeasurementToJson(measurement) } });
    });
    connect(m_runner.session()->fio(), &FioRun::outputLine, this, [this](const QString &line) {
        Q_EMIT progress(
            QJsonObject { { QStringLiteral("event"), QStringLiteral("output") }, { QStringLiteral("line"), line } });
    });
    connect(&m_runner, &SweepRunner::finished, this, [this, request, points](const SweepOutcome &outcome) {
        OperationResult result = m_checked;
        result.changes = outcome.restored;
        result.warnings = outcome.restoreErrors;
        result.details = sweepManifest(request, m_runner.measurements(), outcome);
        result.details.insert(QStringLiteral("manifest_error"), outcome.manifestError);
        result.ok = outcome.status.ok() && !outcome.stopped && outcome.restoreErrors.isEmpty();
        if (!outcome.status)
            result.error = outcome.status.errorMessage();
        else if (outcome.stopped)
            result.error = QStringLiteral("stopped; %1 of %2 run(s) measured")
                               .arg(m_runner.measurements().size())
                               .arg(points * request.repeats);
        else if (!outcome.restoreErrors.isEmpty())
            result.error = QStringLiteral("not restored: ") + outcome.restoreErrors.join(QLatin1String("; "));
        else
            result.error.clear();
        Q_EMIT finished(result);
    });
}

void SweepActivity::start()
{
    const PreparedSweep &sweep = m_runner.sweep();
    Q_EMIT progress(QJsonObject { { QStringLiteral("event"), QStringLiteral("started") },
        { QStringLiteral("request"), sweepRequestToJson(sweep.request) },
        { QStringLiteral("points"), int(sweep.points.size()) }, { QStringLiteral("repeats"), sweep.request.repeats } });
    m_runner.start();
}

void SweepActivity::cancel()
{
    m_runner.stop();
}

OperationStart startSweepOperation(
    const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers)
{
    OperationStart out;
    out.result.kind = plan.kind;
    out.result.planId = plan.id;
    out.result.target = plan.target;
    const auto refuse = [&](const QString &error) {
        // The plan's hold is let go: nothing will run.
        if (const PreparedSweep *mine = preparedSweepOf(plan); mine && mine->hold)
            mine->hold->release();
        out.result.error = error;
        return out;
    };
    if (answers.dryRun)
        return refuse(QStringLiteral("experiment.sweep: a dry run is run(), not started"));
    const auto fio = FioRun::findFio();
    if (!fio)
        return refuse(fio.errorMessage());
    // From the request, not the plan's prepared sweep: a plan read from its JSON has none (the checks below make it
    // again).
    if (const auto request = sweepRequestFromJson(plan.request); request && !request->recordDir.isEmpty()) {
        if (const Status made = makeOutputDirectory(request->recordDir); !made)
            return refuse(made.errorMessage());
    }
    SweepStart start = checkSweepStart(env, plan, answers);
    out.result = start.result;
    if (!start.result.ok)
        return out;
    out.make = [env, sweep = std::move(start.sweep), program = fio.value(), checked = start.result] {
        return std::make_unique<SweepActivity>(env, sweep, program, checked);
    };
    return out;
}

Result<SweepManifest> sweepOutcomeOf(const OperationResult &result)
{
    const auto manifest = readSweepManifest(result.details);
    if (!manifest)
        return manifest;
    SweepManifest read = manifest.value();
    read.outcome.manifestError = result.details.value(QLatin1String("manifest_error")).toString();
    return read;
}

} // namespace dmtune
