#include "core/dm/backend/dmcontrolpoll.h"
#include "core/util/errnotext.h"

#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>

namespace dmtune {

namespace {
class ControlEventPoll final : public DmEventPoll {
public:
    explicit ControlEventPoll(int fd)
        : m_fd(fd)
    {
    }
    ~ControlEventPoll() override { ::close(m_fd); }
    ControlEventPoll(const ControlEventPoll &) = delete;
    ControlEventPoll &operator=(const ControlEventPoll &) = delete;

    int fd() const override { return m_fd; }
    Status arm() override
    {
        struct dm_ioctl io { };
        // The interface version that brought the ioctl (4.37, kernel 4.13/4.14), not this header's: an older
        // kernel refuses a newer minor than its own.
        io.version[0] = 4;
        io.version[1] = 37;
        io.version[2] = 0;
        io.data_size = sizeof io;
        io.data_start = offsetof(struct dm_ioctl, data);
        if (::ioctl(m_fd, DM_DEV_ARM_POLL, &io) != 0)
            return Status::failure(QStringLiteral("DM_DEV_ARM_POLL: ") + errnoText(errno));
        return Status::success();
    }

private:
    int m_fd;
};
} // namespace

Result<std::shared_ptr<DmEventPoll>> openControlEventPoll(const QString &controlPath)
{
    using R = Result<std::shared_ptr<DmEventPoll>>;
    const int fd = ::open(controlPath.toLocal8Bit().constData(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return R::failure(QStringLiteral("%1: %2").arg(controlPath, errnoText(errno)));
    auto poll = std::make_shared<ControlEventPoll>(fd);
    if (const Status armed = poll->arm(); !armed)
        return R::failure(armed.errorMessage() + QStringLiteral(" (the kernel needs device-mapper 4.37, Linux 4.13)"));
    return std::shared_ptr<DmEventPoll>(poll);
}

} // namespace dmtune
