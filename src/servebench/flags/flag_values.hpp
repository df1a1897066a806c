#pragma once
// Whether a value is one the engine's parser accepts for a flag: the spec's type (int, float, json,
// lists of those), its choices and its range (flag_registry.hpp). What cannot be known from the
// flag list (computed choices, converters other than human_readable_int) is not judged.
#include <optional>
#include <string>

#include "servebench/flags/flag_registry.hpp"

namespace servebench::flags {

struct ValueProblem {
  enum class Kind { type, choice, range, arity };
  Kind kind = Kind::type;
  std::string message;  // "--tp-size takes an integer, got 'four'", "--kv-cache-dtype 'fp8_e4m4' is not
                        // one of: auto, …", "--mem-fraction-static 7.0 is outside (0, 1]: …"
};

// What is wrong with the value a command gives a flag, or nullopt when it is fine. `value` is the
// command's (nullopt for a switch; words of a many-valued flag joined by ' ').
std::optional<ValueProblem> value_problem(const FlagSpec& spec, const std::optional<std::string>& value);
// "(0, 1]", "[1, +inf)".
std::string to_string(const ValueRange& r);

}  // namespace servebench::flags
