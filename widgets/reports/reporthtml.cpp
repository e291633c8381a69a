// reportHtml: the report's text. Plain tables and headings: QTextDocument renders it for the PDF too. Every text
// that comes from a recording (file name, title, host, devices, markers, notes, fio's command line and job
// names, configuration keys and values) goes through escaped(): a recording is a file someone sent.
#include "widgets/reports/report.h"

#include "core/recordings/fiosummary.h"
#include "widgets/charts/chartmarker.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace dmtune {

namespace {

QString escaped(const QString &s)
{
    return s.toHtmlEscaped();
}

QString utc(double epochSeconds)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(epochSeconds * 1000), Qt::UTC)
        .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss 'UTC'"));
}

QString clock(double seconds)
{
    const qint64 s = std::llround(std::abs(seconds));
    return QStringLiteral("%1%2:%3")
        .arg(seconds < 0 ? QStringLiteral("-") : QString())
        .arg(s / 60)
        .arg(s % 60, 2, 10, QLatin1Char('0'));
}

QString table(bool forPrint)
{
    return forPrint ? QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">")
                    : QStringLiteral("<table>");
}

void recordingsSection(QString &h, const Report &r, bool forPrint)
{
    h += QStringLiteral("<h2>%1</h2>").arg(QCoreApplication::translate("Report", "Recordings")) + table(forPrint);
    // Headings whole (on a page "length" and "devices" broke inside the word); the file column wraps instead.
    h += QStringLiteral("<tr><th>#</th><th style=\"white-space:nowrap\">%1</th><th>%2</th><th>%3</th>"
                        "<th>%4</th><th style=\"white-space:nowrap\">%5</th><th style=\"white-space:nowrap\">%6</th>"
                        "<th style=\"white-space:nowrap\">%7</th><th>%8</th></tr>")
             .arg(QCoreApplication::translate("Report", "recording"), QCoreApplication::translate("Report", "host"),
                 QCoreApplication::translate("Report", "kernel"), QCoreApplication::translate("Report", "started"),
                 QCoreApplication::translate("Report", "length"), QCoreApplication::translate("Report", "interval"),
                 QCoreApplication::translate("Report", "devices"), QCoreApplication::translate("Report", "file"));
    const QStringList names = distinctRecordingNames(r.recordings);
    for (qsizetype i = 0; i < r.recordings.size(); ++i) {
        const Recording &rec = r.recordings[i];
        // One multi-arg call: a file name holding "%2" must not pick up the next value.
        QString file
            = QCoreApplication::translate(
                "Report", "%1, %2 bytes, %3 device-samples (%4 B each in sample frames), format v%5")
                  .arg(escaped(QFileInfo(rec.path).fileName()), QString::number(rec.fileBytes),
                      QString::number(rec.deviceSamples), QString::number(rec.sampleBytesPerDeviceSample(), 'f', 1),
                      QString::number(rec.formatVersion));
        if (rec.truncated)
            file += QCoreApplication::translate("Report", "; <b>truncated</b>: %1").arg(escaped(rec.truncation));
        else if (!rec.complete)
            file += QCoreApplication::translate("Report", "; no end frame (the recorder stopped early)");
        h += QStringLiteral("<tr><td>#%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7 "
                            "s</td><td>%8</td><td>%9</td></tr>")
                 .arg(i + 1)
                 .arg(escaped(names[i]), escaped(rec.meta.host), escaped(rec.meta.kernel), utc(rec.startSeconds()),
                     clock(rec.endSeconds() - rec.startSeconds()), statText(rec.meta.intervalSeconds),
                     escaped(rec.deviceNames().join(QStringLiteral(", "))), file);
    }
    h += QStringLiteral("</table>");
}

