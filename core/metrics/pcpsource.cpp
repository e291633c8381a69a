#include "core/metrics/pcpsource.h"

#include <pcp/pmapi.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>

#include <cstdlib>

namespace dmtune {

// Outside the anonymous namespace: PcpSource::Metric holds them.
enum class PcpMetricRole : unsigned char { Counter, DmName, ScsiPaths };
enum class PcpMetricTree : unsigned char { Dev, Dm, Other };

namespace {

// disk.dev.X and disk.dm.X for every counter; pcp iostat reads the same ones (read_bytes, not blkread: its
// kB/s is ours to the last digit). inflight is an instant value, the total only.
struct FieldName {
    DiskField field;
    const char *suffix;
};
constexpr FieldName fieldNames[] = {
    { DiskField::ReadIos, "read" },
    { DiskField::ReadMerges, "read_merge" },
    { DiskField::ReadSectors, "read_bytes" },
    { DiskField::ReadTicks, "read_rawactive" },
    { DiskField::WriteIos, "write" },
    { DiskField::WriteMerges, "write_merge" },
    { DiskField::WriteSectors, "write_bytes" },
    { DiskField::WriteTicks, "write_rawactive" },
    { DiskField::InFlight, "inflight" },
    { DiskField::IoTicks, "avactive" },
    { DiskField::TimeInQueue, "aveq" },
    { DiskField::DiscardIos, "discard" },
    { DiskField::DiscardMerges, "discard_merge" },
    { DiskField::DiscardSectors, "discard_bytes" },
    { DiskField::DiscardTicks, "discard_rawactive" },
    { DiskField::FlushIos, "flush" },
    { DiskField::FlushTicks, "flush_rawactive" },
};

QString pcpError(int code)
{
    char buffer[PM_MAXERRMSGLEN];
    return QString::fromLocal8Bit(pmErrStr_r(code, buffer, sizeof buffer));
}

qint64 nsOf(const struct timeval &tv)
{
    return qint64(tv.tv_sec) * 1'000'000'000 + qint64(tv.tv_usec) * 1000;
}

// PCP metric units -> the kernel's: bytes -> 512-byte sectors, any time unit -> ms. Counts stay.
double toKernelUnits(const pmDesc &desc)
{
    double factor = 1;
    if (desc.units.dimSpace == 1)
        factor = double(quint64(1) << (10 * desc.units.scaleSpace)) / 512.0;
    if (desc.units.dimTime == 1) {
        switch (desc.units.scaleTime) {
        case PM_TIME_NSEC:
            return 1e-6;
        case PM_TIME_USEC:
            return 1e-3;
        case PM_TIME_MSEC:
            return 1;
        case PM_TIME_SEC:
            return 1e3;
        case PM_TIME_MIN:
            return 60e3;
        case PM_TIME_HOUR:
            return 3600e3;
        default:
            return 1;
        }
    }
    return factor;
}

} // namespace

struct PcpSource::Metric {
    QByteArray name;
    PcpMetricRole role = PcpMetricRole::Counter;
    PcpMetricTree tree = PcpMetricTree::Other;
    DiskField field = DiskField::ReadIos;
    pmID id = PM_ID_NULL;
    pmDesc desc {};
    double scale = 1;
};

QStringList parsePcpScsiPaths(const QString &value)
{
    static const QRegularExpression kernelName(QStringLiteral("^[a-z][a-z0-9]*$"));
    QStringList paths;
    for (const QString &word : value.split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts)) {
        if (kernelName.match(word).hasMatch() && !paths.contains(word))
            paths.append(word);
    }
    return paths;
}

PcpSource::PcpSource() = default;

PcpSource::~PcpSource()
{
    if (m_context >= 0)
        pmDestroyContext(m_context);
}

