#include "core/dm/backend/dmlibrary.h"

#include <libdevmapper.h>

#include <cstdarg>
#include <cstdio>
#include <mutex>

namespace dmtune {

namespace {
// libdevmapper's levels (libdm/misc/dm-logging.h: _LOG_ERR 3, _LOG_WARN 4, ... _LOG_DEBUG 7);
// the level argument also carries flags above these bits.
constexpr int logLevelBits = 0x7;
constexpr int logWarn = 4;

// Each thread collects the messages of its own calls: a blocking waitEvent in a worker never
// mixes its log with a table read on the GUI thread.
thread_local QStringList *t_logSink = nullptr;

__attribute__((format(printf, 5, 6))) void collectLog(
    int level, const char * /*file*/, int /*line*/, int /*dmErrno*/, const char *format, ...)
{
    if (!t_logSink || !format || (level & logLevelBits) > logWarn)
        return;
    char buffer[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    const QString text = QString::fromLocal8Bit(buffer).trimmed();
    if (!text.isEmpty() && !t_logSink->contains(text))
        t_logSink->append(text);
}

void installLogger()
{
    static std::once_flag once;
    std::call_once(once, [] { dm_log_with_errno_init(collectLog); });
}
} // namespace

DmLogCapture::DmLogCapture()
    : m_previous(t_logSink)
{
    installLogger();
    t_logSink = &m_messages;
}

DmLogCapture::~DmLogCapture()
{
    t_logSink = m_previous;
}

QMutex &dmLibraryMutex()
{
    static QMutex mutex;
    return mutex;
}

} // namespace dmtune
