#pragma once
// A step of a test's fixture that must work (a synthetic recording written, a value put back): if it does not, the
// test stops there with why; what follows would prove nothing on a half-made fixture.
#include "core/util/result.h"

#include <QtGlobal>

namespace dmtune::test {

inline void mustSucceed(const Status &status, const char *what = "a fixture's step")
{
    if (!status)
        qFatal("%s failed: %s", what, qPrintable(status.errorMessage()));
}

// A cleanup step that may fail (a value put back, a map's queueing turned off): said on stderr, and the cleanup
// goes on with the next step.
inline void warnOnFailure(const Status &status, const char *what)
{
    if (!status)
        qWarning("%s: %s", what, qPrintable(status.errorMessage()));
}
template<typename T>
inline void warnOnFailure(const Result<T> &result, const char *what)
{
    if (!result)
        qWarning("%s: %s", what, qPrintable(result.errorMessage()));
}

} // namespace dmtune::test