Result<std::unique_ptr<PcpSource>> PcpSource::openHost(const QString &hostSpec)
{
    using R = Result<std::unique_ptr<PcpSource>>;
    // HOST[:PORT], or HOST[:PORT]@PROXY[:PORT] through a pmproxy.
    static const QRegularExpression spec(QStringLiteral("^[A-Za-z0-9._:\\[\\]-]+(@[A-Za-z0-9._:\\[\\]-]+)?$"));
    if (!spec.match(hostSpec).hasMatch())
        return R::failure(
            QStringLiteral("'%1': not a PCP host (HOST, HOST:PORT or HOST:PORT@PMPROXY:PORT)").arg(hostSpec));
    std::unique_ptr<PcpSource> source(new PcpSource);
    source->m_target = hostSpec;
    const int context = pmNewContext(PM_CONTEXT_HOST, hostSpec.toLocal8Bit().constData());
    if (context < 0)
        return R::failure(QStringLiteral("pcp host %1: %2").arg(hostSpec, pcpError(context)));
    source->m_context = context;
    char name[MAXHOSTNAMELEN];
    source->m_hostName = QString::fromLocal8Bit(pmGetContextHostName_r(context, name, sizeof name));
    if (const Status looked = source->lookUpMetrics(); !looked)
        return R::failure(QStringLiteral("pcp host %1: %2").arg(hostSpec, looked.errorMessage()));
    source->readHost();
    return R(std::move(source));
}

namespace {

// libpcp opens an archive's volumes by name (BASE.meta, BASE.index, BASE.0, ...) with plain reads: a FIFO or a
// device under one of those names would hang it or read without end. Each of them that exists must be a
// regular file (stat follows a link, as libpcp's open would). Empty when they all are.
QString archiveFileProblem(const QString &path)
{
    const QFileInfo given(path);
    QString base = given.fileName();
    static const QRegularExpression volumeSuffix(QStringLiteral("\\.(meta|index|[0-9]+)(\\.xz)?$"));
    base.remove(volumeSuffix);
    const QDir dir = given.dir();
    QStringList names = dir.entryList(
        { base + QStringLiteral(".*") }, QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot);
    if (given.exists() && !given.isDir()) // a directory of archives is libpcp's to read
        names.append(given.fileName());
    static const QRegularExpression volumeName(QStringLiteral("^\\.(meta|index|[0-9]+)(\\.xz)?$"));
    for (const QString &name : std::as_const(names)) {
        if (name != given.fileName() && !volumeName.match(name.mid(base.size())).hasMatch())
            continue; // another file that starts with the same name
        const QFileInfo file(dir.filePath(name));
        if (!file.isFile())
            return QStringLiteral("%1: not a regular file; an archive's files must be").arg(file.filePath());
    }
    return {};
}

} // namespace

Result<std::unique_ptr<PcpSource>> PcpSource::openArchive(const QString &path, const PcpArchiveWindow &window)
{
    using R = Result<std::unique_ptr<PcpSource>>;
    if (window.interpolateMs < 0)
        return R::failure(QStringLiteral("the interpolation interval must be positive"));
    if (const QString problem = archiveFileProblem(path); !problem.isEmpty())
        return R::failure(QStringLiteral("pcp archive %1").arg(problem));
    std::unique_ptr<PcpSource> source(new PcpSource);
    source->m_target = path;
    source->m_archive = true;
    source->m_interpolateMs = window.interpolateMs;
    const int context = pmNewContext(PM_CONTEXT_ARCHIVE, QFile::encodeName(path).constData());
    if (context < 0)
        return R::failure(QStringLiteral("pcp archive %1: %2").arg(path, pcpError(context)));
    source->m_context = context;
    pmLogLabel label {};
    struct timeval end { };
    if (const int sts = pmGetArchiveLabel(&label); sts < 0)
        return R::failure(QStringLiteral("pcp archive %1: %2").arg(path, pcpError(sts)));
    if (const int sts = pmGetArchiveEnd(&end); sts < 0)
        return R::failure(QStringLiteral("pcp archive %1: %2").arg(path, pcpError(sts)));
    source->m_hostName = QString::fromLocal8Bit(label.ll_hostname);

    const QByteArray start = window.start.toLocal8Bit();
    const QByteArray finish = window.finish.toLocal8Bit();
    struct timeval first { };
    struct timeval last { };
    struct timeval origin { };
    char *error = nullptr;
    if (pmParseTimeWindow(start.isEmpty() ? nullptr : start.constData(),
            finish.isEmpty() ? nullptr : finish.constData(), nullptr, nullptr, &label.ll_start, &end, &first, &last,
            &origin, &error)
        < 0) {
        const QString message = QString::fromLocal8Bit(error).simplified();
        std::free(error);
        return R::failure(QStringLiteral("pcp archive %1: --start/--finish: %2").arg(path, message));
    }
    if (nsOf(last) < nsOf(first))
        return R::failure(QStringLiteral("pcp archive %1: --finish is before --start").arg(path));
    source->m_startNs = nsOf(first);
    source->m_finishNs = nsOf(last);
    if (const Status looked = source->lookUpMetrics(); !looked)
        return R::failure(QStringLiteral("pcp archive %1: %2").arg(path, looked.errorMessage()));
    source->readHost();
    const int mode = window.interpolateMs > 0 ? PM_MODE_INTERP : PM_MODE_FORW;
    if (const int sts = pmSetMode(mode, &first, window.interpolateMs); sts < 0)
        return R::failure(QStringLiteral("pcp archive %1: %2").arg(path, pcpError(sts)));
    return R(std::move(source));
}

