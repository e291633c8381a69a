#include "core/stats/counterreader.h"

#include "core/stats/smallfile.h"

#include <QFile>
#include <QSet>

#include <cstring>

namespace dmtune {

CounterReader::CounterReader(SysfsRoot root)
    : m_root(std::move(root))
    , m_hasDiskstats(!m_root.procRoot().isEmpty())
    , m_diskstatsPath(QFile::encodeName(m_root.resolvedProcPath(QStringLiteral("diskstats"))))
{
}

CounterSource CounterReader::resolve(qsizetype watchedCount) const
{
    if (m_source != CounterSource::Auto)
        return m_source;
    if (!m_hasDiskstats)
        return CounterSource::BlockStat;
    if (watchedCount == 0)
        return CounterSource::Diskstats;
    // Until one diskstats read told us how long it is, assume it is the cheaper one.
    if (!m_lineNames.isEmpty() && watchedCount * diskstatsLinesPerStatFile <= m_lineNames.size())
        return CounterSource::BlockStat;
    return CounterSource::Diskstats;
}

Result<CounterRead> CounterReader::read(const QStringList &names, bool includePartitions)
{
    CounterRead out;
    const Status status = read(names, includePartitions, &out);
    if (!status)
        return Result<CounterRead>::failure(status.errorMessage());
    return out;
}

Status CounterReader::read(const QStringList &names, bool includePartitions, CounterRead *out)
{
    // out->devices is not cleared here: the diskstats parse overwrites its elements in place.
    m_files.nextTick();
    if (resolve(names.size()) == CounterSource::BlockStat)
        return readBlockStats(names, includePartitions, out);
    return readDiskstats(names, includePartitions, out);
}

Status CounterReader::readDiskstats(const QStringList &names, bool includePartitions, CounterRead *out)
{
    QString error;
    if (!m_hasDiskstats || !readSmallFile(m_diskstatsPath, &m_buffer, &error)) {
        if (m_source == CounterSource::Auto) {
            // A proc root without diskstats (a partial capture): per-device files from now on.
            m_hasDiskstats = false;
            return readBlockStats(names, includePartitions, out);
        }
        return Status::failure(m_hasDiskstats ? error : QStringLiteral("/proc/diskstats: no proc root for this tree"));
    }
    out->source = CounterSource::Diskstats;
    QString parseError;
    if (parseDiskstatsBuffer(names, includePartitions, out, &parseError))
        return Status::success();
    if (!parseError.isEmpty())
        return Status::failure(parseError);
    // The lines are not those of the last read: learn their names, then parse again.
    learnLines();
    if (parseDiskstatsBuffer(names, includePartitions, out, &parseError))
        return Status::success();
    return Status::failure(parseError.isEmpty() ? QStringLiteral("/proc/diskstats changed while read") : parseError);
}

namespace {

// Calls fn(lineNumber, text) for each non-blank line of buffer; stops when fn returns false.
template<typename Fn>
void forEachLine(const QByteArray &buffer, Fn &&fn)
{
    const char *p = buffer.constData();
    const char *const end = p + buffer.size();
    int lineNumber = 0;
    while (p < end) {
        const char *eol = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        if (!eol)
            eol = end;
        const QByteArrayView text(p, eol - p);
        p = eol + 1;
        ++lineNumber;
        if (!text.trimmed().isEmpty() && !fn(lineNumber, text))
            return;
    }
}

} // namespace

bool CounterReader::parseDiskstatsBuffer(
    const QStringList &names, bool includePartitions, CounterRead *out, QString *error)
{
    // Every wanted line is parsed straight into the output slot it fills: the slots hold the list of a few
    // ticks ago, with the same shared names in the steady state, so nothing is allocated or copied twice.
    const bool all = names.isEmpty();
    if (!all)
        mapExplicitNames(names);
    QList<DiskCounters> &devices = out->devices;
    qsizetype line = 0;
    qsizetype filled = 0;
    bool sameLines = true;
    forEachLine(m_buffer, [&](int lineNumber, QByteArrayView text) {
        const bool known = line < m_lineNames.size();
        const bool wanted = known && (all ? includePartitions || m_lineIsWholeDisk[line] : m_explicitSlot[line] >= 0);
        if (wanted && filled == devices.size())
            devices.emplaceBack();
        DiskCounters &c = wanted && all ? devices[filled] : m_scratch;
        QByteArrayView name;
        const QString lineError = parseDiskstatsLineInto(text, &c, &name);
        if (!lineError.isEmpty()) {
            *error = QStringLiteral("diskstats line %1: %2").arg(lineNumber).arg(lineError);
            return sameLines = false;
        }
        if (!known || m_lineNameBytes[line] != name) // bytes against bytes: a memcmp per line
            return sameLines = false;
        const QString &lineName = m_lineNames[line];
        if (c.name.constData() != lineName.constData())
            c.name = lineName; // shares the string
        if (wanted && all)
            ++filled;
        else if (wanted)
            m_explicitHits[m_explicitSlot[line]] = c;
        ++line;
        return true;
    });
    if (!sameLines || line != m_lineNames.size()) {
        devices.clear();
        m_lineNames.clear(); // relearn from this buffer
        return false;
    }
    if (all) {
        devices.resize(filled);
        return true;
    }
    devices.clear();
    for (qsizetype slot = 0; slot < m_explicitHits.size(); ++slot) {
        if (m_explicitFound[slot])
            devices.append(m_explicitHits[slot]);
    }
    return true;
}

void CounterReader::learnLines()
{
    m_lineNames.clear();
    m_lineNameBytes.clear();
    DiskCounters scratch;
    forEachLine(m_buffer, [&](int, QByteArrayView text) {
        QByteArrayView name;
        if (!parseDiskstatsLineInto(text, &scratch, &name).isEmpty())
            return false; // the parse proper reports it
        m_lineNames.append(QString::fromLatin1(name));
        m_lineNameBytes.append(name.toByteArray());
        return true;
    });
    const QStringList block = m_root.list(QStringLiteral("block"));
    const QSet<QString> whole(block.begin(), block.end());
    m_lineIsWholeDisk.resize(m_lineNames.size());
    for (qsizetype i = 0; i < m_lineNames.size(); ++i)
        m_lineIsWholeDisk[i] = whole.contains(m_lineNames[i]);
    m_explicitFor.clear(); // the slots of an explicit list are per line: recompute
}

void CounterReader::mapExplicitNames(const QStringList &names)
{
    if (m_explicitFor == names && m_explicitSlot.size() == m_lineNames.size())
        return;
    m_explicitFor = names;
    m_explicitSlot.fill(-1, m_lineNames.size());
    m_explicitHits.resize(names.size());
    m_explicitFound.fill(false, names.size());
    for (qsizetype slot = 0; slot < names.size(); ++slot) {
        const qsizetype line = m_lineNames.indexOf(names[slot]);
        if (line >= 0 && m_explicitSlot[line] < 0) {
            m_explicitSlot[line] = slot;
            m_explicitFound[slot] = true;
        }
    }
}

const CounterReader::DevicePaths &CounterReader::pathsOf(const QString &name)
{
    auto it = m_paths.find(name);
    if (it != m_paths.end())
        return *it;
    // Whole devices live in block/; partitions only in class/block/.
    QString dir = QStringLiteral("block/") + name;
    if (!m_root.exists(dir))
        dir = QStringLiteral("class/block/") + name;
    DevicePaths paths;
    paths.stat = QFile::encodeName(m_root.resolvedPath(dir + QStringLiteral("/stat")));
    paths.inflight = QFile::encodeName(m_root.resolvedPath(dir + QStringLiteral("/inflight")));
    const auto dev = m_root.read(dir + QStringLiteral("/dev"));
    if (dev) {
        const auto parsed = parseDevnum(dev.value());
        if (parsed)
            paths.devnum = parsed.value();
    }
    return *m_paths.insert(name, paths);
}

Status CounterReader::readBlockStats(const QStringList &names, bool includePartitions, CounterRead *out)
{
    QStringList targets = names;
    if (targets.isEmpty()) {
        targets = m_root.list(QStringLiteral("block"));
        if (includePartitions) {
            QStringList withParts;
            for (const QString &disk : std::as_const(targets)) {
                withParts.append(disk);
                for (const QString &entry : m_root.list(QStringLiteral("block/") + disk)) {
                    if (m_root.exists(QStringLiteral("block/%1/%2/partition").arg(disk, entry)))
                        withParts.append(entry);
                }
            }
            targets = withParts;
        }
    }
    out->source = CounterSource::BlockStat;
    out->devices.clear(); // keeps the capacity when not shared
    out->devices.reserve(targets.size());
    for (const QString &name : std::as_const(targets)) {
        if (!m_files.read(pathsOf(name).stat, &m_buffer)) {
            forget(name); // gone: a device that comes back may have another number, or be a partition
            continue;
        }
        auto parsed = parseBlockStat(QString::fromLatin1(m_buffer), name, pathsOf(name).devnum);
        if (!parsed)
            return Status::failure(parsed.errorMessage());
        out->devices.append(std::move(parsed.value()));
    }
    return Status::success();
}

void CounterReader::forget(const QString &name)
{
    const auto it = m_paths.constFind(name);
    if (it == m_paths.constEnd())
        return;
    m_files.close(it->stat);
    m_files.close(it->inflight);
    m_paths.erase(it);
}

std::array<quint32, 2> CounterReader::inflight(const QString &name)
{
    char text[64];
    const qsizetype n = m_files.read(pathsOf(name).inflight, text, qsizetype(sizeof text));
    if (n <= 0 || n == qsizetype(sizeof text))
        return { 0, 0 };
    const auto parsed = parseInflight(QByteArrayView(text, n));
    return parsed ? parsed.value() : std::array<quint32, 2> { 0, 0 };
}

} // namespace dmtune
