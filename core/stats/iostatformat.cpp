#include "core/stats/iostatformat.h"

#include <charconv>
#include <cmath>
#include <ctime>

namespace dmtune::iostatformat {

namespace {

// Widths of the text columns in iostat.c write_plain_ext_stat (each printed as " %*.2f").
struct TextColumn {
    Metric metric;
    int width;
};
constexpr TextColumn textColumns[] = {
    { Metric::ReadsPerSec, 7 },
    { Metric::ReadKBPerSec, 9 },
    { Metric::ReadMergesPerSec, 8 },
    { Metric::ReadMergedPercent, 6 },
    { Metric::ReadAwait, 7 },
    { Metric::ReadRequestSize, 8 },
    { Metric::WritesPerSec, 7 },
    { Metric::WriteKBPerSec, 9 },
    { Metric::WriteMergesPerSec, 8 },
    { Metric::WriteMergedPercent, 6 },
    { Metric::WriteAwait, 7 },
    { Metric::WriteRequestSize, 8 },
    { Metric::DiscardsPerSec, 7 },
    { Metric::DiscardKBPerSec, 9 },
    { Metric::DiscardMergesPerSec, 8 },
    { Metric::DiscardMergedPercent, 6 },
    { Metric::DiscardAwait, 7 },
    { Metric::DiscardRequestSize, 8 },
    { Metric::FlushesPerSec, 7 },
    { Metric::FlushAwait, 7 },
    { Metric::AverageQueueSize, 7 },
    { Metric::Utilization, 6 },
};

bool isInflight(Metric m)
{
    return m == Metric::InflightReads || m == Metric::InflightWrites;
}

// In-flight requests are counts, not averages: integers; a split that was not read (NaN) is `unknown`.
QString inflightText(double v, const QString &unknown)
{
    return std::isnan(v) ? unknown : QString::number(qint64(v));
}

// A metric the source could not give (a metrics engine without that counter) is NaN: `unknown` in its place.
QString valueText(double v, const QString &unknown)
{
    return std::isnan(v) ? unknown : fixed2(v);
}

QString jsonString(const QString &s)
{
    QString out;
    out.reserve(s.size() + 2);
    out += u'"';
    for (QChar c : s) {
        if (c == u'"' || c == u'\\')
            out += u'\\';
        if (c.unicode() < 0x20) {
            out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
            continue;
        }
        out += c;
    }
    out += u'"';
    return out;
}

QString strftimeString(qint64 wallMs, const char *format)
{
    const std::time_t t = std::time_t(wallMs / 1000);
    std::tm tm {};
    ::localtime_r(&t, &tm);
    char buffer[128];
    const std::size_t n = std::strftime(buffer, sizeof buffer, format, &tm);
    return QString::fromLocal8Bit(buffer, qsizetype(n));
}

QString tabs(int n)
{
    return QString(n, u'\t');
}

} // namespace

QString fixed2(double value)
{
    // std::to_chars is specified as printf in the C locale: same digits and the same rounding of exact
    // ties (0.125 -> "0.12") as iostat's printf("%.2f"), which Qt's own formatting does not promise.
    char buffer[64];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 2);
    if (r.ec != std::errc())
        return QStringLiteral("0.00");
    return QString::fromLatin1(buffer, r.ptr - buffer);
}

QString date(qint64 wallMs, bool iso)
{
    return strftimeString(wallMs, iso ? "%Y-%m-%d" : "%x");
}

QString timestamp(qint64 wallMs, bool iso)
{
    return strftimeString(wallMs, iso ? "%FT%T%z" : "%x %X");
}

QString textBanner(const HostInfo &host)
{
    // A metrics engine may not say the release, machine or CPU count of its host: "?" rather than a guess.
    const auto known = [](const QString &text) { return text.isEmpty() ? QStringLiteral("?") : text; };
    return QStringLiteral("%1 %2 (%3) \t%4 \t_%5_\t(%6 CPU)\n")
        .arg(host.sysname, known(host.release), known(host.nodename), host.date, known(host.machine),
            host.cpus > 0 ? QString::number(host.cpus) : QStringLiteral("?"));
}