Status PcpSource::lookUpMetrics()
{
    for (const auto &[tree, prefix] :
        { std::pair { PcpMetricTree::Dev, "disk.dev." }, std::pair { PcpMetricTree::Dm, "disk.dm." } }) {
        for (const FieldName &f : fieldNames) {
            Metric metric;
            metric.name = QByteArray(prefix) + f.suffix;
            metric.tree = tree;
            metric.field = f.field;
            m_metrics.push_back(metric);
        }
    }
    m_metrics.push_back({ "hinv.map.dmname", PcpMetricRole::DmName });
    m_metrics.push_back({ "disk.wwid.scsi_paths", PcpMetricRole::ScsiPaths });

    std::vector<Metric> found;
    bool treeHasRead[2] = { false, false };
    for (Metric &metric : m_metrics) {
        const char *name = metric.name.constData();
        if (pmLookupName(1, &name, &metric.id) < 0 || metric.id == PM_ID_NULL)
            continue;
        if (pmLookupDesc(metric.id, &metric.desc) < 0)
            continue;
        metric.scale = toKernelUnits(metric.desc);
        if (metric.role == PcpMetricRole::Counter && metric.field == DiskField::ReadIos)
            treeHasRead[int(metric.tree)] = true;
        found.push_back(metric);
    }
    m_metrics = std::move(found);
    if (!treeHasRead[0] && !treeHasRead[1])
        return Status::failure(QStringLiteral("no disk.dev or disk.dm metrics (is the linux PMDA there, or were "
                                              "they logged?)"));
    // A field is had when every tree that is there has it.
    for (const FieldName &f : fieldNames) {
        bool has = true;
        for (const PcpMetricTree tree : { PcpMetricTree::Dev, PcpMetricTree::Dm }) {
            if (!treeHasRead[int(tree)])
                continue;
            bool inTree = false;
            for (const Metric &metric : m_metrics)
                inTree = inTree
                    || (metric.role == PcpMetricRole::Counter && metric.tree == tree && metric.field == f.field);
            has = has && inTree;
        }
        m_hasField[std::size_t(f.field)] = has;
    }
    for (const Metric &metric : m_metrics) {
        m_hasDmNames = m_hasDmNames || metric.role == PcpMetricRole::DmName;
        m_hasScsiPaths = m_hasScsiPaths || metric.role == PcpMetricRole::ScsiPaths;
    }
    return Status::success();
}

