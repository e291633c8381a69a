#pragma once
// A sweep (docs/experiments.md), its pure half: one or two tunables, each over a list of values, times one or
// more fio workloads, each point run `repeats` times; the points in run order, and the results' mean and spread
// over the repeats of each point. The operation is sweepoperation.h, the run sweeprunner.h.
#include "core/util/result.h"
#include "core/workloads/fiojob.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

namespace dmtune {

// The parameter that is no sysfs attribute: a multipath map's path selector (round-robin, queue-length,
// service-time, ...), set on every path group by reloading the map's table (multipath.reload).
inline constexpr auto SweepSelectorAttribute = "selector";

struct SweepParameter {
    QString attribute; // catalog key (device/queue_depth), or SweepSelectorAttribute
    QStringList values; // as typed, in order
};
// "queue_depth=2,8,32" (any name parseAssignment() knows; "selector=round-robin,service-time") -> the catalog key
// and its values. The error says
// what is wrong: no '=', an unknown or read-only attribute, an empty value, a value given twice.
Result<SweepParameter> parseSweepParameter(const QString &text);

inline constexpr int MaxSweepParameters = 2;
inline constexpr int MaxSweepRepeats = 100;
inline constexpr int MaxSweepRuns = 1000; // points x repeats

struct SweepRequest {
    QString device; // any spec resolveDeviceSpec() knows; the kernel name once planned
    bool withPaths = false; // a map's paths too (a SCSI device attribute: only the paths)
    QList<SweepParameter> parameters;
    QList<FioJob> workloads; // templates (with their overrides) or job files
    int repeats = 1;
    // Templates only: fio's ramp_time, whose I/O counts neither in fio's numbers nor in the devices' window. A
    // job file keeps its own ramp_time.
    int warmupSeconds = 0;
    int settleSeconds = 1; // after a point's values are written, before fio starts
    QString recordDir; // one recording per run of a point; empty: none
};

struct ProposedSweep;
// The sweep a diagnosis finding proposes, as a request (the Explain pane hands it to the Experiment tab): the same
// device, parameter, values and template `dmtunectl sweep` gets from sweepCommand(), repeats 1.
SweepRequest sweepRequestFor(const ProposedSweep &proposed);

// Counts (1-2 parameters, 1+ workloads, repeats 1-100, points x repeats <= 1000), no attribute twice,
// settle and warm-up 0-600 s. The error names the field.
Status validateSweepRequest(const SweepRequest &request);
QJsonObject sweepRequestToJson(const SweepRequest &request);
Result<SweepRequest> sweepRequestFromJson(const QJsonObject &json);

struct SweepSetting {
    QString attribute;
    QString value;
};

struct SweepPoint {
    int index = 0; // in run order
    QList<SweepSetting> settings; // one per parameter, in the request's order
    int workload = 0; // index into SweepRequest::workloads
};
// Every combination: the first parameter varies slowest, then the second, then the workload. A point's repeats
// run back to back.
QList<SweepPoint> sweepPoints(const SweepRequest &request);
// "queue_depth=2 nr_requests=64 seq-write-4k-64jobs"
QString sweepPointLabel(const SweepRequest &request, const SweepPoint &point);
// "point-03-repeat-2.dmrec" (1-based, as the text output counts)
QString sweepRecordingName(const SweepPoint &point, int repeat);

// One run of one point, as measured.
struct SweepMeasurement {
    int point = 0;
    int repeat = 0; // 1-based
    QJsonObject fio; // fioRatesToJson() of fio's overall rates (its first group)
    QJsonObject devices; // kernel name -> metricsToJson() over fio's I/O window
    QString recording; // the file, or empty
};
// {"point" (1-based), "repeat", "fio", "devices", "recording"}: a run in sweep.json and in the sweep's progress.
QJsonObject sweepMeasurementToJson(const SweepMeasurement &measurement);
SweepMeasurement sweepMeasurementFromJson(const QJsonObject &json); // unchecked: readSweepManifest() checks

// Mean and spread (the sample standard deviation; 0 for one repeat) of every number over a point's repeats.
struct SweepPointResult {
    SweepPoint point;
    int repeats = 0; // measured
    QJsonObject fio, fioSpread; // fio's keys
    QJsonObject devices, devicesSpread; // name -> iostat's JSON keys
    QStringList recordings;
};
// The points that have at least one measurement, in run order.
QList<SweepPointResult> summarizeSweep(const QList<SweepPoint> &points, const QList<SweepMeasurement> &measurements);

// {"device", "with_paths", "params": [...], "workloads": [...], "repeats", "points": [{"params": {ATTR: VALUE},
// "workload", "repeats", "fio", "fio_spread", "devices", "devices_spread", "recordings"}], "restored": [...],
// "stopped", "error"}: what `dmtunectl sweep --json` prints.
struct SweepOutcome {
    QList<SweepPointResult> results;
    QStringList restored; // "sdb device/queue_depth 2 -> 192", read back
    bool stopped = false;
    Status status; // why the sweep ended early; ok when it finished or was stopped
    QStringList restoreErrors; // values that could not be put back (each one line)
    QString manifestError; // the record directory's sweep.json could not be written (the recordings are there)
};
QJsonObject sweepResultsToJson(const SweepRequest &request, const SweepOutcome &outcome);
// Long form, one row per number: point,<param>...,workload,source,metric,mean,spread,repeats (source: "fio" or
// a device name). RFC 4180 quoting.
QString sweepResultsCsv(const SweepRequest &request, const QList<SweepPointResult> &results);

// The file a sweep with a record directory keeps next to its recordings, rewritten after every run and at the
// end: the results as sweepResultsToJson() prints them, plus "runs" (every measurement) from which `dmtunectl
// sweep --open DIR` computes them again.
inline constexpr auto SweepManifestName = "sweep.json";
QJsonObject sweepManifest(
    const SweepRequest &request, const QList<SweepMeasurement> &runs, const SweepOutcome &outcome);
struct SweepManifest {
    SweepRequest request;
    QList<SweepMeasurement> runs;
    SweepOutcome outcome; // its results computed again from the runs
};
// The error says what is missing or wrong (a file that is no sweep's, a run of a point the request lacks).
Result<SweepManifest> readSweepManifest(const QJsonObject &json);
// DIR/sweep.json read and checked (at most 64 MiB); the error names the file.
Result<SweepManifest> readSweepManifestFile(const QString &dir);

} // namespace dmtune
