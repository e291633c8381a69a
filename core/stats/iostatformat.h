#pragma once
// iostat -x's three faces for dmtune's metrics: its text table, its -o JSON document, and a CSV with its
// column names. Pure text builders; callers write them out.
#include "core/stats/iostatmetrics.h"

#include <QList>
#include <QString>

namespace dmtune::iostatformat {

// "%.2f" exactly as glibc's printf rounds it, in the C locale whatever the process locale (iostat's JSON).
QString fixed2(double value);

// The machine description iostat puts in its banner and JSON header.
struct HostInfo {
    QString nodename;
    QString sysname = QStringLiteral("Linux");
    QString release;
    QString machine;
    int cpus = 0; // 0: unknown (a metrics engine that does not say)
    QString date; // see timestamp()
};

// iostat's date and timestamp strings: strftime "%x" / "%x %X" in the LC_TIME locale, or with
// S_TIME_FORMAT=ISO "%Y-%m-%d" / "%FT%T%z".
QString date(qint64 wallMs, bool iso);
QString timestamp(qint64 wallMs, bool iso);

struct DeviceRow {
    QString device;
    IostatMetrics metrics;
    QString extraJson = {}; // appended inside the JSON disk object (", \"histogram\": ..."); empty for iostat's own
};

// Text: "Linux 6.1.0 (host) \t11/30/26 \t_x86_64_\t(2 CPU)\n"
QString textBanner(const HostInfo &host);
// "Device            r/s     rkB/s ..." with iostat's spacing, and one device's line, both with '\n'.
QString textHeader();
QString textRow(const DeviceRow &row);

// JSON, streamed: begin, then one statistics entry per interval (no trailing comma or newline; put
// jsonSeparator() between two entries), then jsonEnd(). Whitespace as sysstat 12.6 prints it.
QString jsonBegin(const HostInfo &host);
QString jsonStatistics(const QString &timestamp, const QList<DeviceRow> &rows);
QString jsonSeparator();
QString jsonEnd();
// One disk object: {"disk_device": "sda", "r/s": 1.00, ..., "util": 0.00, "inflight_r": 0, "inflight_w": 0}
QString jsonDisk(const DeviceRow &row);

// CSV: "timestamp,Device,r/s,rkB/s,...,%util,inflight_r,inflight_w" (iostat -x column order).
QString csvHeader();
QString csvRow(const QString &timestamp, const DeviceRow &row);

} // namespace dmtune::iostatformat