void fioSection(QString &h, const Report &r, bool forPrint)
{
    bool any = false;
    for (const Recording &rec : r.recordings)
        any = any || !rec.fioResults.isEmpty();
    if (!any)
        return;
    h += QStringLiteral("<h2>%1</h2>").arg(QCoreApplication::translate("Report", "Workloads (fio)"));
    // Headed as the recordings table numbers and names them: two runs of one template read apart.
    const QStringList names = distinctRecordingNames(r.recordings);
    const bool several = r.recordings.size() > 1;
    for (qsizetype i = 0; i < r.recordings.size(); ++i) {
        const Recording &rec = r.recordings[i];
        const QString heading = several ? QStringLiteral("#%1 %2").arg(i + 1).arg(names[i]) : names[i];
        for (const RecordedFioResult &fio : rec.fioResults) {
            // QTextDocument never wraps <pre>: the PDF gets a wrapping monospace paragraph instead.
            h += (forPrint ? QStringLiteral("<h3>%1</h3><p><code>%2</code></p>")
                           : QStringLiteral("<h3>%1</h3><pre>%2</pre>"))
                     .arg(escaped(heading), escaped(shellCommandLine(fio.argv)));
            h += table(forPrint)
                + QStringLiteral(
                    "<tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th><th>%5</th><th>%6</th><th>%7</th></tr>")
                      .arg(QCoreApplication::translate("Report", "job"),
                          QCoreApplication::translate("Report", "direction"),
                          QCoreApplication::translate("Report", "IOPS"),
                          QCoreApplication::translate("Report", "bandwidth (KiB/s)"),
                          QCoreApplication::translate("Report", "I/Os"),
                          QCoreApplication::translate("Report", "clat mean (µs)"),
                          QCoreApplication::translate("Report", "clat p99 (µs)"));
            for (const FioDirectionSummary &s : summarizeFioResult(fio.result)) {
                h += QStringLiteral("<tr><td>%1</td><td>%2</td><td align=\"right\">%3</td><td "
                                    "align=\"right\">%4</td><td align=\"right\">%5</td>"
                                    "<td align=\"right\">%6</td><td align=\"right\">%7</td></tr>")
                         .arg(escaped(s.job), escaped(s.direction), statText(s.iops), statText(s.bandwidthKiB),
                             statText(s.ios), statText(s.clatMeanUs), statText(s.clatP99Us));
            }
            h += QStringLiteral("</table>");
        }
    }
}

// "<b>1</b> fio start · <b>2</b> #1 fio end · ...": what the numbered tags above each chart stand for.
QString markerKeyHtml(const AlignedCharts &charts)
{
    QStringList entries;
    const QList<ChartMarker> ordered = markersInTimeOrder(charts.markers);
    for (qsizetype i = 0; i < ordered.size(); ++i) {
        const ChartMarker &m = ordered[i];
        // A note is named by its first words here; its whole text is under "Markers and notes".
        const QString text = m.kind == MarkerKind::Note
            ? QCoreApplication::translate("Report", "%1 (note)").arg(m.shortLabel())
            : m.label;
        entries.append(QStringLiteral("<b>%1</b>&nbsp;%2").arg(i + 1).arg(escaped(text)));
    }
    return entries.join(QStringLiteral(" &middot; "));
}

void chartsSection(QString &h, const Report &r, const std::function<QString(const ReportChart &)> &src, bool forPrint)
{
    h += QStringLiteral("<h2>%1</h2><p>%2</p>")
             .arg(QCoreApplication::translate("Report", "Charts"),
                 QCoreApplication::translate("Report",
                     "Every recording's devices, aligned at its workload start (its first \"fio start\" marker, else "
                     "its first sample): x is the time since then. The numbers above each chart mark the markers and "
                     "notes named under it. With several devices, each one's lines are drawn up to %1 px apart so "
                     "that equal lines stay visible.")
                     .arg(ChartPanel::MaxLineSpread));
    const QString key = markerKeyHtml(r.aligned);
    for (const ReportChart &c : r.charts) {
        if (forPrint) {
            // The image is replaced by the chart drawn at the page's width (writePdfReport).
            h += QStringLiteral("<p><img src=\"%1\"></p>").arg(src(c));
            if (!key.isEmpty())
                h += QStringLiteral("<p style=\"font-size:7pt\">%1</p>").arg(key);
        } else {
            h += QStringLiteral("<figure><img alt=\"%1\" src=\"%2\"><figcaption>%3</figcaption></figure>")
                     .arg(escaped(c.title), src(c), key.isEmpty() ? escaped(c.title) : key);
        }
    }
}