QString textHeader()
{
    // Verbatim from iostat.c write_disk_stat_header (kB units, no --pretty).
    return QStringLiteral("Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz"
                          "     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz"
                          "     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz"
                          "     f/s f_await  aqu-sz  %util\n");
}

QString textRow(const DeviceRow &row)
{
    QString line = row.device.leftJustified(13);
    for (const TextColumn &c : textColumns) {
        line += u' ';
        line += valueText(row.metrics[c.metric], QStringLiteral("-")).rightJustified(c.width);
    }
    line += u'\n';
    return line;
}

QString jsonBegin(const HostInfo &host)
{
    QString s = QStringLiteral("{\"sysstat\": {\n\t\"hosts\": [\n\t\t{\n");
    s += tabs(3) + QStringLiteral("\"nodename\": %1,\n").arg(jsonString(host.nodename));
    s += tabs(3) + QStringLiteral("\"sysname\": %1,\n").arg(jsonString(host.sysname));
    s += tabs(3) + QStringLiteral("\"release\": %1,\n").arg(jsonString(host.release));
    s += tabs(3) + QStringLiteral("\"machine\": %1,\n").arg(jsonString(host.machine));
    s += tabs(3)
        + QStringLiteral("\"number-of-cpus\": %1,\n")
              .arg(host.cpus > 0 ? QString::number(host.cpus) : QStringLiteral("null"));
    s += tabs(3) + QStringLiteral("\"date\": %1,\n").arg(jsonString(host.date));
    s += tabs(3) + QStringLiteral("\"statistics\": [\n");
    return s;
}

QString jsonDisk(const DeviceRow &row)
{
    QString s = QStringLiteral("{\"disk_device\": ") + jsonString(row.device);
    for (Metric m : MetricCatalog::jsonOrder()) {
        s += QStringLiteral(", \"") + MetricCatalog::jsonKey(m) + QStringLiteral("\": ");
        s += isInflight(m) ? inflightText(row.metrics[m], QStringLiteral("null"))
                           : valueText(row.metrics[m], QStringLiteral("null"));
    }
    s += row.extraJson;
    s += u'}';
    return s;
}

QString jsonStatistics(const QString &timestamp, const QList<DeviceRow> &rows)
{
    QString s = tabs(4) + QStringLiteral("{\n");
    s += tabs(5) + QStringLiteral("\"timestamp\": %1,\n").arg(jsonString(timestamp));
    s += tabs(5) + QStringLiteral("\"disk\": [\n");
    for (qsizetype i = 0; i < rows.size(); ++i) {
        s += tabs(6) + jsonDisk(rows[i]);
        s += i + 1 < rows.size() ? QStringLiteral(",\n") : QStringLiteral("\n");
    }
    s += tabs(5) + QStringLiteral("]\n");
    s += tabs(4) + u'}';
    return s;
}

QString jsonSeparator()
{
    return QStringLiteral(",\n");
}

QString jsonEnd()
{
    return QStringLiteral("\n\t\t\t]\n\t\t}\n\t]\n}}\n");
}

QString csvHeader()
{
    QString s = QStringLiteral("timestamp,Device");
    for (Metric m : MetricCatalog::all())
        s += u',' + MetricCatalog::column(m);
    s += u'\n';
    return s;
}

QString csvRow(const QString &timestamp, const DeviceRow &row)
{
    QString s = timestamp + u',' + row.device;
    for (Metric m : MetricCatalog::all()) {
        s += u',';
        s += isInflight(m) ? inflightText(row.metrics[m], QString()) : valueText(row.metrics[m], QString());
    }
    s += u'\n';
    return s;
}

} // namespace dmtune::iostatformat
