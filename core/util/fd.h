#pragma once
// A file descriptor closed when it goes out of scope: for the raw ioctl/socket code paths.
#include <unistd.h>

namespace dmtune {

class Fd {
public:
    explicit Fd(int fd)
        : m_fd(fd)
    {
    }
    ~Fd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    int get() const { return m_fd; }

private:
    int m_fd;
};

} // namespace dmtune