void statsSection(QString &h, const Report &r, bool forPrint)
{
    const Comparison &c = r.comparison;
    const bool several = c.recordings.size() > 1;
    const QString intro = several
        ? QCoreApplication::translate("Report",
            "Over each recording's workload (from \"fio start\" to \"fio end\", else the whole recording): mean, "
            "median, 95th percentile (nearest rank) and maximum per interval; in brackets the change against "
            "recording 1.")
        : QCoreApplication::translate("Report",
            "Over each recording's workload (from \"fio start\" to \"fio end\", else the whole recording): mean, "
            "median, 95th percentile (nearest rank) and maximum per interval.");
    h += QStringLiteral("<h2>%1</h2><p>%2</p>").arg(QCoreApplication::translate("Report", "Summary statistics"), intro);
    // p50 and p95 are the notation of percentiles: only the words are translated.
    const QString meanText = QCoreApplication::translate("Report", "mean");
    const QString maxText = QCoreApplication::translate("Report", "max");
    QString slot;
    for (const ComparisonRow &row : c.rows) {
        if (row.slot != slot) {
            if (!slot.isEmpty())
                h += QStringLiteral("</table>");
            slot = row.slot;
            h += QStringLiteral("<h3>%1</h3>").arg(escaped(slot)) + table(forPrint)
                + QStringLiteral("<tr><th>%1</th>").arg(QCoreApplication::translate("Report", "metric"));
            for (qsizetype i = 0; i < c.recordings.size(); ++i) {
                const QString who = several ? QStringLiteral("#%1 ").arg(i + 1) : QString();
                h += QStringLiteral("<th>%1</th><th>%2</th><th>%3</th><th>%4</th>")
                         .arg(who + meanText, who + QStringLiteral("p50"), who + QStringLiteral("p95"), who + maxText);
            }
            h += QStringLiteral("</tr>");
        }
        h += QStringLiteral("<tr><td>%1 (%2)</td>")
                 .arg(MetricCatalog::column(row.metric), MetricCatalog::unit(row.metric));
        const std::optional<MetricStats> &ref = row.stats.value(0);
        for (qsizetype i = 0; i < row.stats.size(); ++i) {
            const std::optional<MetricStats> &s = row.stats[i];
            if (!s) {
                h += QStringLiteral("<td colspan=\"4\">—</td>");
                continue;
            }
            const double values[] = { s->mean, s->p50, s->p95, s->max };
            const double refs[] = { ref ? ref->mean : 0, ref ? ref->p50 : 0, ref ? ref->p95 : 0, ref ? ref->max : 0 };
            for (int k = 0; k < 4; ++k) {
                QString cell = statText(values[k]);
                if (i > 0 && ref)
                    cell += QStringLiteral(" <small>(%1)</small>").arg(deltaText(values[k], refs[k]));
                h += QStringLiteral("<td align=\"right\">%1</td>").arg(cell);
            }
        }
        h += QStringLiteral("</tr>");
    }
    if (!slot.isEmpty())
        h += QStringLiteral("</table>");
}

