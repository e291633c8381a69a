#pragma once
// A value or an error message: what every parser and every I/O edge of the core returns.
#include <QString>
#include <utility>

namespace dmtune {

template<typename T>
class Result {
public:
    Result() = default;
    Result(T value) // NOLINT(google-explicit-constructor): a value converts to success
        : m_value(std::move(value))
        , m_ok(true)
    {
    }
    static Result failure(QString message)
    {
        Result r;
        r.m_error = std::move(message);
        return r;
    }
    explicit operator bool() const { return m_ok; }
    bool ok() const { return m_ok; }
    const T &value() const { return m_value; }
    T &value() { return m_value; }
    const T &operator*() const { return m_value; }
    const T *operator->() const { return &m_value; }
    const QString &errorMessage() const { return m_error; }

private:
    T m_value {};
    QString m_error;
    bool m_ok = false;
};

// For operations that return nothing but may fail.
struct Status {
    QString errorMessage;
    explicit operator bool() const { return errorMessage.isEmpty(); }
    static Status success() { return {}; }
    static Status failure(QString message) { return { std::move(message) }; }
};

} // namespace dmtune
