#pragma once
// The kernel's DmEventPoll: a control device opened for it alone, armed with DM_DEV_ARM_POLL (raw ioctl: the arm
// is per open file, and libdevmapper's own control fd is not ours to poll). multipathd's dmevents.c does the same.
#include "core/dm/backend/devicemapper.h"

namespace dmtune {

// Opens `controlPath` and arms it once, which also proves the kernel has the ioctl (dm ioctl >= 4.37).
Result<std::shared_ptr<DmEventPoll>> openControlEventPoll(const QString &controlPath);

} // namespace dmtune