// Only when a recording holds latency frames: the percentile tables over the workload window (one table of the
// devices for one recording; a table per device slot with the changes against recording 1 for several), the
// distributions overlaid (several) and a heat map per recording and device.
void latencySection(QString &h, const Report &r, const std::function<QString(const ReportChart &)> &src, bool forPrint)
{
    if (r.latency.isEmpty())
        return;
    const qsizetype count = r.recordings.size();
    const bool several = count > 1;
    const QStringList names = latencyStatisticNames();
    const QString intro = QCoreApplication::translate("Report",
        "Device time (issue to complete) of every I/O the block-layer probe saw, summed over each recording's "
        "workload (from \"fio start\" to \"fio end\", else the whole recording); percentiles interpolated inside "
        "the probe's buckets (two per octave).");
    h += QStringLiteral("<h2>%1</h2><p>%2%3</p>")
             .arg(QCoreApplication::translate("Report", "Latency"), intro,
                 several ? QCoreApplication::translate(
                     "Report", " Δ: the change against recording 1, in µs (I/Os for I/Os) and in %.")
                         : QString());
    const auto value = [](const std::optional<DeviceLatency> &l, qsizetype s) {
        return l ? latencyStatistics(l->device).value(s).value : std::nan("");
    };
    if (!several) {
        h += table(forPrint) + QStringLiteral("<tr><th>%1</th>").arg(QCoreApplication::translate("Report", "device"));
        for (const QString &n : names)
            h += QStringLiteral("<th>%1</th>").arg(escaped(n));
        h += QStringLiteral("</tr>");
        for (const LatencyComparisonRow &row : r.latency) {
            h += QStringLiteral("<tr><td>%1</td>").arg(escaped(row.slot));
            for (qsizetype s = 0; s < names.size(); ++s)
                h += QStringLiteral("<td align=\"right\">%1</td>")
                         .arg(latencyValueText(value(row.latency.value(0), s)));
            h += QStringLiteral("</tr>");
        }
        h += QStringLiteral("</table>");
    } else {
        for (const LatencyComparisonRow &row : r.latency) {
            h += QStringLiteral("<h3>%1</h3>").arg(escaped(row.slot)) + table(forPrint)
                + QStringLiteral("<tr><th>%1</th>").arg(QCoreApplication::translate("Report", "statistic"));
            for (qsizetype i = 0; i < count; ++i)
                h += QStringLiteral("<th>#%1</th>").arg(i + 1);
            for (qsizetype i = 1; i < count; ++i)
                h += QStringLiteral("<th>Δ #%1</th><th>Δ #%1 (%)</th>").arg(i + 1);
            h += QStringLiteral("</tr>");
            for (qsizetype s = 0; s < names.size(); ++s) {
                h += QStringLiteral("<tr><td>%1</td>").arg(escaped(names[s]));
                const double ref = value(row.latency.value(0), s);
                for (qsizetype i = 0; i < count; ++i)
                    h += QStringLiteral("<td align=\"right\">%1</td>")
                             .arg(latencyValueText(value(row.latency.value(i), s)));
                for (qsizetype i = 1; i < count; ++i) {
                    const double v = value(row.latency.value(i), s);
                    h += QStringLiteral("<td align=\"right\">%1</td><td align=\"right\">%2</td>")
                             .arg(latencyDeltaText(v, ref), latencyDeltaPercentText(v, ref));
                }
                h += QStringLiteral("</tr>");
            }
            h += QStringLiteral("</table>");
        }
    }
    const QString heatKey = QCoreApplication::translate("Report",
        "x: seconds since the workload start; colour: the share of each interval's I/O in a latency bucket; lines: "
        "its percentiles.");
    const QString distributionKey = QCoreApplication::translate("Report",
        "The share of each recording's I/O in each latency bucket over its workload; dotted: its p50, dash-dotted: "
        "its p99.");
    for (const ReportLatencyChart &c : r.latencyCharts) {
        const QString key = c.recording >= 0 ? heatKey : distributionKey;
        // In print the title is drawn in the chart (a page break never parts them), the key under it.
        h += forPrint
            ? QStringLiteral("<p><img src=\"%1\"></p><p style=\"font-size:7pt\">%2</p>").arg(src(c.chart), key)
            : QStringLiteral("<figure><img alt=\"%1\" src=\"%2\"><figcaption>%1: %3</figcaption></figure>")
                  .arg(escaped(c.chart.title), src(c.chart), key);
    }
}

void configRows(QString &h, const QList<ConfigDiffRow> &rows, const QStringList &differing)
{
    for (const ConfigDiffRow &row : rows) {
        const bool differs = differing.contains(row.key);
        h += differs ? QStringLiteral("<tr bgcolor=\"#fff2cc\">") : QStringLiteral("<tr>");
        h += QStringLiteral("<td>%1</td>").arg(escaped(row.key));
        for (const QString &v : row.values)
            h += QStringLiteral("<td>%1</td>").arg(v.isNull() ? QStringLiteral("—") : escaped(v));
        h += QStringLiteral("</tr>");
    }
}

