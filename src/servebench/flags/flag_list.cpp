#include "servebench/flags/flag_list.hpp"

#include <algorithm>
#include <array>

#include "servebench/util/strings.hpp"

namespace servebench::flags {
namespace {

std::vector<std::string> split_list(std::string_view text, char sep) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  for (const auto part : util::split(text, sep)) {
    if (!util::trim(part).empty()) out.emplace_back(util::trim(part));
  }
  return out;
}

FlagArity arity_of(const FlagListRow& row) {
  if (row.takes_value == "no") return FlagArity::none;
  if (row.takes_value == "optional") return FlagArity::optional;
  return row.type.starts_with("list[") ? FlagArity::many : FlagArity::one;
}

// Defaults the list cannot state as a value the command line would carry.
bool stated_default(const FlagListRow& row) {
  constexpr std::array<std::string_view, 7> k_unstated{"None", "SUPPRESS", "<required>", "", "\"\"", "[]", "{}"};
  if (row.takes_value == "no") return false;  // a switch's default is its absence
  return std::find(k_unstated.begin(), k_unstated.end(), row.default_value) == k_unstated.end();
}

}  // namespace

FlagSpec spec_of(const FlagListRow& row) {
  FlagSpec spec;
  spec.name = std::string(row.flag);
  spec.aliases = split_list(row.aliases, ',');
  spec.arity = arity_of(row);
  spec.type = std::string(row.type);
  if (stated_default(row)) spec.default_value = std::string(row.default_value);
  for (auto& choice : split_list(row.choices, '|')) {
    if (choice.find('=') != std::string::npos || choice.find('(') != std::string::npos) {
      spec.choices_computed = true;
    } else {
      spec.choices.push_back(std::move(choice));
    }
  }
  return spec;
}

util::Result<std::vector<FlagSpec>> flag_list_specs(std::string_view name) {
  const auto rows = generated_flag_list(name);
  if (rows.empty()) return util::failf(util::ErrorKind::bad_input, "no flag list data/flags/{} was compiled in", name);
  std::vector<FlagSpec> out;
  out.reserve(rows.size());
  for (const auto& row : rows) out.push_back(spec_of(row));
  return out;
}

}  // namespace servebench::flags