void PcpSource::readHost()
{
    m_host.nodename = m_hostName.section(u'.', 0, 0);
    const char *names[] = { "kernel.uname.release", "kernel.uname.machine", "kernel.uname.nodename", "hinv.ncpu" };
    pmID ids[4] = { PM_ID_NULL, PM_ID_NULL, PM_ID_NULL, PM_ID_NULL };
    pmDesc descs[4] {};
    std::vector<pmID> wanted;
    std::vector<int> slot;
    for (int i = 0; i < 4; ++i) {
        if (pmLookupName(1, &names[i], &ids[i]) >= 0 && ids[i] != PM_ID_NULL && pmLookupDesc(ids[i], &descs[i]) >= 0) {
            wanted.push_back(ids[i]);
            slot.push_back(i);
        }
    }
    pmResult *result = nullptr;
    if (wanted.empty() || pmFetch(int(wanted.size()), wanted.data(), &result) < 0)
        return;
    for (int k = 0; k < result->numpmid && k < int(slot.size()); ++k) {
        const pmValueSet *set = result->vset[k];
        if (set->numval < 1)
            continue;
        const int i = slot[std::size_t(k)];
        pmAtomValue atom {};
        if (i == 3) {
            if (pmExtractValue(set->valfmt, &set->vlist[0], descs[i].type, &atom, PM_TYPE_32) >= 0)
                m_host.cpus = atom.l;
            continue;
        }
        if (pmExtractValue(set->valfmt, &set->vlist[0], descs[i].type, &atom, PM_TYPE_STRING) < 0)
            continue;
        const QString value = QString::fromLocal8Bit(atom.cp);
        std::free(atom.cp);
        (i == 0 ? m_host.release : i == 1 ? m_host.machine : m_host.nodename) = value;
    }
    pmFreeResult(result);
}

QString PcpSource::description() const
{
    if (!m_archive)
        return QStringLiteral("pcp host %1").arg(m_target);
    return QStringLiteral("pcp archive %1 (host %2), %3")
        .arg(m_target, m_hostName,
            m_interpolateMs > 0 ? QStringLiteral("values interpolated every %1 s").arg(m_interpolateMs / 1000.0)
                                : QStringLiteral("the archive's own samples"));
}

QStringList PcpSource::limits() const
{
    QStringList limits { QStringLiteral("PCP has no reads/writes split of the requests in flight: inflight_r and "
                                        "inflight_w are null (the total is disk.dev.inflight)"),
        QStringLiteral("PCP's disk.dev leaves out loop and ram devices") };
    if (!m_hasField[std::size_t(DiskField::TimeInQueue)])
        limits.append(QStringLiteral("no disk.*.aveq: aqu-sz is unknown"));
    if (!m_hasField[std::size_t(DiskField::IoTicks)])
        limits.append(QStringLiteral("no disk.*.avactive: %util is unknown"));
    if (!m_hasField[std::size_t(DiskField::DiscardIos)])
        limits.append(QStringLiteral("no discard counters: the d columns are unknown"));
    if (!m_hasField[std::size_t(DiskField::FlushIos)])
        limits.append(QStringLiteral("no flush counters: the f columns are unknown"));
    if (!m_hasDmNames)
        limits.append(QStringLiteral("no hinv.map.dmname: maps are named by their dm name, not dm-N"));
    if (!m_hasScsiPaths)
        limits.append(QStringLiteral("no disk.wwid.scsi_paths: a map's paths are not known"));
    else
        limits.append(QStringLiteral("a map's paths come from disk.wwid.scsi_paths where the map is named by its "
                                     "WWID (multipath's user_friendly_names names it otherwise)"));
    return limits;
}