void configSection(QString &h, const Report &r, bool forPrint)
{
    const ConfigDiff &d = r.configuration;
    QString header = QStringLiteral("<tr><th>%1</th>").arg(QCoreApplication::translate("Report", "setting"));
    for (qsizetype i = 0; i < d.recordings.size(); ++i)
        header += QStringLiteral("<th>#%1 %2</th>").arg(i + 1).arg(escaped(d.recordings[i]));
    header += QStringLiteral("</tr>");
    QStringList differing;
    for (const ConfigDiffRow &row : d.rows)
        differing.append(row.key);
    if (d.recordings.size() > 1) {
        h += QStringLiteral("<h2>%1</h2><p>%2</p>")
                 .arg(QCoreApplication::translate("Report", "Configuration differences"),
                     QCoreApplication::translate("Report", "%1 of %2 settings differ.")
                         .arg(d.rows.size())
                         .arg(d.comparedKeys));
        if (!d.rows.isEmpty()) {
            h += table(forPrint) + header;
            configRows(h, d.rows, {});
            h += QStringLiteral("</table>");
        }
    }
    h += QStringLiteral("<h2>%1</h2><p>%2</p>")
             .arg(QCoreApplication::translate("Report", "Configuration"),
                 d.recordings.size() > 1
                     ? QCoreApplication::translate("Report",
                         "Captured when each recording started: the devices, every tunable of dmtune's catalog and "
                         "the device-mapper tables; differing settings highlighted.")
                     : QCoreApplication::translate("Report",
                         "Captured when each recording started: the devices, every tunable of dmtune's catalog and "
                         "the device-mapper tables."));
    h += table(forPrint) + header;
    configRows(h, d.allRows, differing);
    h += QStringLiteral("</table>");
}

void eventsSection(QString &h, const Report &r, bool forPrint)
{
    // In the charts' order, with their numbers: a recording's event is the aligned marker at its time with its
    // label (recordings after the first share the first one's "fio start").
    const QList<ChartMarker> ordered = markersInTimeOrder(r.aligned.markers);
    const bool several = r.recordings.size() > 1;
    const auto numberOf = [&](qsizetype recording, const RecordedEvent &e, bool note) {
        const double t = e.time - r.recordings[recording].alignSeconds();
        const bool start = !note && e.text == RecordingWriter::fioStartLabel();
        const QString label = (several && !start) ? QStringLiteral("#%1 %2").arg(recording + 1).arg(e.text) : e.text;
        for (qsizetype i = 0; i < ordered.size(); ++i) {
            if (ordered[i].label == label && std::abs(ordered[i].time - t) < 1e-6
                && (ordered[i].kind == MarkerKind::Note) == note)
                return i + 1;
        }
        return qsizetype(0);
    };
    struct Row {
        qsizetype number;
        double time;
        QString html;
    };
    QList<Row> rows;
    for (qsizetype i = 0; i < r.recordings.size(); ++i) {
        const Recording &rec = r.recordings[i];
        const double align = rec.alignSeconds();
        // "#2" where several are compared (the recordings table names each): a name here wrapped to six lines.
        const QString recordingColumn = several ? QStringLiteral("#%1").arg(i + 1) : rec.displayName();
        const auto add = [&](const RecordedEvent &e, bool note) {
            const qsizetype n = numberOf(i, e, note);
            rows.append({ n, e.time - align,
                QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                    .arg(n > 0 ? QString::number(n) : QString(), escaped(recordingColumn), clock(e.time - align),
                        note ? QCoreApplication::translate("Report", "note")
                             : QCoreApplication::translate("Report", "marker"),
                        escaped(e.text)) });
        };
        for (const RecordedEvent &m : rec.markers)
            add(m, false);
        for (const RecordedEvent &n : rec.notes)
            add(n, true);
    }
    if (rows.isEmpty())
        return;
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        if ((a.number > 0) != (b.number > 0))
            return a.number > 0;
        return a.number != b.number ? a.number < b.number : a.time < b.time;
    });
    QString body;
    for (const Row &row : std::as_const(rows))
        body += row.html;
    h += QStringLiteral("<h2>%1</h2><p>%2</p>")
             .arg(QCoreApplication::translate("Report", "Markers and notes"),
                 QCoreApplication::translate("Report", "The numbers are those above the charts."))
        + table(forPrint)
        + QStringLiteral("<tr><th>#</th><th>%1</th><th>%2</th><th>%3</th><th>%4</th></tr>")
              .arg(QCoreApplication::translate("Report", "recording"), QCoreApplication::translate("Report", "time"),
                  QCoreApplication::translate("Report", "kind"), QCoreApplication::translate("Report", "text"))
        + body + QStringLiteral("</table>");
}

