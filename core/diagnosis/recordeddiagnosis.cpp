#include "core/diagnosis/recordeddiagnosis.h"

#include "core/diagnosis/diagnosisreader.h"
#include "core/params/valueparsers.h"
#include "core/recordings/recording.h"
#include "core/recordings/recordingreplay.h"
#include "core/workloads/workloadsession.h"

#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>

namespace dmtune {

namespace {

struct RememberedDevice {
    QStringList schedulers;
    QJsonObject tunables;
};

qint64 tunableInt(const RememberedDevice *device, const QString &attribute)
{
    if (!device)
        return -1;
    const auto v = parseInteger(device->tunables.value(attribute).toString());
    return v ? *v : -1;
}

QString tunableText(const RememberedDevice *device, const QString &attribute)
{
    return device ? device->tunables.value(attribute).toString() : QString();
}

DiagnosedPath pathOf(
    const QHash<QString, RememberedDevice> &devices, const QString &name, int group, const QString &dmState)
{
    const auto it = devices.constFind(name);
    const RememberedDevice *device = it != devices.cend() ? &*it : nullptr;
    DiagnosedPath p;
    p.name = name;
    p.group = group;
    p.dmState = dmState;
    p.queueDepth = tunableInt(device, QStringLiteral("device/queue_depth"));
    p.scheduler = tunableText(device, QStringLiteral("queue/scheduler"));
    p.maxSectorsKb = tunableInt(device, QStringLiteral("queue/max_sectors_kb"));
    return p;
}

QString nameOf(const Recording &recording)
{
    return recording.path.isEmpty() ? recording.displayName() : QFileInfo(recording.path).fileName();
}

} // namespace

QList<DiagnosedMap> diagnosedMapsFromConfiguration(const QJsonObject &configuration)
{
    QHash<QString, RememberedDevice> devices;
    for (const QJsonValue &v : configuration.value(QStringLiteral("devices")).toArray()) {
        const QJsonObject o = v.toObject();
        RememberedDevice d;
        for (const QJsonValue &s : o.value(QStringLiteral("schedulers")).toArray())
            d.schedulers << s.toString();
        d.tunables = o.value(QStringLiteral("tunables")).toObject();
        devices.insert(o.value(QStringLiteral("name")).toString(), d);
    }
    QList<DiagnosedMap> maps;
    for (const QJsonValue &v : configuration.value(QStringLiteral("maps")).toArray()) {
        const QJsonObject o = v.toObject();
        DiagnosedMap m;
        m.name = o.value(QStringLiteral("name")).toString();
        m.device = o.value(QStringLiteral("device")).toString();
        if (m.name.isEmpty() || m.device.isEmpty())
            continue;
        const auto found = devices.constFind(m.device);
        const RememberedDevice *device = found != devices.cend() ? &*found : nullptr;
        // As readDeviceContext decides it live: a bio-based map's queue offers no scheduler to choose.
        m.requestBased = !device || device->schedulers.size() > 1;
        m.nrRequests = tunableInt(device, QStringLiteral("queue/nr_requests"));
        m.maxSectorsKb = tunableInt(device, QStringLiteral("queue/max_sectors_kb"));
        m.scheduler = tunableText(device, QStringLiteral("queue/scheduler"));
        const QJsonArray features = o.value(QStringLiteral("features")).toArray();
        m.queueIfNoPath = features.contains(QJsonValue(QStringLiteral("queue_if_no_path")));
        if (o.value(QStringLiteral("groups_known")).toBool()) {
            for (const QJsonValue &gv : o.value(QStringLiteral("groups")).toArray()) {
                const QJsonObject g = gv.toObject();
                const int index = g.value(QStringLiteral("index")).toInt();
                const QString selector = g.value(QStringLiteral("selector")).toString().section(u' ', 0, 0);
                if (g.value(QStringLiteral("state")).toString() == QLatin1String("A")) {
                    m.groupInUse = index;
                    m.selector = selector;
                } else if (m.groupInUse == 0 && index == o.value(QStringLiteral("next_group")).toInt(1)) {
                    m.selector = selector; // no I/O yet, no active group: the one dm will use first
                }
                for (const QJsonValue &pv : g.value(QStringLiteral("paths")).toArray()) {
                    const QJsonObject p = pv.toObject();
                    const QString name = p.value(QStringLiteral("name")).toString();
                    if (!name.isEmpty())
                        m.paths << pathOf(devices, name, index, p.value(QStringLiteral("state")).toString());
                }
            }
        } else {
            for (const QJsonValue &s : o.value(QStringLiteral("slaves")).toArray())
                m.paths << pathOf(devices, s.toString(), 0, QString());
        }
        maps << m;
    }
    return maps;
}

Result<RecordedDiagnosisInput> recordedDiagnosisInput(const Recording &recording, const QStringList &maps)
{
    const QList<DiagnosedMap> all = diagnosedMapsFromConfiguration(recording.meta.configuration);
    if (all.isEmpty())
        return Result<RecordedDiagnosisInput>::failure(
            QStringLiteral("%1 remembers no multipath map (it recorded %2)")
                .arg(nameOf(recording), recording.deviceNames().join(QStringLiteral(", "))));
    RecordedDiagnosisInput out;
    for (const QString &name : maps) {
        const auto it = std::find_if(
            all.cbegin(), all.cend(), [&](const DiagnosedMap &m) { return m.name == name || m.device == name; });
        if (it == all.cend()) {
            QStringList names;
            for (const DiagnosedMap &m : all)
                names << m.name;
            return Result<RecordedDiagnosisInput>::failure(
                QStringLiteral("'%1' is not a map of %2 (its maps: %3)")
                    .arg(name, nameOf(recording), names.join(QStringLiteral(", "))));
        }
        if (!std::any_of(out.input.maps.cbegin(), out.input.maps.cend(),
                [&](const DiagnosedMap &m) { return m.device == it->device; }))
            out.input.maps << *it;
    }
    if (maps.isEmpty())
        out.input.maps = all;

    DeviceRunTotals totals;
    for (const SampleBatch &batch : replayBatches(recording))
        totals.add(batch);
    auto [from, to] = recording.fioResults.isEmpty() ? std::pair<double, double> { 0, 0 }
                                                     : fioIoWindow(recording.fioResults.constLast().result);
    out.window = QStringLiteral("fio's I/O window");
    if (to <= from && recording.alignSeconds() > recording.startSeconds()) {
        from = recording.alignSeconds();
        to = recording.workloadEndSeconds();
        out.window = QStringLiteral("fio start to fio end");
    }
    if (to > from)
        totals.setWindow(from, to);
    else
        out.window = QStringLiteral("the whole recording");
    if (totals.devices().isEmpty() || totals.seconds() <= 0)
        return Result<RecordedDiagnosisInput>::failure(
            QStringLiteral("%1 holds no measured interval").arg(nameOf(recording)));
    out.from = totals.hasWindow() ? totals.windowFrom() : recording.startSeconds();
    out.to = totals.hasWindow() ? totals.windowTo() : recording.endSeconds();
    QHash<QString, IostatMetrics> metrics;
    for (const QString &device : totals.devices())
        metrics.insert(device, totals.metrics(device));
    attachMetrics(&out.input, metrics, totals.seconds());
    return out;
}

} // namespace dmtune
