#include "core/latency/latencystream.h"

#include "core/params/applier.h"
#include "core/sysfs/sysfsroot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <cstring>

namespace dmtune {

namespace {

QString numberText(BlockDeviceNumber d)
{
    return QStringLiteral("%1:%2").arg(d.major).arg(d.minor);
}

std::optional<BlockDeviceNumber> parseNumber(const QString &text)
{
    const QStringList parts = text.split(u':');
    bool majorOk = false;
    bool minorOk = false;
    const BlockDeviceNumber d { parts.value(0).toUInt(&majorOk), parts.value(1).toUInt(&minorOk) };
    if (parts.size() != 2 || !majorOk || !minorOk)
        return std::nullopt;
    return d;
}

QJsonObject histogramJson(const LatencyHistogram &h)
{
    QJsonArray buckets;
    for (int i = 0; i < latencybuckets::Count; ++i) {
        if (h.counts[size_t(i)] != 0)
            buckets.append(QJsonArray { i, qint64(h.counts[size_t(i)]) });
    }
    return { { QStringLiteral("sum_ns"), qint64(h.sumNs) }, { QStringLiteral("buckets"), buckets } };
}

// A JSON number that is a non-negative integer (doubles hold them exactly up to 2^53: ~104 days of ns per I/O sum).
std::optional<quint64> count(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (!(d >= 0) || d > 9007199254740992.0 || d != double(qint64(d)))
        return std::nullopt;
    return quint64(d);
}

Result<LatencyHistogram> parseHistogram(const QJsonValue &value, const QString &where)
{
    using R = Result<LatencyHistogram>;
    const QJsonObject o = value.toObject();
    if (!value.isObject() || o.size() != 2 || !o.contains(QLatin1String("buckets")))
        return R::failure(QStringLiteral("%1: not {sum_ns, buckets}").arg(where));
    LatencyHistogram h;
    const auto sum = count(o.value(QLatin1String("sum_ns")));
    if (!sum)
        return R::failure(QStringLiteral("%1: sum_ns is not a count").arg(where));
    h.sumNs = *sum;
    int previous = -1;
    for (const QJsonValue &entry : o.value(QLatin1String("buckets")).toArray()) {
        const QJsonArray pair = entry.toArray();
        const auto index = count(pair.at(0));
        const auto n = count(pair.at(1));
        if (pair.size() != 2 || !index || !n || int(*index) <= previous || *index >= quint64(latencybuckets::Count))
            return R::failure(QStringLiteral("%1: a bucket is not [index, count] in order").arg(where));
        previous = int(*index);
        h.counts[size_t(previous)] = *n;
    }
    return h;
}

} // namespace

QByteArray latencyRequestJson(const QList<BlockDeviceNumber> &devices)
{
    QJsonArray names;
    for (BlockDeviceNumber d : devices)
        names.append(numberText(d));
    const QJsonObject request { { QStringLiteral("latency"), QJsonObject { { QStringLiteral("devices"), names } } } };
    return QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n';
}

bool isLatencyRequest(const QByteArray &line)
{
    return line.trimmed().startsWith("{\"latency\"");
}

Result<QList<BlockDeviceNumber>> parseLatencyRequest(const QByteArray &line)
{
    using R = Result<QList<BlockDeviceNumber>>;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (!doc.isObject())
        return R::failure(QStringLiteral("latency request is not a JSON object"));
    const QJsonObject root = doc.object();
    const QJsonObject latency = root.value(QLatin1String("latency")).toObject();
    if (root.size() != 1 || latency.size() != 1 || !latency.value(QLatin1String("devices")).isArray())
        return R::failure(QStringLiteral("latency request must be {\"latency\": {\"devices\": [...]}}"));
    const QJsonArray names = latency.value(QLatin1String("devices")).toArray();
    if (names.isEmpty() || names.size() > BlockLatencyProbe::MaxDevices)
        return R::failure(QStringLiteral("latency request: 1 to %1 devices, not %2")
                              .arg(BlockLatencyProbe::MaxDevices)
                              .arg(names.size()));
    QList<BlockDeviceNumber> devices;
    for (const QJsonValue &name : names) {
        const auto d = parseNumber(name.toString());
        if (!d || devices.contains(*d))
            return R::failure(QStringLiteral("latency request: '%1' is not a new MAJ:MIN").arg(name.toString()));
        devices.append(*d);
    }
    return devices;
}

QJsonObject deviceLatencyJson(const DeviceLatency &latency)
{
    return { { QStringLiteral("lost"), qint64(latency.lost) },
        { QStringLiteral("device"), histogramJson(latency.device) },
        { QStringLiteral("queue"), histogramJson(latency.queue) } };
}

Result<DeviceLatency> parseDeviceLatency(const QJsonObject &o, const QString &where)
{
    using R = Result<DeviceLatency>;
    const auto lost = count(o.value(QLatin1String("lost")));
    if (!lost)
        return R::failure(QStringLiteral("%1: lost is not a count").arg(where));
    const auto device = parseHistogram(o.value(QLatin1String("device")), where);
    if (!device)
        return R::failure(device.errorMessage());
    const auto queue = parseHistogram(o.value(QLatin1String("queue")), where);
    if (!queue)
        return R::failure(queue.errorMessage());
    return DeviceLatency { device.value(), queue.value(), *lost };
}

QByteArray latencyReadingJson(const LatencyReading &reading)
{
    QJsonArray devices;
    for (auto it = reading.devices.cbegin(); it != reading.devices.cend(); ++it) {
        QJsonObject o = deviceLatencyJson(*it);
        o.insert(QStringLiteral("dev"), numberText(it.key()));
        devices.append(o);
    }
    const QJsonObject root { { QStringLiteral("missed"), qint64(reading.missedEvents) },
        { QStringLiteral("devices"), devices } };
    return QJsonDocument(root).toJson(QJsonDocument::Compact) + '\n';
}

Result<LatencyReading> parseLatencyReading(const QByteArray &line)
{
    using R = Result<LatencyReading>;
    if (line.size() > latencyStreamMaxLine)
        return R::failure(QStringLiteral("latency reading longer than %1 bytes").arg(latencyStreamMaxLine));
    const QJsonDocument doc = QJsonDocument::fromJson(line);
    const QJsonObject root = doc.object();
    const auto missed = count(root.value(QLatin1String("missed")));
    if (!doc.isObject() || root.size() != 2 || !missed || !root.value(QLatin1String("devices")).isArray())
        return R::failure(QStringLiteral("latency reading is not {missed, devices}"));
    LatencyReading reading;
    reading.missedEvents = *missed;
    for (const QJsonValue &value : root.value(QLatin1String("devices")).toArray()) {
        const QJsonObject o = value.toObject();
        const auto d = parseNumber(o.value(QLatin1String("dev")).toString());
        if (o.size() != 4 || !d || !count(o.value(QLatin1String("lost"))) || reading.devices.contains(*d))
            return R::failure(QStringLiteral("latency reading: a device is not {dev, lost, device, queue}"));
        const auto latency = parseDeviceLatency(o, numberText(*d));
        if (!latency)
            return R::failure(latency.errorMessage());
        reading.devices.insert(*d, latency.value());
    }
    return reading;
}

Result<LatencyReading> parseHelperLatencyLine(const QByteArray &line)
{
    if (const QJsonObject o = QJsonDocument::fromJson(line).object(); o.contains(QLatin1String("error")))
        return Result<LatencyReading>::failure(o.value(QLatin1String("error")).toString());
    return parseLatencyReading(line);
}

QByteArray latencyWatchLine(const QList<BlockDeviceNumber> &devices)
{
    QByteArray line = "watch";
    for (BlockDeviceNumber d : devices)
        line += ' ' + numberText(d).toLatin1();
    return line + '\n';
}

Result<QList<BlockDeviceNumber>> parseLatencyWatchLine(const QByteArray &line)
{
    using R = Result<QList<BlockDeviceNumber>>;
    if (!line.endsWith('\n') || !(line.startsWith("watch ") || line == "watch\n"))
        return R::failure(QStringLiteral("not a watch line"));
    const QList<QByteArray> words = line.trimmed().split(' ');
    if (words.size() - 1 > BlockLatencyProbe::MaxDevices)
        return R::failure(QStringLiteral("watch: at most %1 devices").arg(BlockLatencyProbe::MaxDevices));
    QList<BlockDeviceNumber> devices;
    for (qsizetype i = 1; i < words.size(); ++i) {
        const auto d = parseNumber(QString::fromLatin1(words[i]));
        if (!d || devices.contains(*d))
            return R::failure(QStringLiteral("watch: '%1' is not a new MAJ:MIN").arg(QString::fromLatin1(words[i])));
        devices.append(*d);
    }
    return devices;
}

int serveLatencyStream(QList<BlockDeviceNumber> devices, std::FILE *in, std::FILE *out)
{
    const auto write = [out](const QByteArray &line) {
        std::fwrite(line.constData(), 1, size_t(line.size()), out);
        std::fflush(out);
    };
    auto probe = BlockLatencyProbe::open();
    if (probe) {
        if (const Status watched = probe.value()->setWatched(devices); !watched)
            probe = Result<std::unique_ptr<BlockLatencyProbe>>::failure(watched.errorMessage());
    }
    if (!probe) {
        write(QJsonDocument(QJsonObject { { QStringLiteral("error"), probe.errorMessage() } })
                  .toJson(QJsonDocument::Compact)
            + '\n');
        return 1;
    }
    // A watch line of 128 devices is under 2 KiB.
    char line[4096];
    while (std::fgets(line, sizeof line, in)) {
        if (std::strcmp(line, "read\n") != 0) {
            const auto watch = parseLatencyWatchLine(QByteArray(line));
            if (!watch || !probe.value()->setWatched(watch.value()))
                return 2;
            devices = watch.value();
        }
        LatencyReading reading;
        reading.missedEvents = probe.value()->missedEvents();
        for (BlockDeviceNumber d : devices)
            reading.devices.insert(d, probe.value()->read(d));
        write(latencyReadingJson(reading));
    }
    return 0;
}

Result<QList<BlockDeviceNumber>> latencyDeviceNumbers(const SysfsRoot &root, const QStringList &devices)
{
    using R = Result<QList<BlockDeviceNumber>>;
    const QStringList names = devices.isEmpty() ? root.list(QStringLiteral("block")) : devices;
    if (names.size() > BlockLatencyProbe::MaxDevices)
        return R::failure(
            QStringLiteral("the latency probe watches at most %1 devices; name the ones to watch (%2 here)")
                .arg(BlockLatencyProbe::MaxDevices)
                .arg(names.size()));
    QList<BlockDeviceNumber> numbers;
    for (const QString &name : names) {
        const auto number = parseNumber(root.readOr(QStringLiteral("class/block/%1/dev").arg(name)));
        if (!number)
            return R::failure(QStringLiteral("%1: no device number in sysfs").arg(name));
        numbers.append(*number);
    }
    return numbers;
}

HelperLatencyProbe::Command HelperLatencyProbe::defaultCommand()
{
    // The one privileged program, started as for a tuning transaction: root's own pkexec, never one on $PATH.
    return { Applier::defaultHelperProgram(), { Applier::defaultHelperPath() } };
}

Result<std::unique_ptr<HelperLatencyProbe>> HelperLatencyProbe::start(
    const Command &command, const QList<BlockDeviceNumber> &devices)
{
    using R = Result<std::unique_ptr<HelperLatencyProbe>>;
    std::unique_ptr<HelperLatencyProbe> probe(new HelperLatencyProbe);
    probe->m_devices = devices;
    QProcess &p = probe->m_process;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel); // pkexec's own prompts and refusals
    p.start(command.program, command.arguments);
    if (!p.waitForStarted())
        return R::failure(QStringLiteral("%1 did not start (%2)").arg(command.program, p.errorString()));
    p.write(latencyRequestJson(devices));
    const auto first = probe->read(); // also waits for pkexec's authorization
    if (!first)
        return R::failure(first.errorMessage());
    return R(std::move(probe));
}

HelperLatencyProbe::~HelperLatencyProbe()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.closeWriteChannel(); // EOF: the helper detaches the probe and exits
    if (!m_process.waitForFinished(3000))
        m_process.kill();
}

Result<LatencyReading> HelperLatencyProbe::read()
{
    using R = Result<LatencyReading>;
    m_process.write("read\n");
    // Until a whole line is there; no timeout while pkexec may still be asking for a password.
    while (!m_process.canReadLine()) {
        if (m_process.state() == QProcess::NotRunning || !m_process.waitForReadyRead(-1)) {
            if (m_process.canReadLine())
                break;
            return R::failure(QStringLiteral("the privileged helper ended (%1, exit %2)")
                                  .arg(m_process.program())
                                  .arg(m_process.exitCode()));
        }
        if (m_process.bytesAvailable() > latencyStreamMaxLine)
            return R::failure(QStringLiteral("the privileged helper's line is too long"));
    }
    const QByteArray line = m_process.readLine(latencyStreamMaxLine);
    return parseHelperLatencyLine(line);
}

} // namespace dmtune
