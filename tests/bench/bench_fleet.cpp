// bench_fleet: the numbers of docs/fleet.md's "Scale and cost". A plain program, not a pass/fail test.
//
// A synthetic fleet behind a real Prometheus (Debian's, started here on a loopback port with its own
// configuration and storage): 100 targets, each a node_exporter 1.5 diskstats page of 50 devices (the 17
// diskstats counters, io_now and info, names and HELP/TYPE lines as node_exporter 1.5 prints them), served by
// this program itself in a child process (`--serve PORT`, so its CPU is not counted as the fleet view's), with
// counters growing with the clock so every rate is non-zero. Prometheus scrapes them as instances
// host-000:9100 .. host-099:9100. The real FleetPoller and FleetModel then poll the 100 hosts every interval
// for the given minutes, and the program prints: the time from setHosts() to the first full table, the
// process's CPU (getrusage) per wall second over the steady part, Prometheus' and the page server's CPU for
// context, peak RSS and the bytes the fleet keeps per device-sample.
//
// usage: bench_fleet [--minutes M] [--interval S] [--scrape S] [--hosts N] [--devices N]
//   defaults: 2 minutes, the fleet's interval 10 s, scrape_interval 10 s, 100 hosts, 50 devices
#include "core/fleet/fleethosts.h"
#include "core/fleet/fleetpoller.h"
#include "core/metrics/prometheussource.h"
#include "tests/common/loopbackport.h"
#include "widgets/fleet/fleetmodel.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <arpa/inet.h>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

const QString Prometheus = u"/usr/bin/prometheus"_s;

struct Options {
    double minutes = 2;
    int interval = 10; // the fleet poller's
    int scrape = 10; // Prometheus' scrape_interval
    int hosts = 100;
    int devices = 50;
};

// --- the page server (the child process) -------------------------------------------------------------------

// node_exporter 1.5's diskstats series in its (alphabetical) order: name, HELP, bytes or seconds per unit of the
// synthetic rate. node_disk_info and node_disk_io_now are written apart.
struct Series {
    const char *name;
    const char *help;
    double perSecond; // the synthetic counter's growth per second, per device
};
const Series DiskSeries[] = {
    { "node_disk_discard_time_seconds_total", "This is the total number of seconds spent by all discards.", 0.001 },
    { "node_disk_discarded_sectors_total", "The total number of sectors discarded successfully.", 64 },
    { "node_disk_discards_completed_total", "The total number of discards completed successfully.", 1 },
    { "node_disk_discards_merged_total", "The total number of discards merged.", 0.5 },
    { "node_disk_flush_requests_time_seconds_total", "This is the total number of seconds spent by all flush requests.",
        0.002 },
    { "node_disk_flush_requests_total", "The total number of flush requests completed successfully", 2 },
    { "node_disk_io_time_seconds_total", "Total seconds spent doing I/Os.", 0.4 },
    { "node_disk_io_time_weighted_seconds_total", "The weighted # of seconds spent doing I/Os.", 0.9 },
    { "node_disk_read_bytes_total", "The total number of bytes read successfully.", 4096.0 * 200 },
    { "node_disk_read_time_seconds_total", "The total number of seconds spent by all reads.", 0.3 },
    { "node_disk_reads_completed_total", "The total number of reads completed successfully.", 200 },
    { "node_disk_reads_merged_total", "The total number of reads merged.", 20 },
    { "node_disk_write_time_seconds_total", "This is the total number of seconds spent by all writes.", 0.5 },
    { "node_disk_writes_completed_total", "The total number of writes completed successfully.", 100 },
    { "node_disk_writes_merged_total", "The number of writes merged.", 30 },
    { "node_disk_written_bytes_total", "The total number of bytes written successfully.", 4096.0 * 100 },
};

QByteArray deviceName(int i, int devices)
{
    // A fifth dm maps, the rest SCSI disks: sda .. sdz, sdaa ..
    const int maps = devices / 5;
    if (i >= devices - maps)
        return "dm-" + QByteArray::number(i - (devices - maps));
    QByteArray suffix;
    for (int k = i; k >= 0; k = k / 26 - 1)
        suffix.prepend(char('a' + k % 26));
    return "sd" + suffix;
}

