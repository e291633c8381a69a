#pragma once
// Pure parsers of Prometheus HTTP API answers (JSON bytes in, values out; no I/O): node_exporter's disk series
// of one instance as a CounterFrame, and the instance lists of /api/v1/targets, an `up` query and
// /api/v1/label/instance/values.
#include "core/metrics/metricssource.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <limits>
#include <span>

namespace dmtune {

// The newest scrape of one instance, from the matrix answer of a range-vector selector such as
// /api/v1/query?query={__name__=~"node_(disk|dmmultipath)_.+",instance="X"}[30s].
struct PrometheusDiskFrame {
    CounterFrame frame; // timeNs: the scrape's timestamp (Prometheus' own, ms resolution)
    // Series or devices left out and why (a series that lags the newest scrape: its device went away or is
    // no longer exported), one sentence each.
    QStringList notes;
    bool hasDmMultipath = false; // the instance exports node_dmmultipath_* (node_exporter 1.12+)
};

// `instance` is the value of the instance label; series of other instances in the answer are ignored.
// Fails, in one line, on an error answer, bad JSON, a counter that is not a finite non-negative number, or
// when the instance has no node_disk_* counters in the answer.
// notAfterMs: the newest scrape at or before that time (ms since the epoch) instead, for the scrape before
// the newest one.
Result<PrometheusDiskFrame> parsePrometheusDiskFrame(
    const QByteArray &json, const QString &instance, qint64 notAfterMs = std::numeric_limits<qint64>::max());

// {"status":"error","errorType":"bad_data","error":"..."} -> "Prometheus error (bad_data): ...";
// an empty string when the answer is not an error answer (or not JSON).
QString prometheusErrorMessage(const QByteArray &json);

struct PrometheusTarget {
    QString instance; // the instance label
    QString job;
    QString health; // "up", "down", "unknown"
    QString scrapeUrl;
    QString lastError;
    double scrapeIntervalSeconds = 0; // 0 when not given (before Prometheus 2.39 it is not)
};

// /api/v1/targets: the active targets, in the server's order.
Result<QList<PrometheusTarget>> parsePrometheusTargets(const QByteArray &json);
// The instance labels of the vector answer of /api/v1/query?query=up (or any vector query), sorted, unique.
Result<QStringList> parsePrometheusVectorInstances(const QByteArray &json);
// /api/v1/label/instance/values (or any label's values): the strings, in the server's (sorted) order.
Result<QStringList> parsePrometheusLabelValues(const QByteArray &json);

// A Prometheus duration as the targets API prints it ("15s", "1m30s", "500ms", "2h"); 0 when malformed.
double parsePrometheusDuration(const QString &text);

// node_exporter's series name for each counter field (DiskField order), and how its value becomes the
// field: raw value x scale, rounded (node_exporter exports bytes = sectors x 512 and seconds = ms / 1000).
struct PrometheusDiskSeries {
    const char *name;
    DiskField field;
    double scale;
};
std::span<const PrometheusDiskSeries> prometheusDiskSeries();

} // namespace dmtune
