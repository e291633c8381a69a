#include "core/util/result.h"

#include <QtGlobal>

namespace dmtune {

const char *errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::None:
        return "none";
    case ErrorCode::Failed:
        return "failed";
    case ErrorCode::InvalidInput:
        return "invalid-input";
    case ErrorCode::NotFound:
        return "not-found";
    case ErrorCode::Refused:
        return "refused";
    case ErrorCode::Unsupported:
        return "unsupported";
    case ErrorCode::Io:
        return "io";
    case ErrorCode::NotConnected:
        return "not-connected";
    case ErrorCode::ConnectionLost:
        return "connection-lost";
    case ErrorCode::HostUnreachable:
        return "host-unreachable";
    case ErrorCode::NeedsPassword:
        return "needs-password";
    case ErrorCode::HostSetup:
        return "host-setup";
    case ErrorCode::Ambiguous:
        return "ambiguous";
    }
    return "failed";
}

namespace detail {

void valueOfAFailure(const QString &error)
{
    // A caller read the value of a failed result: a bug of dmtune's, never passed on as a default value.
    qFatal("dmtune: the value of a failed result was read (its error: %s)", qPrintable(error));
}

} // namespace detail

} // namespace dmtune