// One host's /metrics page at `seconds` since the server started. Host and device scale the rates a little so
// the hosts differ.
QByteArray page(int host, int devices, double seconds)
{
    QByteArray out;
    out.reserve(devices * 1800);
    auto line = [&](const char *name, const QByteArray &device, double value) {
        out += name;
        out += "{device=\"" + device + "\"} " + QByteArray::number(value, 'g', 17) + '\n';
    };
    const auto help = [&](const char *name, const char *text, const char *type) {
        out += "# HELP "_ba + name + ' ' + text + "\n# TYPE " + name + ' ' + type + '\n';
    };
    bool infoDone = false;
    const auto writeInfoAndIoNow = [&] {
        help("node_disk_info", "Info of /sys/block/<block_device>.", "gauge");
        for (int d = 0; d < devices; ++d) {
            const QByteArray name = deviceName(d, devices);
            const bool map = name.startsWith("dm-");
            out += "node_disk_info{device=\"" + name + "\",major=\"" + (map ? "253" : "8") + "\",minor=\""
                + QByteArray::number(map ? d : d * 16)
                + "\",model=\"\",path=\"\",revision=\"\",serial=\"\",wwn=\"\"} 1\n";
        }
        help("node_disk_io_now", "The number of I/Os currently in progress.", "gauge");
        for (int d = 0; d < devices; ++d)
            line("node_disk_io_now", deviceName(d, devices), (host + d) % 4);
        infoDone = true;
    };
    for (const Series &s : DiskSeries) {
        if (!infoDone && qstrcmp(s.name, "node_disk_io_time_seconds_total") == 0)
            writeInfoAndIoNow(); // node_disk_info and node_disk_io_now sort before it
        help(s.name, s.help, "counter");
        for (int d = 0; d < devices; ++d) {
            const double scale = 1 + 0.01 * ((host * 7 + d) % 50);
            const double value = 1e6 * s.perSecond + s.perSecond * scale * seconds;
            // As the kernel counts: whole I/Os, whole sectors, milliseconds.
            const QByteArrayView name(s.name);
            line(s.name, deviceName(d, devices),
                name.endsWith("_seconds_total")     ? std::floor(value * 1000) / 1000
                    : name.endsWith("_bytes_total") ? 512 * std::floor(value / 512)
                                                    : std::floor(value));
        }
    }
    return out;
}

int listenOn(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(quint16(port));
    if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 || ::listen(fd, 128) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// GET /host-NNN/metrics -> that host's page; one request per connection, answered in turn.
int serve(int port, int devices)
{
    const int listener = listenOn(port);
    if (listener < 0) {
        std::fprintf(stderr, "bench_fleet --serve: cannot listen on 127.0.0.1:%d\n", port);
        return 1;
    }
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        const int fd = ::accept(listener, nullptr, nullptr);
        if (fd < 0)
            continue;
        timeval timeout { 2, 0 };
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        QByteArray request;
        char buffer[4096];
        while (!request.contains("\r\n\r\n") && request.size() < 65536) {
            const ssize_t n = ::read(fd, buffer, sizeof buffer);
            if (n <= 0)
                break;
            request.append(buffer, n);
        }
        const QList<QByteArray> words = request.split(' ');
        const QByteArray path = words.value(1);
        QByteArray body;
        QByteArray status = "200 OK";
        if (path.startsWith("/host-") && path.endsWith("/metrics"))
            body = page(path.mid(6, path.size() - 6 - 8).toInt(), devices, double(clock.nsecsElapsed()) / 1e9);
        else
            status = "404 Not Found";
        const QByteArray answer = "HTTP/1.1 " + status
            + "\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\nContent-Length: "
            + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
        for (qsizetype done = 0; done < answer.size();) {
            const ssize_t n = ::write(fd, answer.constData() + done, size_t(answer.size() - done));
            if (n <= 0)
                break;
            done += n;
        }
        ::close(fd);
    }
}

// --- the benchmark -----------------------------------------------------------------------------------------

int freePort()
{
    return dmtune::test::freeLoopbackPort();
}

