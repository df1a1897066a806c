#pragma once
// Result<T>: the return type of every operation that can fail (parse, file, connect, config).
// Bugs are not errors: they abort through SB_CHECK.
#include <expected>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace servebench::util {

// What kind of failure, so the CLI can map it to an exit code (util/exit_code.hpp: 2 bad input, 3 unreachable).
enum class ErrorKind {
  failed,       // generic operational failure
  bad_input,    // a file, flag or value the user must fix (exit 2)
  unreachable,  // a server could not be reached or started (exit 3)
  io,           // filesystem / OS failure
};

struct Error {
  ErrorKind kind = ErrorKind::failed;
  std::string message;  // lowercase, no final period, names the object
};

template <class T>
using Result = std::expected<T, Error>;

// An unexpected<Error> ready to return from a function returning Result<T>.
inline std::unexpected<Error> fail(ErrorKind kind, std::string message) {
  return std::unexpected(Error{kind, std::move(message)});
}
inline std::unexpected<Error> fail(std::string message) { return fail(ErrorKind::failed, std::move(message)); }

template <class... Args>
std::unexpected<Error> failf(ErrorKind kind, fmt::format_string<Args...> f, Args&&... args) {
  return fail(kind, fmt::format(f, std::forward<Args>(args)...));
}

// Prefix an error's message with context ("reading campaign.yaml: ...").
inline Error with_context(Error e, std::string_view context) {
  e.message = fmt::format("{}: {}", context, e.message);
  return e;
}

[[noreturn]] void check_failed(const char* expr, const char* file, int line) noexcept;

}  // namespace servebench::util

// SB_CHECK(cond): an invariant of our own code; failing it is a bug and aborts with file:line.
#define SB_CHECK(cond) \
  ((cond) ? static_cast<void>(0) : ::servebench::util::check_failed(#cond, __FILE__, __LINE__))
