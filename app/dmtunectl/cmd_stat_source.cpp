// dmtunectl stat --pcp-host / --pcp-archive / --prometheus: iostat -x from a metrics engine's counters.
#include "statsource.h"

#include "core/metrics/pcpsource.h"
#include "core/metrics/prometheussource.h"
#include "core/stats/iostatformat.h"
#include "signalguard.h"

#include <QDateTime>
#include <QTimer>

#include <memory>

namespace dmtune::cli {

namespace {

Result<std::unique_ptr<MetricsSource>> openSource(const SourceStatRequest &request)
{
    using R = Result<std::unique_ptr<MetricsSource>>;
    if (!request.pcpHost.isEmpty()) {
        auto opened = PcpSource::openHost(request.pcpHost);
        if (!opened)
            return R::failure(opened.errorMessage());
        return R(std::unique_ptr<MetricsSource>(std::move(opened.value())));
    }
    if (!request.pcpArchive.isEmpty()) {
        PcpArchiveWindow window { request.start, request.finish, request.intervalSet ? request.intervalMs : 0 };
        auto opened = PcpSource::openArchive(request.pcpArchive, window);
        if (!opened)
            return R::failure(opened.errorMessage());
        return R(std::unique_ptr<MetricsSource>(std::move(opened.value())));
    }
    auto opened = PrometheusSource::open(request.prometheusUrl, request.instance);
    if (!opened)
        return R::failure(opened.errorMessage());
    return R(std::unique_ptr<MetricsSource>(std::move(opened.value())));
}

iostatformat::HostInfo bannerHost(const MetricsSource &source, qint64 wallMs, bool iso)
{
    const SourceHost host = source.host();
    iostatformat::HostInfo info;
    info.nodename = host.nodename;
    info.release = host.release;
    info.machine = host.machine;
    info.cpus = host.cpus;
    info.date = iostatformat::date(wallMs, iso);
    return info;
}

// Prints one report per interval; owns the previous frame.
class SourceReporter {
public:
    SourceReporter(const SourceStatRequest &request, MetricsSource &source, Streams io)
        : m_request(request)
        , m_source(source)
        , m_io(io)
        , m_iso(qEnvironmentVariable("S_TIME_FORMAT") == QLatin1String("ISO"))
    {
    }

    // The first frame: the devices are resolved in it, the banner printed. False (after one line) on failure.
    bool begin(const CounterFrame &first)
    {
        QStringList missing;
        m_devices = resolveFrameDevices(first, m_request.devices, &missing);
        if (!missing.isEmpty()) {
            QStringList present;
            for (const DiskCounters &d : first.devices)
                present.append(first.dmNames.contains(d.name) ? first.dmNames.value(d.name) : d.name);
            m_io.err << "dmtunectl: stat: " << m_source.description() << " has no device "
                     << missing.join(QStringLiteral(", ")) << " (it has: "
                     << (present.isEmpty() ? QStringLiteral("none") : present.join(QStringLiteral(", "))) << ")\n";
            return false;
        }
        m_previous = first;
        const qint64 wallMs = first.timeNs / 1'000'000;
        switch (m_request.format) {
        case StatFormat::Text:
            m_io.out << iostatformat::textBanner(bannerHost(m_source, wallMs, m_iso)) << '\n';
            break;
        case StatFormat::Json:
            m_io.out << iostatformat::jsonBegin(bannerHost(m_source, wallMs, m_iso));
            break;
        case StatFormat::Csv:
            m_io.out << iostatformat::csvHeader();
            break;
        }
        m_io.out.flush();
        return true;
    }

    // A later frame: one report, unless it is the same sample again or follows a gap (a new baseline).
    void add(const CounterFrame &frame)
    {
        if (frame.timeNs <= m_previous.timeNs)
            return;
        if (frame.afterGap) {
            m_io.err << "dmtunectl: stat: a gap in the samples at "
                     << iostatformat::timestamp(frame.timeNs / 1'000'000, m_iso) << ": no report spans it\n";
            m_previous = frame;
            return;
        }
        const SampleBatch batch = batchBetween(m_previous, frame, m_devices);
        m_previous = frame;
        QList<iostatformat::DeviceRow> rows;
        for (const DeviceSample &d : batch.devices) {
            iostatformat::DeviceRow row { d.name(), d.metrics(batch.elapsedSeconds) };
            withoutMissingFields(frame.hasField, &row.metrics);
            rows.append(row);
        }
        writeStatReport(m_io.out, m_request.format, batch.wallMs, m_iso, rows, m_reports);
        m_io.out.flush();
        ++m_reports;
    }

