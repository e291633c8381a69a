#include "counterreader.h"

namespace dmtune {

CounterReader::CounterReader(SysfsRoot root)
    : m_root(std::move(root))
    , m_hasDiskstats(!m_root.procRoot().isEmpty())
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
    if (m_diskstatsLines > 0 && watchedCount * diskstatsLinesPerStatFile <= m_diskstatsLines)
        return CounterSource::BlockStat;
    return CounterSource::Diskstats;
}

Result<CounterRead> CounterReader::read(const QStringList &names, bool includePartitions)
{
    if (resolve(names.size()) == CounterSource::BlockStat)
        return readBlockStats(names, includePartitions);
    auto text = m_root.readProc(QStringLiteral("diskstats"));
    if (!text && m_source == CounterSource::Auto) {
        // A proc root without diskstats (a partial capture): per-device files from now on.
        m_hasDiskstats = false;
        return readBlockStats(names, includePartitions);
    }
    if (!text)
        return Result<CounterRead>::failure(text.errorMessage());
    return readDiskstats(text.value(), names, includePartitions);
}

bool CounterReader::isWholeDisk(const QString &name)
{
    return m_wholeDisks.contains(name);
}

Result<CounterRead> CounterReader::readDiskstats(QStringView text, const QStringList &names, bool includePartitions)
{
    auto parsed = parseDiskstats(text);
    if (!parsed)
        return Result<CounterRead>::failure(parsed.errorMessage());
    QList<DiskCounters> &all = parsed.value();
    m_diskstatsLines = int(all.size());

    CounterRead out;
    out.source = CounterSource::Diskstats;
    if (names.isEmpty()) {
        if (includePartitions) {
            out.devices = std::move(all);
            return out;
        }
        // Which lines are whole devices is a /sys/block question; ask again only when the set of lines changed.
        bool changed = m_lastNames.size() != all.size();
        for (qsizetype i = 0; !changed && i < all.size(); ++i)
            changed = m_lastNames[i] != all[i].name;
        if (changed) {
            m_lastNames.clear();
            m_lastNames.reserve(all.size());
            for (const auto &c : all)
                m_lastNames.append(c.name);
            const QStringList block = m_root.list(QStringLiteral("block"));
            m_wholeDisks = QSet<QString>(block.begin(), block.end());
        }
        out.devices.reserve(all.size());
        for (auto &c : all) {
            if (isWholeDisk(c.name))
                out.devices.append(std::move(c));
        }
        return out;
    }
    // An explicit list keeps its own order.
    QHash<QString, qsizetype> index;
    index.reserve(all.size());
    for (qsizetype i = 0; i < all.size(); ++i)
        index.insert(all[i].name, i);
    out.devices.reserve(names.size());
    for (const QString &name : names) {
        const auto it = index.constFind(name);
        if (it != index.constEnd())
            out.devices.append(std::move(all[*it]));
    }
    return out;
}

QString CounterReader::statPath(const QString &name) const
{
    // Whole devices live in block/; partitions only in class/block/.
    const QString disk = QStringLiteral("block/") + name;
    if (m_root.exists(disk))
        return disk;
    return QStringLiteral("class/block/") + name;
}

quint64 CounterReader::devnumOf(const QString &name)
{
    const auto it = m_devnums.constFind(name);
    if (it != m_devnums.constEnd())
        return *it;
    const auto text = m_root.read(statPath(name) + QStringLiteral("/dev"));
    quint64 devnum = 0;
    if (text) {
        const auto parsed = parseDevnum(text.value());
        if (parsed)
            devnum = parsed.value();
    }
    m_devnums.insert(name, devnum);
    return devnum;
}

Result<CounterRead> CounterReader::readBlockStats(const QStringList &names, bool includePartitions)
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
    CounterRead out;
    out.source = CounterSource::BlockStat;
    out.devices.reserve(targets.size());
    for (const QString &name : std::as_const(targets)) {
        auto text = m_root.readRaw(QStringLiteral("block/") + name + QStringLiteral("/stat"));
        if (!text)
            text = m_root.readRaw(QStringLiteral("class/block/") + name + QStringLiteral("/stat"));
        if (!text) {
            m_devnums.remove(name); // gone: a device that comes back may have a new number
            continue;
        }
        auto parsed = parseBlockStat(text.value(), name, devnumOf(name));
        if (!parsed)
            return Result<CounterRead>::failure(parsed.errorMessage());
        out.devices.append(std::move(parsed.value()));
    }
    return out;
}

std::array<quint32, 2> CounterReader::inflight(const QString &name) const
{
    auto text = m_root.readRaw(QStringLiteral("block/") + name + QStringLiteral("/inflight"));
    if (!text)
        text = m_root.readRaw(QStringLiteral("class/block/") + name + QStringLiteral("/inflight"));
    if (!text)
        return {0, 0};
    const auto parsed = parseInflight(text.value());
    return parsed ? parsed.value() : std::array<quint32, 2> {0, 0};
}

} // namespace dmtune