void formulaSection(QString &h, const Report &r, bool forPrint)
{
    QList<Metric> shown;
    for (const ComparisonRow &row : r.comparison.rows) {
        if (!shown.contains(row.metric))
            shown.append(row.metric);
    }
    std::sort(shown.begin(), shown.end());
    h += QStringLiteral("<h2>%1</h2><p>%2</p>")
             .arg(QCoreApplication::translate("Report", "Metric formulas"),
                 QCoreApplication::translate("Report",
                     "As sysstat's iostat -x computes them, from the differences of /proc/diskstats fields (numbered "
                     "as in the kernel's Documentation/admin-guide/iostats.rst) over the interval Δt in seconds."))
        + table(forPrint)
        + QStringLiteral("<tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th></tr>")
              .arg(QCoreApplication::translate("Report", "metric"), QCoreApplication::translate("Report", "unit"),
                  QCoreApplication::translate("Report", "meaning"), QCoreApplication::translate("Report", "formula"));
    for (Metric m : shown) {
        const MetricInfo &i = MetricCatalog::info(m);
        h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>")
                 .arg(escaped(QString::fromLatin1(i.column)), escaped(QString::fromLatin1(i.unit)),
                     escaped(QString::fromUtf8(i.label)), escaped(QString::fromUtf8(i.formula)));
    }
    h += QStringLiteral("</table>");
}

// "72.8 ±1.1": the mean over a point's repeats and their spread (sample standard deviation); "-" unmeasured.
QString meanSpread(const SweepPointResult &r, const SweepMetric &m, const QString &device)
{
    const SweepValue v = sweepValue(r, m, device);
    return v.present ? sweepValueText(v, m) : QStringLiteral("-");
}

// The metrics of `keys` with a non-zero mean somewhere (a write sweep's read columns go).
QList<const SweepMetric *> shownMetrics(
    const QList<SweepPointResult> &results, const QStringList &devices, std::initializer_list<const char *> keys)
{
    QList<const SweepMetric *> shown;
    for (const char *key : keys) {
        const SweepMetric *m = sweepMetric(QString::fromLatin1(key));
        const bool any = std::any_of(devices.begin(), devices.end(),
            [&](const QString &device) { return !sweepMetricIsZero(results, *m, device); });
        if (any)
            shown << m;
    }
    return shown;
}

QString metricHeader(const SweepMetric &m)
{
    return escaped(m.unit.isEmpty() ? m.label : QStringLiteral("%1 (%2)").arg(m.label, m.unit));
}