Result<CounterFrame> PcpSource::fetch()
{
    if (m_atEnd)
        return Result<CounterFrame>::failure(QStringLiteral("%1: at its end").arg(description()));
    if (const int sts = pmUseContext(m_context); sts < 0)
        return Result<CounterFrame>::failure(QStringLiteral("%1: %2").arg(description(), pcpError(sts)));
    std::vector<pmID> ids;
    ids.reserve(m_metrics.size());
    for (const Metric &metric : m_metrics)
        ids.push_back(metric.id);

    CounterFrame frame;
    frame.hasField = m_hasField;
    pmResult *result = nullptr;
    int readIndex = -1; // a disk.*.read metric: a record without it carries no disk counters
    for (std::size_t i = 0; i < m_metrics.size() && readIndex < 0; ++i) {
        if (m_metrics[i].role == PcpMetricRole::Counter && m_metrics[i].field == DiskField::ReadIos)
            readIndex = int(i);
    }
    // An archive's records: the next one that has disk counters (pmlogger may log other groups between them;
    // a <mark> record, numpmid 0, is a gap).
    for (;;) {
        const int sts = pmFetch(int(ids.size()), ids.data(), &result);
        if (sts == PM_ERR_EOL) {
            m_atEnd = true;
            return Result<CounterFrame>::failure(QStringLiteral("%1: at its end").arg(description()));
        }
        if (sts < 0)
            return Result<CounterFrame>::failure(QStringLiteral("%1: %2").arg(description(), pcpError(sts)));
        if (m_archive && nsOf(result->timestamp) > m_finishNs) {
            pmFreeResult(result);
            m_atEnd = true;
            return Result<CounterFrame>::failure(QStringLiteral("%1: at its end").arg(description()));
        }
        if (result->numpmid == 0) {
            frame.afterGap = true;
            pmFreeResult(result);
            continue;
        }
        if (readIndex >= 0 && result->vset[readIndex]->numval > 0)
            break;
        if (!m_archive || m_interpolateMs > 0)
            break; // a live host or an interpolated point without disks: an empty frame, said as such
        pmFreeResult(result);
    }
    frame.timeNs = nsOf(result->timestamp);

    QHash<QString, DiskCounters> devices[2]; // per tree, by instance name
    QStringList order[2];
    QHash<QString, QString> kernelNameOfDm; // hinv.map.dmname: dm name -> dm-N
    QHash<QString, QStringList> pathsOfWwid;
    for (int i = 0; i < result->numpmid && i < int(m_metrics.size()); ++i) {
        const Metric &metric = m_metrics[std::size_t(i)];
        const pmValueSet *set = result->vset[i];
        for (int j = 0; j < set->numval; ++j) {
            char *instName = nullptr;
            const int named = m_archive ? pmNameInDomArchive(metric.desc.indom, set->vlist[j].inst, &instName)
                                        : pmNameInDom(metric.desc.indom, set->vlist[j].inst, &instName);
            if (named < 0 || !instName)
                continue;
            // Some PMDAs name instances "N name": the first word is the name.
            const QString inst = QString::fromLocal8Bit(instName).section(u' ', 0, 0);
            std::free(instName);
            pmAtomValue atom {};
            if (metric.role == PcpMetricRole::Counter) {
                if (pmExtractValue(set->valfmt, &set->vlist[j], metric.desc.type, &atom, PM_TYPE_U64) < 0)
                    continue;
                const int t = int(metric.tree);
                auto it = devices[t].find(inst);
                if (it == devices[t].end()) {
                    it = devices[t].insert(inst, DiskCounters { inst });
                    order[t].append(inst);
                }
                (*it)[metric.field] = quint64(double(atom.ull) * metric.scale + 0.5);
            } else {
                if (pmExtractValue(set->valfmt, &set->vlist[j], metric.desc.type, &atom, PM_TYPE_STRING) < 0)
                    continue;
                const QString value = QString::fromLocal8Bit(atom.cp);
                std::free(atom.cp);
                if (metric.role == PcpMetricRole::DmName)
                    kernelNameOfDm.insert(inst, value);
                else
                    pathsOfWwid.insert(inst, parsePcpScsiPaths(value));
            }
        }
    }
    pmFreeResult(result);

    const int fieldCount = m_hasField[std::size_t(DiskField::FlushIos)] ? 17
        : m_hasField[std::size_t(DiskField::DiscardIos)]                ? 15
                                                                        : 11;
    for (const int t : { int(PcpMetricTree::Dev), int(PcpMetricTree::Dm) }) {
        for (const QString &inst : std::as_const(order[t])) {
            DiskCounters counters = devices[t].value(inst);
            counters.fieldCount = fieldCount;
            if (t == int(PcpMetricTree::Dm)) {
                const QString kernelName = kernelNameOfDm.value(inst);
                if (!kernelName.isEmpty()) {
                    counters.name = kernelName;
                    frame.dmNames.insert(kernelName, inst);
                    // multipath names a map by its WWID unless user_friendly_names gives it an alias.
                    if (pathsOfWwid.contains(inst))
                        frame.pathsOf.insert(kernelName, pathsOfWwid.value(inst));
                }
            }
            if (m_hasField[std::size_t(DiskField::InFlight)] && counters[DiskField::InFlight] == 0)
                frame.inflight.insert(counters.name, { 0, 0 });
            frame.devices.append(counters);
        }
    }
    return frame;
}

} // namespace dmtune
