#pragma once
// A value or an error: what every parser and every I/O edge of the core returns. A failure holds no value (asking
// for it is a programming error that stops the program, never a default value passed on) and carries a stable code,
// which callers branch on, and a message for people, which they never parse. Both are [[nodiscard]]: a result
// dropped unread is a compile error.
#include <QString>

#include <optional>
#include <utility>

namespace dmtune {

// Stable across versions (errorCodeName(): the JSON and CLI form); new codes are added at the end.
enum class ErrorCode : unsigned char {
    None, // success
    Failed, // nothing more specific to say
    InvalidInput, // the caller's text, file or request is malformed
    NotFound, // the device, file, map or job is not there
    Refused, // a rule refused it (a risk not answered, a device in use, a stale plan)
    Unsupported, // this kernel, host or agent cannot do it
    Io, // a read or write of the system failed (errno in the message)
    NotConnected, // the remote host is not connected: nothing was sent
    ConnectionLost, // the connection went away while it was asked or ran
    HostUnreachable, // ssh could not reach the host (refused, timed out, no route): worth retrying
    NeedsPassword, // sudo on the host asks for a password
    HostSetup, // the host needs the user (no dmtune there, host key refused, login refused, another protocol)
    Ambiguous, // a name that names several (an attribute's last part, a device's prefix)
};
const char *errorCodeName(ErrorCode code);

namespace detail {
[[noreturn]] void valueOfAFailure(const QString &error);
}

template<typename T>
class [[nodiscard]] Result {
public:
    Result() = default; // no result yet: a failure without a value (a member before its first read)
    Result(T value) // NOLINT(google-explicit-constructor): a value converts to success
        : m_value(std::move(value))
    {
    }
    static Result failure(QString message, ErrorCode code = ErrorCode::Failed)
    {
        return Result(std::move(message), code == ErrorCode::None ? ErrorCode::Failed : code);
    }
    explicit operator bool() const { return m_value.has_value(); }
    bool ok() const { return m_value.has_value(); }
    bool hasValue() const { return m_value.has_value(); }
    const T &value() const &
    {
        if (!m_value)
            detail::valueOfAFailure(m_error);
        return *m_value;
    }
    T &value() &
    {
        if (!m_value)
            detail::valueOfAFailure(m_error);
        return *m_value;
    }
    T value() &&
    {
        if (!m_value)
            detail::valueOfAFailure(m_error);
        return std::move(*m_value);
    }
    T valueOr(T fallback) const { return m_value ? *m_value : std::move(fallback); }
    const T &operator*() const { return value(); }
    const T *operator->() const { return &value(); }
    const QString &errorMessage() const { return m_error; }
    ErrorCode errorCode() const { return m_value ? ErrorCode::None : m_code; }

private:
    Result(QString message, ErrorCode code)
        : m_error(std::move(message))
        , m_code(code)
    {
    }
    std::optional<T> m_value;
    QString m_error;
    ErrorCode m_code = ErrorCode::Failed; // while there is no value
};

// For operations that return nothing but may fail. A failure is one whatever its message (even an empty one).
class [[nodiscard]] Status {
public:
    Status() = default; // success
    static Status success() { return {}; }
    static Status failure(QString message, ErrorCode code = ErrorCode::Failed)
    {
        Status s;
        s.m_error = std::move(message);
        s.m_code = code == ErrorCode::None ? ErrorCode::Failed : code;
        return s;
    }
    // A failed Result's error as a Status.
    template<typename T>
    static Status failureOf(const Result<T> &result)
    {
        return failure(result.errorMessage(), result.errorCode());
    }
    explicit operator bool() const { return m_code == ErrorCode::None; }
    bool ok() const { return m_code == ErrorCode::None; }
    const QString &errorMessage() const { return m_error; }
    ErrorCode errorCode() const { return m_code; }

private:
    QString m_error;
    ErrorCode m_code = ErrorCode::None;
};

} // namespace dmtune