void sweepSection(
    QString &h, const ReportSweep &s, const std::function<QString(const ReportChart &)> &src, bool forPrint)
{
    const SweepRequest &q = s.request;
    const QList<SweepPointResult> &results = s.outcome.results;
    h += QStringLiteral("<h2>%1</h2>").arg(QCoreApplication::translate("Report", "Sweep"));
    QStringList swept;
    for (const SweepParameter &p : q.parameters)
        swept << QStringLiteral("<b>%1</b> over %2")
                     .arg(escaped(p.attribute), escaped(p.values.join(QStringLiteral(", "))));
    QStringList workloads;
    for (const FioJob &job : q.workloads)
        workloads << escaped(sweepWorkloadName(job));
    h += QStringLiteral("<p>%1</p>")
             .arg(QCoreApplication::translate("Report",
                 "On %1%2: %3. Workloads: %4. %5 run(s) per point, %6 s settle, %7 s warm-up. Each number is the mean "
                 "over a point's runs; ± is their spread (sample standard deviation). Results from %8.")
                      .arg(escaped(q.device),
                          q.withPaths ? QCoreApplication::translate("Report", " and its paths") : QString(),
                          swept.join(QStringLiteral("; ")), workloads.join(QStringLiteral(", ")))
                      .arg(q.repeats)
                      .arg(q.settleSeconds)
                      .arg(q.warmupSeconds)
                      .arg(escaped(QDir(s.directory).filePath(QLatin1String(SweepManifestName)))));
    if (s.outcome.stopped)
        h += QStringLiteral("<p><b>%1</b></p>")
                 .arg(QCoreApplication::translate(
                     "Report", "The sweep was stopped: the points below are those measured."));
    if (!s.outcome.status)
        h += QStringLiteral("<p><b>%1</b></p>")
                 .arg(QCoreApplication::translate("Report", "The sweep failed: %1")
                          .arg(escaped(s.outcome.status.errorMessage())));

    const auto pointCells = [&](const SweepPointResult &r) {
        QString cells = QStringLiteral("<td>%1</td>").arg(r.point.index + 1);
        for (const SweepSetting &setting : r.point.settings)
            cells += QStringLiteral("<td>%1</td>").arg(escaped(setting.value));
        cells += QStringLiteral("<td>%1</td><td>%2</td>")
                     .arg(escaped(sweepWorkloadName(q.workloads.value(r.point.workload))))
                     .arg(r.repeats);
        return cells;
    };
    QString pointHeader = QStringLiteral("<th>#</th>");
    for (const SweepParameter &p : q.parameters)
        pointHeader += QStringLiteral("<th>%1</th>").arg(escaped(sweepParameterName(p.attribute)));
    pointHeader
        += QStringLiteral("<th>%1</th><th>%2</th>")
               .arg(QCoreApplication::translate("Report", "workload"), QCoreApplication::translate("Report", "runs"));

    // fio, per point.
    const QList<const SweepMetric *> fio = shownMetrics(results, { QString() },
        { "read_iops", "write_iops", "read_bytes_per_second", "write_bytes_per_second", "clat_p50_us", "clat_p99_us",
            "clat_p99_9_us" });
    h += QStringLiteral("<h3>%1</h3>").arg(QCoreApplication::translate("Report", "fio per point")) + table(forPrint);
    h += QStringLiteral("<tr>") + pointHeader;
    for (const SweepMetric *m : fio)
        h += QStringLiteral("<th>%1</th>").arg(metricHeader(*m));
    h += QStringLiteral("</tr>");
    for (const SweepPointResult &r : results) {
        h += QStringLiteral("<tr>") + pointCells(r);
        for (const SweepMetric *m : fio)
            h += QStringLiteral("<td align=\"right\">%1</td>").arg(meanSpread(r, *m, QString()));
        h += QStringLiteral("</tr>");
    }
    h += QStringLiteral("</table>");

    // iostat -x of the device and each path, per point.
    const QStringList devices = sweepDevices(q.device, results);
    const QList<const SweepMetric *> iostat = shownMetrics(results, devices,
        { "r/s", "w/s", "rrqm", "wrqm", "rareq-sz", "wareq-sz", "r_await", "w_await", "aqu-sz", "util" });
    h += QStringLiteral("<h3>%1</h3>").arg(QCoreApplication::translate("Report", "iostat -x per point and device"))
        + table(forPrint);
    h += QStringLiteral("<tr>") + pointHeader
        + QStringLiteral("<th>%1</th>").arg(QCoreApplication::translate("Report", "device"));
    for (const SweepMetric *m : iostat)
        h += QStringLiteral("<th>%1</th>").arg(metricHeader(*m));
    h += QStringLiteral("</tr>");
    // A device without I/O at a point (a path of a standby group) is named under the table, not a row of zeros.
    QStringList idle;
    const auto moved = [](const QJsonObject &m) {
        return m.value(QLatin1String("r/s")).toDouble() > 0 || m.value(QLatin1String("w/s")).toDouble() > 0;
    };
    for (const SweepPointResult &r : results) {
        for (const QString &device : devices) {
            if (!r.devices.contains(device))
                continue;
            if (!moved(r.devices.value(device).toObject())) {
                if (!idle.contains(device))
                    idle << device;
                continue;
            }
            h += QStringLiteral("<tr>") + pointCells(r) + QStringLiteral("<td>%1</td>").arg(escaped(device));
            for (const SweepMetric *m : iostat)
                h += QStringLiteral("<td align=\"right\">%1</td>").arg(meanSpread(r, *m, device));
            h += QStringLiteral("</tr>");
        }
    }
    h += QStringLiteral("</table>");
    if (!idle.isEmpty())
        h += QStringLiteral("<p>%1</p>")
                 .arg(
                     QCoreApplication::translate("Report", "Without I/O at some or every point (not listed there): %1.")
                         .arg(escaped(idle.join(QStringLiteral(", ")))));

    // In print the title is drawn in the chart (sweepreport.cpp): a page break never parts them.
    for (const ReportChart &c : s.charts) {
        h += forPrint
            ? QStringLiteral("<p><img src=\"%1\"></p>").arg(src(c))
            : QStringLiteral("<h3>%1</h3><figure><img src=\"%2\" alt=\"%1\"></figure>").arg(escaped(c.title), src(c));
    }
    if (!s.outcome.restored.isEmpty() || !s.outcome.restoreErrors.isEmpty()) {
        h += QStringLiteral("<h3>%1</h3><p>")
                 .arg(QCoreApplication::translate("Report", "Restored when the sweep ended"));
        for (const QString &line : s.outcome.restored)
            h += escaped(line) + QStringLiteral("<br>");
        for (const QString &line : s.outcome.restoreErrors)
            h += QStringLiteral("<b>%1</b><br>")
                     .arg(QCoreApplication::translate("Report", "not restored: %1").arg(escaped(line)));
        h += QStringLiteral("</p>");
    }
    if (!s.charts.isEmpty() && s.outcome.results.size() > 0)
        h += QStringLiteral("<p>%1</p>")
                 .arg(QCoreApplication::translate("Report",
                     "The sections below report on the first recording of each point: its configuration as recorded, "
                     "how the "
                     "points differ, and its statistics."));
}

} // namespace

