#pragma once
// Declarative disable rules, the data form of the cookbook's `disabled: (s) => …` functions:
//   disable: [{when: {hw: [h100, h200]}, reason: "NVFP4 W4A4 kernels are Blackwell-only"}]
// A rule applies when, for every dimension it names, the selection holds one of the listed options.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "servebench/util/result.hpp"

namespace servebench::recipe {

struct RuleCondition {
  std::string dim;             // dimension id as written
  std::size_t dim_index = 0;   // resolved against the catalog's dims after parsing
  std::vector<std::string> values;
  std::string where;           // file:line:col of the dim key
};

struct Rule {
  std::vector<RuleCondition> when;  // never empty
  std::string reason;
  std::string where;
};

// Reads a `disable` value: a list of {when, reason} mappings (or one mapping). Unknown keys, an
// empty `when`, an empty value list or a missing reason fail (bad_input, file:line:col).
util::Result<std::vector<Rule>> parse_rules(const std::string& file, const YAML::Node& node, std::string_view what);

// True when every condition holds; `selected` has one option id per catalog dim (resolved indices).
bool rule_applies(const Rule& rule, std::span<const std::string> selected);

}  // namespace servebench::recipe