double selfCpuSeconds()
{
    rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// utime + stime of another process, from /proc/PID/stat (fields 14 and 15, after the parenthesised name).
double processCpuSeconds(qint64 pid)
{
    QFile file(u"/proc/%1/stat"_s.arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray stat = file.readAll();
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return 0;
    return double(fields[11].toLongLong() + fields[12].toLongLong()) / double(::sysconf(_SC_CLK_TCK));
}

double wallSeconds(const QElapsedTimer &clock)
{
    return double(clock.nsecsElapsed()) / 1e9;
}

void waitMs(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

QProcess *startChild(const QString &program, const QStringList &arguments, const QString &log, QObject *parent)
{
    auto *process = new QProcess(parent);
    process->setProgram(program);
    process->setArguments(arguments);
    // Killed with the benchmark even when it crashes or is killed itself.
    process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    process->setStandardOutputFile(log);
    process->setStandardErrorFile(log, QIODevice::Append);
    process->start();
    return process->waitForStarted(5000) ? process : nullptr;
}

QByteArray prometheusConfig(const Options &options, int pagePort)
{
    QByteArray yaml = "global:\n  scrape_interval: " + QByteArray::number(options.scrape)
        + "s\n  scrape_timeout: " + QByteArray::number(std::min(options.scrape, 10))
        + "s\nscrape_configs:\n  - job_name: node\n    static_configs:\n";
    for (int h = 0; h < options.hosts; ++h) {
        const QByteArray name = u"host-%1"_s.arg(h, 3, 10, QChar(u'0')).toUtf8();
        yaml += "      - targets: ['127.0.0.1:" + QByteArray::number(pagePort)
            + "']\n        labels: {__metrics_path__: '/" + name + "/metrics', instance: '" + name + ":9100'}\n";
    }
    return yaml;
}

// The value of a scalar-valued instant query (`count(...)`), -1 when there is none yet.
double queryNumber(const PrometheusSource &source, const QString &promql)
{
    const Result<QByteArray> body = source.get(u"/api/v1/query"_s, { { u"query"_s, promql } });
    if (!body)
        return -1;
    const QJsonArray result = QJsonDocument::fromJson(*body)[u"data"_s][u"result"_s].toArray();
    return result.isEmpty() ? -1 : result[0][u"value"_s][1].toString().toDouble();
}

// What one CounterFrame costs on the heap and inline, per the containers' capacity: the poller keeps one per
// host (the last, to difference with the next).
qsizetype frameBytes(const CounterFrame &frame)
{
    qsizetype bytes = sizeof(CounterFrame) + frame.devices.capacity() * qsizetype(sizeof(DiskCounters));
    for (const DiskCounters &d : frame.devices)
        bytes += 16 + (d.name.capacity() + 1) * 2; // QString: QArrayData header + UTF-16 + terminator
    // A QHash node: key and value QStrings inline plus each one's data; the span's metadata about 1 byte per slot.
    for (auto it = frame.dmNames.cbegin(); it != frame.dmNames.cend(); ++it)
        bytes += 2 * sizeof(QString) + 2 * 16 + (it.key().size() + it.value().size() + 2) * 2 + 2;
    return bytes;
}

qsizetype summaryBytes(const FleetHostSummary &summary)
{
    qsizetype bytes = sizeof(FleetHostSummary) + summary.devices.capacity() * qsizetype(sizeof(FleetDeviceFigures));
    for (const FleetDeviceFigures &d : summary.devices) {
        bytes += 16 + (d.name.capacity() + 1) * 2;
        if (!d.mapName.isEmpty())
            bytes += 16 + (d.mapName.capacity() + 1) * 2;
    }
    return bytes;
}

int run(const Options &options)
{
    QTemporaryDir dir;
    if (!dir.isValid() || !QFile::exists(Prometheus)) {
        std::fprintf(stderr, "bench_fleet: needs %s and a temporary directory\n", qPrintable(Prometheus));
        return 1;
    }
    QObject children;
    const int pagePort = freePort();
    QProcess *server = startChild(QCoreApplication::applicationFilePath(),
        { u"--serve"_s, QString::number(pagePort), u"--devices"_s, QString::number(options.devices) },
        dir.filePath(u"server.log"_s), &children);
    const int promPort = freePort();
    QFile config(dir.filePath(u"prometheus.yml"_s));
    if (!config.open(QIODevice::WriteOnly) || config.write(prometheusConfig(options, pagePort)) < 0)
        return 1;
    config.close();
    QProcess *prometheus = startChild(Prometheus,
        { u"--config.file="_s + config.fileName(), u"--storage.tsdb.path="_s + dir.filePath(u"tsdb"_s),
            u"--web.listen-address=127.0.0.1:%1"_s.arg(promPort), u"--log.level=warn"_s },
        dir.filePath(u"prometheus.log"_s), &children);
    if (!server || !prometheus) {
        std::fprintf(stderr, "bench_fleet: the page server or prometheus did not start\n");
        return 1;
    }
    const QString url = u"http://127.0.0.1:%1"_s.arg(promPort);
    std::printf("bench_fleet: %d hosts x %d devices, prometheus %s (pid %lld), pages on 127.0.0.1:%d, "
                "scrape %d s, fleet interval %d s, %g min\n",
        options.hosts, options.devices, qPrintable(url), prometheus->processId(), pagePort, options.scrape,
        options.interval, options.minutes);

    // Wait until every target has two scrapes, so that the first round can give every host its figures.
    std::unique_ptr<PrometheusSource> probe;
    QElapsedTimer waited;
    waited.start();
    const QString twoScrapes = u"count(count_over_time(node_disk_io_now{device=\"sda\"}[1h]) >= 2)"_s;
    for (;;) {
        if (!probe)
            if (auto opened = PrometheusSource::open(url, u"host-000:9100"_s))
                probe = std::move(opened.value());
        if (probe && queryNumber(*probe, twoScrapes) >= options.hosts)
            break;
        if (waited.elapsed() > 10'000 + 4'000 * qint64(options.scrape)) {
            std::fprintf(stderr, "bench_fleet: prometheus did not scrape every target twice (see %s)\n",
                qPrintable(dir.filePath(u"prometheus.log"_s)));
            return 1;
        }
        waitMs(500);
    }
    std::printf("prometheus has two scrapes of every target after %.1f s\n", wallSeconds(waited));

    QStringList instances;
    for (int h = 0; h < options.hosts; ++h)
        instances.append(u"host-%1:9100"_s.arg(h, 3, 10, QChar(u'0')));
    const QList<FleetHost> hosts = fleetHostsFromPrometheusInstances(url, instances);

    FleetPoller poller;
    FleetModel model;
    model.setHosts(hosts);
    int summarized = 0;
    int failures = 0;
    int summaries = 0;
    QElapsedTimer clock;
    double firstFullTable = -1;
    qsizetype keptBytes = 0; // the newest frame of every host, as the poller keeps it
    QList<qsizetype> frameBytesOf(hosts.size());
    qsizetype listCapacity = 0; // host 0's newest frame: its device list's capacity, its first name's
    qsizetype nameCapacity = 0;
    QObject::connect(&poller, &FleetPoller::hostOpened, &model, &FleetModel::setDescription);
    QObject::connect(&poller, &FleetPoller::hostFailed, &model, [&](int host, const QString &message) {
        ++failures;
        std::fprintf(stderr, "host %d: %s\n", host, qPrintable(message));
        model.setError(host, message);
    });
    QObject::connect(
        &poller, &FleetPoller::framesFetched, &poller, [&](int host, const CounterFrame &, const CounterFrame &cur) {
            keptBytes += frameBytes(cur) - frameBytesOf[host];
            frameBytesOf[host] = frameBytes(cur);
            if (host == 0) {
                listCapacity = cur.devices.capacity();
                nameCapacity = cur.devices.isEmpty() ? 0 : cur.devices.first().name.capacity();
            }
        });
    QObject::connect(&poller, &FleetPoller::summaryReady, &model, [&](int host, const FleetHostSummary &summary) {
        if (!model.summary(host))
            ++summarized;
        ++summaries;
        model.setSummary(host, summary);
        if (summarized == hosts.size() && firstFullTable < 0)
            firstFullTable = wallSeconds(clock);
    });

    rusage before {};
    ::getrusage(RUSAGE_SELF, &before);
    const double cpu0 = selfCpuSeconds();
    poller.setIntervalSeconds(options.interval);
    clock.start();
    poller.setHosts(hosts);
    poller.start();
    while (firstFullTable < 0 && wallSeconds(clock) < 60)
        waitMs(20);
    const double cpuFirst = selfCpuSeconds() - cpu0;
    if (firstFullTable < 0) {
        std::fprintf(stderr, "bench_fleet: %d of %d hosts summarized after 60 s\n", summarized, int(hosts.size()));
        return 1;
    }

    // The steady part: from the first full table's round on, whole intervals.
    waitMs(options.interval * 1000 / 2);
    const double steady0 = wallSeconds(clock);
    const double self0 = selfCpuSeconds();
    const double prom0 = processCpuSeconds(prometheus->processId());
    const double server0 = processCpuSeconds(server->processId());
    const int summaries0 = summaries;
    waitMs(int(options.minutes * 60'000));
    const double steadyWall = wallSeconds(clock) - steady0;
    const double selfCpu = selfCpuSeconds() - self0;
    const double promCpu = processCpuSeconds(prometheus->processId()) - prom0;
    const double serverCpu = processCpuSeconds(server->processId()) - server0;
    const int steadySummaries = summaries - summaries0;
    poller.stop();

    rusage after {};
    ::getrusage(RUSAGE_SELF, &after);
    const int deviceSamples = int(hosts.size()) * options.devices;
    qsizetype modelBytes = 0;
    for (int h = 0; h < hosts.size(); ++h)
        if (model.summary(h))
            modelBytes += summaryBytes(*model.summary(h));

    std::printf("\n%-52s %12s\n", "measure", "value");
    std::printf("%-52s %12.2f\n", "first full table after setHosts(), s", firstFullTable);
    std::printf("%-52s %12.2f\n", "  CPU until then, s", cpuFirst);
    std::printf("%-52s %12.0f\n", "steady part, s", steadyWall);
    std::printf("%-52s %12.1f\n", "  host summaries per interval", steadySummaries * options.interval / steadyWall);
    std::printf("%-52s %12d\n", "  failed fetches (whole run)", failures);
    std::printf("%-52s %12.2f\n", "  fleet view CPU, % of one core", 100 * selfCpu / steadyWall);
    std::printf("%-52s %12.2f\n", "  CPU per host fetch + summary, ms", 1000 * selfCpu / std::max(1, steadySummaries));
    std::printf("%-52s %12.2f\n", "  prometheus CPU, % of one core", 100 * promCpu / steadyWall);
    std::printf("%-52s %12.2f\n", "  page server CPU, % of one core", 100 * serverCpu / steadyWall);
    std::printf("%-52s %12.1f\n", "peak RSS, MiB", double(after.ru_maxrss) / 1024);
    std::printf("%-52s %12.1f\n", "  peak RSS before setHosts(), MiB", double(before.ru_maxrss) / 1024);
    std::printf("%-52s %12d\n", "device-samples kept (1 frame per host)", deviceSamples);
    std::printf("%-52s %12.0f\n", "  poller's frames, bytes per device-sample", double(keptBytes) / deviceSamples);
    std::printf("%-52s %12.0f\n", "  model's summaries, bytes per device", double(modelBytes) / deviceSamples);
    std::printf("%-52s %12zu\n", "  sizeof(DiskCounters)", sizeof(DiskCounters));
    std::printf("%-52s %12lld\n", "  a frame's device list: capacity", qint64(listCapacity));
    std::printf("%-52s %12lld\n", "  a device name's capacity, UTF-16 units", qint64(nameCapacity));
    std::printf("%-52s %12zu\n", "  sizeof(FleetDeviceFigures)", sizeof(FleetDeviceFigures));

    for (QProcess *process : { server, prometheus }) {
        process->kill();
        process->waitForFinished(5000);
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    // The serving child needs no Qt application.
    if (argc >= 3 && qstrcmp(argv[1], "--serve") == 0) {
        const int devices = argc >= 5 && qstrcmp(argv[3], "--devices") == 0 ? std::atoi(argv[4]) : 50;
        return serve(std::atoi(argv[2]), devices);
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // progress lines as they come, also into a file
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    Options options;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        const QString &name = args[i];
        const int value = args[i + 1].toInt();
        if (name == u"--minutes"_s)
            options.minutes = args[i + 1].toDouble();
        else if (name == u"--interval"_s)
            options.interval = value;
        else if (name == u"--scrape"_s)
            options.scrape = value;
        else if (name == u"--hosts"_s)
            options.hosts = value;
        else if (name == u"--devices"_s)
            options.devices = value;
        else {
            std::fprintf(
                stderr, "usage: bench_fleet [--minutes M] [--interval S] [--scrape S] [--hosts N] [--devices N]\n");
            return 2;
        }
    }
    return run(options);
}
