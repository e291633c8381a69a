// A library fio must never load while dmtune checks a job: its constructor (what runs at dlopen, before fio can
// find out it is no engine) appends the uid it runs as to "<this library's path>.loaded", if the test made
// that file. The file staying empty is the proof.
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace {

__attribute__((constructor)) void recordLoad()
{
    Dl_info info {};
    if (::dladdr(reinterpret_cast<void *>(&recordLoad), &info) == 0 || info.dli_fname == nullptr)
        return;
    char path[4096];
    std::snprintf(path, sizeof path, "%s.loaded", info.dli_fname);
    const int fd = ::open(path, O_WRONLY | O_APPEND | O_CLOEXEC); // never created here: only the test's file
    if (fd < 0)
        return;
    char line[32];
    const int length = std::snprintf(line, sizeof line, "%u\n", unsigned(::getuid()));
    if (length > 0 && ::write(fd, line, size_t(length)) < 0) {
        // nothing to do: the test sees an empty file
    }
    ::close(fd);
}

} // namespace
