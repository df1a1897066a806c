#pragma once
// An engine's flag list as its own argument parser defines it, compiled in from data/flags/*.tsv
// (cmake/flag_list_gen.cmake writes the rows; this file reads them): spelling, aliases, whether and
// how many values the flag takes, the value type, the choices and the default.
#include <span>
#include <string_view>
#include <vector>

#include "servebench/flags/flag_registry.hpp"
#include "servebench/util/result.hpp"

namespace servebench::flags {

struct FlagListRow {
  std::string_view flag, aliases, takes_value, type, choices, default_value;
};

// The rows of data/flags/<name> (e.g. "sglang.tsv"); empty when the build has no such list.
std::span<const FlagListRow> generated_flag_list(std::string_view name);

// A row as a spec: arity from takes_value and type (lists take many words), aliases split at ',',
// choices at '|' (a computed `choices=EXPR` part makes them unchecked), defaults the parser decides
// at run time (None, SUPPRESS, empty) and switch defaults left out.
FlagSpec spec_of(const FlagListRow& row);
// Every spec of a list; fails (bad_input) when the build has no list of that name.
util::Result<std::vector<FlagSpec>> flag_list_specs(std::string_view name);

}  // namespace servebench::flags
