#include "core/dm/grammar/multipathmessages.h"

#include "core/dm/grammar/tokenreader.h"

namespace dmtune {

namespace {
// The kernel's limit on the number of priority groups.
constexpr int maxGroups = 1024;

bool takesDevice(MultipathMessageKind kind)
{
    return kind == MultipathMessageKind::FailPath || kind == MultipathMessageKind::ReinstatePath;
}

bool takesGroup(MultipathMessageKind kind)
{
    return kind == MultipathMessageKind::SwitchGroup || kind == MultipathMessageKind::EnableGroup
        || kind == MultipathMessageKind::DisableGroup;
}

constexpr MultipathMessageKind allKinds[] = {
    MultipathMessageKind::FailPath,
    MultipathMessageKind::ReinstatePath,
    MultipathMessageKind::SwitchGroup,
    MultipathMessageKind::EnableGroup,
    MultipathMessageKind::DisableGroup,
    MultipathMessageKind::QueueIfNoPath,
    MultipathMessageKind::FailIfNoPath,
};

Result<QString> deviceMessage(MultipathMessageKind kind, const QString &device)
{
    if (!isDeviceToken(device))
        return Result<QString>::failure(QStringLiteral("%1: \"%2\" is not a device (major:minor or /dev/...)")
                                            .arg(multipathMessageKeyword(kind), device));
    return multipathMessageKeyword(kind) + QLatin1Char(' ') + device;
}

Result<QString> groupMessage(MultipathMessageKind kind, int group, int groupCount)
{
    const int max = groupCount > 0 ? qMin(groupCount, maxGroups) : maxGroups;
    if (group < 1 || group > max)
        return Result<QString>::failure(
            QStringLiteral("%1: group %2 out of range 1-%3").arg(multipathMessageKeyword(kind)).arg(group).arg(max));
    return multipathMessageKeyword(kind) + QLatin1Char(' ') + QString::number(group);
}
} // namespace

QString multipathMessageKeyword(MultipathMessageKind kind)
{
    switch (kind) {
    case MultipathMessageKind::FailPath:
        return QStringLiteral("fail_path");
    case MultipathMessageKind::ReinstatePath:
        return QStringLiteral("reinstate_path");
    case MultipathMessageKind::SwitchGroup:
        return QStringLiteral("switch_group");
    case MultipathMessageKind::EnableGroup:
        return QStringLiteral("enable_group");
    case MultipathMessageKind::DisableGroup:
        return QStringLiteral("disable_group");
    case MultipathMessageKind::QueueIfNoPath:
        return QStringLiteral("queue_if_no_path");
    case MultipathMessageKind::FailIfNoPath:
        return QStringLiteral("fail_if_no_path");
    }
    return {};
}

Result<QString> failPathMessage(const QString &device)
{
    return deviceMessage(MultipathMessageKind::FailPath, device);
}

Result<QString> reinstatePathMessage(const QString &device)
{
    return deviceMessage(MultipathMessageKind::ReinstatePath, device);
}

Result<QString> switchGroupMessage(int group, int groupCount)
{
    return groupMessage(MultipathMessageKind::SwitchGroup, group, groupCount);
}

Result<QString> enableGroupMessage(int group, int groupCount)
{
    return groupMessage(MultipathMessageKind::EnableGroup, group, groupCount);
}

Result<QString> disableGroupMessage(int group, int groupCount)
{
    return groupMessage(MultipathMessageKind::DisableGroup, group, groupCount);
}

QString queueIfNoPathMessage()
{
    return multipathMessageKeyword(MultipathMessageKind::QueueIfNoPath);
}

QString failIfNoPathMessage()
{
    return multipathMessageKeyword(MultipathMessageKind::FailIfNoPath);
}

Result<QString> formatMultipathMessage(const MultipathMessage &message, int groupCount)
{
    if (takesDevice(message.kind))
        return deviceMessage(message.kind, message.device);
    if (takesGroup(message.kind))
        return groupMessage(message.kind, message.group, groupCount);
    return multipathMessageKeyword(message.kind);
}

Result<MultipathMessage> parseMultipathMessage(QStringView text)
{
    using R = Result<MultipathMessage>;
    if (text.size() > 4096)
        return R::failure(QStringLiteral("message too long"));
    TokenReader reader(text);
    QStringList words;
    reader.readWords(QStringLiteral("the message"), reader.remaining(), words);
    if (words.isEmpty())
        return R::failure(QStringLiteral("empty message"));
    MultipathMessage message;
    bool known = false;
    for (const MultipathMessageKind kind : allKinds) {
        if (words.first().compare(multipathMessageKeyword(kind), Qt::CaseInsensitive) == 0) {
            message.kind = kind;
            known = true;
            break;
        }
    }
    if (!known)
        return R::failure(QStringLiteral("unknown multipath message \"%1\"").arg(QStringView(words.first()).left(40)));
    const QString keyword = multipathMessageKeyword(message.kind);
    const qsizetype expected = (takesDevice(message.kind) || takesGroup(message.kind)) ? 2 : 1;
    if (words.size() != expected)
        return R::failure(QStringLiteral("%1 takes %2 word(s), got %3").arg(keyword).arg(expected).arg(words.size()));
    if (takesDevice(message.kind)) {
        if (!isDeviceToken(words.at(1)))
            return R::failure(QStringLiteral("%1: \"%2\" is not a device (major:minor or /dev/...)")
                                  .arg(keyword, QStringView(words.at(1)).left(40)));
        message.device = words.at(1);
    } else if (takesGroup(message.kind)) {
        quint64 group = 0;
        if (!parseDecimal(words.at(1), maxGroups, group) || group < 1)
            return R::failure(QStringLiteral("%1: \"%2\" is not a group number (1-%3)")
                                  .arg(keyword, QStringView(words.at(1)).left(40))
                                  .arg(maxGroups));
        message.group = int(group);
    }
    return message;
}

} // namespace dmtune
