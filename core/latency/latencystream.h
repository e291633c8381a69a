#pragma once
// The latency probe for a normal user: dmtune-helper (the one privileged program, started by pkexec) loads the
// probe and answers each "read" line on its stdin with one JSON line of every watched device's cumulative
// histograms. The first stdin line asks for it:
//   {"latency": {"devices": ["8:16", "253:0"]}}
// then per "read" line, and per "watch MAJ:MIN..." line (a new set of devices, zero to 128; a device newly
// watched starts from zero), one line:
//   {"missed": 0, "devices": [{"dev": "8:16", "lost": 0, "device": {"sum_ns": 123, "buckets": [[3, 10]]},
//    "queue": {"sum_ns": 0, "buckets": []}}]}
// The parsers are pure and strict; serveLatencyStream() is the helper's loop, HelperLatencyProbe the caller's end.
#include "core/latency/blocklatencyprobe.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QMetaType>
#include <QProcess>
#include <QStringList>

#include <cstdio>
#include <memory>

namespace dmtune {

class SysfsRoot;

struct LatencyReading {
    QHash<BlockDeviceNumber, DeviceLatency> devices;
    quint64 missedEvents = 0;
};

constexpr qsizetype latencyStreamMaxLine = 1 << 20;

QByteArray latencyRequestJson(const QList<BlockDeviceNumber> &devices);
// Whether a request line is a latency request at all (the helper's other requests are tuning transactions).
bool isLatencyRequest(const QByteArray &line);
// Strict: {"latency": {"devices": [...]}}, 1 to MaxDevices distinct "MAJ:MIN" strings, nothing else.
Result<QList<BlockDeviceNumber>> parseLatencyRequest(const QByteArray &line);
QByteArray latencyReadingJson(const LatencyReading &reading);
// One device's histograms as a reading carries them: {"lost", "device": {sum_ns, buckets}, "queue": {...}}; and back,
// as strictly as a reading (a run's latency totals cross a thread and the agent's pipe in this form).
QJsonObject deviceLatencyJson(const DeviceLatency &latency);
Result<DeviceLatency> parseDeviceLatency(const QJsonObject &o, const QString &where);
// Strict: every bucket index in range and in order, counts and sums as integers.
Result<LatencyReading> parseLatencyReading(const QByteArray &line);
// A line from the helper: a reading, or its one-line {"error": ...} (the probe cannot load there).
Result<LatencyReading> parseHelperLatencyLine(const QByteArray &line);
// "watch 8:16 253:0\n": the devices of a watch line (distinct, at most MaxDevices); an error for any other line.
QByteArray latencyWatchLine(const QList<BlockDeviceNumber> &devices);
Result<QList<BlockDeviceNumber>> parseLatencyWatchLine(const QByteArray &line);

// The helper's side, after the request line: loads the probe (one error line and exit 1 when it cannot), then one
// reading line per "read" or "watch" line until EOF (exit 0); any other line ends it (exit 2).
int serveLatencyStream(QList<BlockDeviceNumber> devices, std::FILE *in, std::FILE *out);

// The device numbers of sysfs names ("sdb", "dm-0"); every disk of /sys/block when none is named. One line when
// a name has none or there are more than the probe watches.
Result<QList<BlockDeviceNumber>> latencyDeviceNumbers(const SysfsRoot &root, const QStringList &devices);

// The caller's end: dmtune-helper through pkexec (or, for tests, any command that runs it), read synchronously
// (dmtunectl's ticks: a read is a memory copy in the helper, answered in well under a millisecond).
class HelperLatencyProbe {
public:
    struct Command {
        QString program; // default: pkexec
        QStringList arguments; // default: the installed dmtune-helper
    };
    static Command defaultCommand();
    // Starts the helper and waits for its first reading (pkexec may ask for a password first: no timeout on
    // that); one line when it cannot (pkexec refused, the probe cannot load there).
    static Result<std::unique_ptr<HelperLatencyProbe>> start(
        const Command &command, const QList<BlockDeviceNumber> &devices);
    ~HelperLatencyProbe();
    HelperLatencyProbe(const HelperLatencyProbe &) = delete;
    HelperLatencyProbe &operator=(const HelperLatencyProbe &) = delete;

    // Every watched device's cumulative histograms now.
    Result<LatencyReading> read();
    const QList<BlockDeviceNumber> &watched() const { return m_devices; }

private:
    HelperLatencyProbe() = default;
    QProcess m_process;
    QList<BlockDeviceNumber> m_devices;
};

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::LatencyReading)
