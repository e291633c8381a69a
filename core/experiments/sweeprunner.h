#pragma once
// Runs a checked sweep (checkSweepStart()): for each point, its values written as a transaction (re-planned on the
// state at its turn), a settle time, then fio `repeats` times through a WorkloadSession, each run measured over
// fio's own I/O window and, when asked, recorded. The original values are put back whenever it ends: done,
// failed, or stopped (stop(): fio is stopped, its partial run dropped). Event-driven: no thread, no nested loop;
// the owner keeps it and the event loop running until finished().
//
// Shells do not make one: experiment.sweep is a long-running operation (ops/operationactivity.h), started through
// an OperationService (OperationService::start: dmtunectl sweep, the Experiment tab), whose activity (SweepActivity)
// runs a SweepRunner on the service's thread for it and turns its signals into progress events.
#include "core/experiments/sweepoperation.h"
#include "core/ops/operationactivity.h"
#include "core/stats/sampler.h"
#include "core/workloads/workloadsession.h"

#include <QObject>
#include <QTimer>

namespace dmtune {

class SweepRunner : public QObject {
    Q_OBJECT
public:
    SweepRunner(OperationEnvironment env, std::shared_ptr<const PreparedSweep> sweep, QObject *parent = nullptr);
    ~SweepRunner() override;

    void setFioProgram(const QString &path) { m_session.setFioProgram(path); }
    // Starts the first point (the sampler first: each run's first interval has a baseline).
    void start();
    // Stops fio (or the wait before it) and restores; finished() follows.
    void stop();
    bool isRunning() const { return m_running; }
    const PreparedSweep &sweep() const { return *m_sweep; }
    const SweepOutcome &outcome() const { return m_outcome; }
    const QList<SweepMeasurement> &measurements() const { return m_measurements; }
    WorkloadSession *session() { return &m_session; }

Q_SIGNALS:
    // A point's values are written (the transaction's read-back, one line each).
    void pointApplied(int point, const QStringList &changes);
    void runStarted(int point, int repeat);
    void runFinished(const dmtune::SweepMeasurement &measurement);
    void finished(const dmtune::SweepOutcome &outcome);

private:
    void beginRun();
    void startFio();
    void onFioFinished(const FioOutcome &outcome);
    void end(const Status &how); // ok: finished or stopped; else why the sweep ended early
    void writeManifest();

    OperationEnvironment m_env;
    std::shared_ptr<const PreparedSweep> m_sweep;
    Sampler m_sampler;
    WorkloadSession m_session;
    QTimer m_settle;
    ChangeSet m_originals; // the plan's, and what a write changed on the side (nr_requests after a scheduler)
    QList<SweepMeasurement> m_measurements;
    SweepOutcome m_outcome;
    int m_point = 0;
    int m_repeat = 1;
    bool m_running = false;
    bool m_stopping = false;
};

// experiment.sweep's activity. Progress events, in order:
//   {"event": "started", "request": sweepRequestToJson (the device as a kernel name), "points", "repeats"}
//   per point: {"event": "point", "point" (1-based), "points", "label", "changes": [the writes, read back]}
//   per run:   {"event": "run-started", "point", "repeat"}, then {"event": "run", "run": sweepMeasurementToJson}
//   fio's own lines: {"event": "output", "line"}
// The result: ok when every run was measured and every value put back; "changes" the values put back; "details"
// sweepManifest() (request, runs, results, restored, stopped, error) plus "manifest_error" (sweepOutcomeOf()).
// A cancel stops fio (its partial run dropped) and restores: ok false, "stopped" true.
class SweepActivity : public OperationActivity {
    Q_OBJECT
public:
    SweepActivity(OperationEnvironment env, std::shared_ptr<const PreparedSweep> sweep, const QString &fio,
        OperationResult checked, QObject *parent = nullptr);
    void start() override;
    void cancel() override;

private:
    SweepRunner m_runner;
    OperationResult m_checked; // the start's result: kind, plan, target
};

// experiment.sweep's start (registered with registerLongOperation()): fio found, the record directory made, then
// checkSweepStart()'s checks; the activity made on the service's thread.
OperationStart startSweepOperation(
    const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers);
// The sweep's request, its runs and its outcome from a SweepActivity's result (its details); an error for a result
// without them (a sweep refused before it began).
Result<SweepManifest> sweepOutcomeOf(const OperationResult &result);

} // namespace dmtune
