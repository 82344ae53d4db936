#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace TrainDesk {

// The error half of a Result: one line that names the thing that failed
// (file, JSON path, node, command) and why.
struct Failure
{
    QString message;
};

inline Failure fail(const QString &message) { return Failure{message}; }

// A value or a Failure. Core functions return this instead of throwing, so that
// callers (CLI, GUI, tests) always get a message they can show.
template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) : m_state(std::move(value)) {}
    Result(Failure failure) : m_state(std::move(failure)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<T>(m_state); }
    T &value() & { return std::get<T>(m_state); }
    T &&value() && { return std::get<T>(std::move(m_state)); }
    const T &operator*() const & { return value(); }
    T &operator*() & { return value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }

    QString error() const { return ok() ? QString() : std::get<Failure>(m_state).message; }
    Failure failure() const { return Failure{error()}; }

private:
    std::variant<T, Failure> m_state;
};

template<>
class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Failure failure) : m_failure(std::move(failure)) {}

    bool ok() const { return !m_failure; }
    explicit operator bool() const { return ok(); }
    QString error() const { return m_failure ? m_failure->message : QString(); }
    Failure failure() const { return Failure{error()}; }

private:
    std::optional<Failure> m_failure;
};

using VoidResult = Result<void>;

} // namespace TrainDesk
