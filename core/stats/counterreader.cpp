#include "counterreader.h"

#include "smallfile.h"

#include <QFile>
#include <QSet>

namespace dmtune {

CounterReader::CounterReader(SysfsRoot root)
    : m_root(std::move(root))
    , m_hasDiskstats(!m_root.procRoot().isEmpty())
    , m_diskstatsPath(QFile::encodeName(m_root.procPath(QStringLiteral("diskstats"))))
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
    if (!m_lines.isEmpty() && watchedCount * diskstatsLinesPerStatFile <= m_lines.size())
        return CounterSource::BlockStat;
    return CounterSource::Diskstats;
}

Result<CounterRead> CounterReader::read(const QStringList &names, bool includePartitions)
{
    CounterRead out;
    const Status status = read(names, includePartitions, &out);
    if (!status)
        return Result<CounterRead>::failure(status.errorMessage);
    return out;
}

Status CounterReader::read(const QStringList &names, bool includePartitions, CounterRead *out)
{
    out->devices.clear(); // keeps the capacity when not shared
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

    // Parse in place over last time's lines: same order, same names, no allocation.
    const QByteArrayView text(m_buffer);
    bool changed = false;
    qsizetype count = 0;
    qsizetype start = 0;
    int lineNumber = 0;
    while (start < text.size()) {
        qsizetype end = text.indexOf('\n', start);
        if (end < 0)
            end = text.size();
        const QByteArrayView line = text.sliced(start, end - start);
        start = end + 1;
        ++lineNumber;
        if (line.trimmed().isEmpty())
            continue;
        if (count == m_lines.size())
            m_lines.emplaceBack();
        DiskCounters &c = m_lines[count];
        QByteArrayView name;
        const QString lineError = parseDiskstatsLineInto(line, &c, &name);
        if (!lineError.isEmpty()) {
            m_lines.clear(); // names and counters are partly overwritten
            m_lineOf.clear();
            return Status::failure(QStringLiteral("diskstats line %1: %2").arg(lineNumber).arg(lineError));
        }
        if (c.name != QLatin1String(name.data(), name.size())) {
            c.name = QString::fromLatin1(name);
            changed = true;
        }
        ++count;
    }
    if (count != m_lines.size()) {
        m_lines.resize(count);
        changed = true;
    }
    if (changed) {
        // Which lines are whole devices is a /sys/block question: ask it only when the lines changed.
        const QStringList block = m_root.list(QStringLiteral("block"));
        const QSet<QString> whole(block.begin(), block.end());
        m_lineIsWholeDisk.resize(count);
        m_lineOf.clear();
        for (qsizetype i = 0; i < count; ++i)
            m_lineIsWholeDisk[i] = whole.contains(m_lines[i].name);
    }

    out->source = CounterSource::Diskstats;
    if (names.isEmpty()) {
        out->devices.reserve(count);
        for (qsizetype i = 0; i < count; ++i) {
            if (includePartitions || m_lineIsWholeDisk[i])
                out->devices.append(m_lines[i]);
        }
        return Status::success();
    }
    if (m_lineOf.isEmpty()) {
        m_lineOf.reserve(count);
        for (qsizetype i = 0; i < count; ++i)
            m_lineOf.insert(m_lines[i].name, i);
    }
    out->devices.reserve(names.size());
    for (const QString &name : names) {
        const auto it = m_lineOf.constFind(name);
        if (it != m_lineOf.constEnd())
            out->devices.append(m_lines[*it]);
    }
    return Status::success();
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
    paths.stat = QFile::encodeName(m_root.path(dir + QStringLiteral("/stat")));
    paths.inflight = QFile::encodeName(m_root.path(dir + QStringLiteral("/inflight")));
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
    if (!m_files.read(pathsOf(name).inflight, &m_buffer))
        return {0, 0};
    const auto parsed = parseInflight(QString::fromLatin1(m_buffer));
    return parsed ? parsed.value() : std::array<quint32, 2> {0, 0};
}

} // namespace dmtune