QStringList reportMarkerKey(const AlignedCharts &charts)
{
    QStringList lines;
    const QList<ChartMarker> ordered = markersInTimeOrder(charts.markers);
    for (qsizetype i = 0; i < ordered.size(); ++i)
        lines.append(QStringLiteral("%1  %2  %3").arg(i + 1).arg(ordered[i].label, clock(ordered[i].time)));
    return lines;
}

QString reportHtml(const Report &r, const std::function<QString(const ReportChart &)> &imageSource, bool forPrint)
{
    const QStringList names = distinctRecordingNames(r.recordings);
    //: between the names of the recordings compared, spaces included
    const QString vs = QCoreApplication::translate("Report", " vs ");
    QString title = QCoreApplication::translate("Report", "dmtune report: %1").arg(names.join(vs));
    if (r.sweep) {
        QStringList swept;
        for (const SweepParameter &p : r.sweep->request.parameters)
            swept << sweepParameterName(p.attribute) + QLatin1Char(' ') + p.values.join(QStringLiteral(", "));
        title = QCoreApplication::translate("Report", "dmtune sweep report: %1, %2")
                    .arg(r.sweep->request.device, swept.join(QStringLiteral("; ")));
    }
    QString h
        = QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1</title>").arg(escaped(title));
    if (!forPrint) {
        h += QStringLiteral("<style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
                            "table{border-collapse:collapse;margin:0.5em 0;font-size:90%}"
                            "th,td{border:1px solid #bbb;padding:2px 6px;vertical-align:top}th{background:#eee}"
                            "pre{background:#f6f6f6;padding:0.5em;white-space:pre-wrap}"
                            "img{max-width:100%;border:1px solid #ddd}figure{margin:0.5em 0}</style>");
    }
    h += QStringLiteral("</head><body><h1>%1</h1><p>%2</p>")
             .arg(escaped(title),
                 QCoreApplication::translate("Report", "Generated %1 by dmtune %2.")
                     .arg(r.generated.toUTC().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss 'UTC'")),
                         QStringLiteral(DMTUNE_VERSION)));
    if (r.sweep)
        sweepSection(h, *r.sweep, imageSource, forPrint);
    if (!r.recordings.isEmpty()) {
        recordingsSection(h, r, forPrint);
        fioSection(h, r, forPrint);
        chartsSection(h, r, imageSource, forPrint);
        statsSection(h, r, forPrint);
        latencySection(h, r, imageSource, forPrint);
        eventsSection(h, r, forPrint);
        configSection(h, r, forPrint);
        formulaSection(h, r, forPrint);
    }
    h += QStringLiteral("</body></html>\n");
    return h;
}

} // namespace dmtune
