#pragma once
// Opening paths under a directory without ever leaving it, for trees we did not make (a customer's
// capture): openat2(2) with RESOLVE_BENEATH (Linux 5.6+; glibc 2.36 has no wrapper), or the same rules
// applied component by component where the kernel has no openat2 (ENOSYS, or a seccomp filter's EPERM).
#include <QByteArray>

#include <sys/types.h>

namespace dmtune::beneath {

// Follow: links are followed, inside the root only. Refuse: any link on the way fails (ELOOP).
enum class Links { Follow, Refuse };

// A descriptor for `relative` under the directory rootFd (flags and mode as for open(2); O_NOFOLLOW in
// flags keeps the last component from being a link), or -1 with errno set: EXDEV when a ".." or a link
// would leave the root (an absolute link does), ELOOP for more than 40 links or any with Links::Refuse.
int open(int rootFd, const QByteArray &relative, int flags, Links links = Links::Follow, mode_t mode = 0);

// Where `relative` leads, relative to the root, every link followed (inside the root only); "" is the
// root itself. False with errno set (ENOENT, EXDEV, ELOOP, ENOTDIR) otherwise.
bool resolve(int rootFd, const QByteArray &relative, QByteArray *resolved);

// Tests: take the component walk even where openat2 exists (both must give the same answers).
void setForceFallback(bool force);

} // namespace dmtune::beneath