    bool done() const { return m_request.count > 0 && m_reports >= m_request.count; }

    void end()
    {
        if (m_request.format == StatFormat::Json)
            m_io.out << iostatformat::jsonEnd();
        m_io.out.flush();
    }

private:
    const SourceStatRequest &m_request;
    MetricsSource &m_source;
    Streams m_io;
    bool m_iso;
    QStringList m_devices;
    CounterFrame m_previous;
    qint64 m_reports = 0;
};

} // namespace

void writeStatReport(QTextStream &out, StatFormat format, qint64 wallMs, bool iso,
    const QList<iostatformat::DeviceRow> &rows, qint64 reportsBefore, const QString &textAfterRows)
{
    switch (format) {
    case StatFormat::Text:
        out << iostatformat::timestamp(wallMs, iso) << '\n' << iostatformat::textHeader();
        for (const auto &row : rows)
            out << iostatformat::textRow(row);
        out << textAfterRows << "\n\n"; // iostat ends each report with two empty lines
        break;
    case StatFormat::Json:
        if (reportsBefore > 0)
            out << iostatformat::jsonSeparator();
        out << iostatformat::jsonStatistics(iostatformat::timestamp(wallMs, iso), rows);
        break;
    case StatFormat::Csv: {
        // Local time with its offset: unambiguous, and sorts as text within one offset.
        const QDateTime local = QDateTime::fromMSecsSinceEpoch(wallMs);
        const QString stamp = local.toOffsetFromUtc(local.offsetFromUtc()).toString(Qt::ISODateWithMs);
        for (const auto &row : rows)
            out << iostatformat::csvRow(stamp, row);
        break;
    }
    }
}

int runSourceStat(const SourceStatRequest &request, Streams io)
{
    auto opened = openSource(request);
    if (!opened)
        return fail(io, QStringLiteral("stat: ") + opened.errorMessage());
    MetricsSource &source = *opened.value();
    io.err << "dmtunectl: stat: " << source.description() << '\n';
    for (const QString &limit : source.limits())
        io.err << "  note: " << limit << '\n';
    io.err.flush();

    // An archive interpolated from its start has no values at the start itself (as pcp iostat's NODATA line):
    // the first sample is the first with devices.
    auto first = source.fetch();
    while (first && first->devices.isEmpty() && !request.pcpArchive.isEmpty())
        first = source.fetch();
    if (!first)
        return fail(io, QStringLiteral("stat: ") + first.errorMessage());
    SourceReporter reporter(request, source, io);
    if (!reporter.begin(first.value()))
        return ExitUsage;

    if (!request.pcpArchive.isEmpty()) {
        // An archive is read to its end (or --finish, or -c): no clock to wait for.
        while (!reporter.done()) {
            auto frame = source.fetch();
            if (!frame) {
                if (source.atEnd())
                    break;
                reporter.end();
                return fail(io, QStringLiteral("stat: ") + frame.errorMessage());
            }
            reporter.add(frame.value());
        }
        reporter.end();
        return ExitOk;
    }

    // A live engine: fetched every interval; a report per new sample (Prometheus: per scrape).
    int exitCode = ExitOk;
    QTimer timer;
    timer.setInterval(request.intervalMs);
    const auto finish = [&](int code) {
        timer.stop();
        exitCode = code;
        reporter.end();
        QCoreApplication::exit(code);
    };
    QObject::connect(&timer, &QTimer::timeout, [&] {
        auto frame = source.fetch();
        if (!frame) {
            io.err << "dmtunectl: stat: " << frame.errorMessage() << '\n';
            finish(ExitFailure);
            return;
        }
        reporter.add(frame.value());
        if (reporter.done())
            finish(ExitOk);
    });
    SignalGuard signalGuard;
    signalGuard.onSignal(&timer, [&] { finish(ExitOk); });
    timer.start();
    QCoreApplication::exec();
    return exitCode;
}

} // namespace dmtune::cli
