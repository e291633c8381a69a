#pragma once
// Texts of the dm-multipath target messages (`dmsetup message MAP 0 TEXT`), built and checked
// the way drivers/md/dm-mpath.c multipath_message() reads them.
#include "core/util/result.h"

#include <QString>
#include <QStringView>

namespace dmtune {

enum class MultipathMessageKind {
    FailPath,
    ReinstatePath,
    SwitchGroup,
    EnableGroup,
    DisableGroup,
    QueueIfNoPath,
    FailIfNoPath,
};

struct MultipathMessage {
    MultipathMessageKind kind = MultipathMessageKind::QueueIfNoPath;
    QString device; // fail_path / reinstate_path: "8:16" or "/dev/sdb"
    int group = 0; // the group messages: 1-based

    bool operator==(const MultipathMessage &) const = default;
};

// Group numbers are 1-based; groupCount > 0 also checks the upper bound (0: not known).
Result<QString> failPathMessage(const QString &device);
Result<QString> reinstatePathMessage(const QString &device);
Result<QString> switchGroupMessage(int group, int groupCount = 0);
Result<QString> enableGroupMessage(int group, int groupCount = 0);
Result<QString> disableGroupMessage(int group, int groupCount = 0);
QString queueIfNoPathMessage();
QString failIfNoPathMessage();

// The message keyword, e.g. "switch_group".
QString multipathMessageKeyword(MultipathMessageKind kind);
Result<QString> formatMultipathMessage(const MultipathMessage &message, int groupCount = 0);
// Accepts what the kernel accepts: keywords in any case, one or two words.
Result<MultipathMessage> parseMultipathMessage(QStringView text);

} // namespace dmtune
