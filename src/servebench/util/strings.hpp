#pragma once
// Small string utilities shared by every module. Parsing functions return Result and never throw.
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::util {

std::string_view trim(std::string_view s);
// Splits on `sep`; keeps empty fields ("a,,b" -> {"a","","b"}).
// The views point into `s`: splitting a temporary string would dangle, hence the deleted overload.
std::vector<std::string_view> split(std::string_view s, char sep);
template <class S>
  requires std::is_same_v<S, std::string>
std::vector<std::string_view> split(S&& s, char sep) = delete;
std::string join(const std::vector<std::string>& parts, std::string_view sep);
std::string to_lower(std::string_view s);
std::string replace_all(std::string s, std::string_view from, std::string_view to);
// What follows the last '/' ("/usr/bin/python3" -> "python3"); the whole word without one.
std::string_view path_basename(std::string_view word);

// Whole-string numeric parsing; fails with a message naming `what` (e.g. "--num-prompts").
Result<std::int64_t> parse_int(std::string_view s, std::string_view what);
Result<double> parse_double(std::string_view s, std::string_view what);
// "true/false/1/0/yes/no/on/off".
Result<bool> parse_bool(std::string_view s, std::string_view what);

// POSIX-shell-like word splitting for launch commands: whitespace separates, single and double
// quotes group, backslash escapes; fails on an unterminated quote.
Result<std::vector<std::string>> shell_split(std::string_view command);
// Quotes a word for a POSIX shell only when it needs it.
std::string shell_quote(std::string_view word);

}  // namespace servebench::util
