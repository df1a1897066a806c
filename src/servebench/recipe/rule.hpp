#pragma once
// Declarative conditions over a selection, the data form of the cookbook's `(s) => …` functions:
//   when: {hw: [h100, h200], strategy: low-latency}     every named dim holds one of the listed options
//   when: {hw: {not: [gb300]}}                          … or holds none of them
// Rules pair a condition with a reason (`disable`); an absent `when` always holds.
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
  bool negated = false;        // {not: [...]}: holds when the option is none of `values`
  // True when the selection's option for this dim is (or, negated, is not) one of `values`.
  bool holds(std::span<const std::string> selected) const;
};

using Conditions = std::vector<RuleCondition>;  // all must hold; empty always holds

struct Rule {
  Conditions when;
  std::string reason;
  std::string where;
};

// Reads a `when` mapping. An empty mapping, an empty value list or a `not` with other keys fail
// (bad_input, file:line:col); `what` names the owner in messages.
util::Result<Conditions> parse_conditions(const std::string& file, const YAML::Node& node, std::string_view what);
// Reads a `disable` value: a list of {when, reason} mappings (or one mapping). Unknown keys, an
// empty `when` or a missing reason fail (bad_input, file:line:col). No `when`: always disabled.
util::Result<std::vector<Rule>> parse_rules(const std::string& file, const YAML::Node& node, std::string_view what);

// True when every condition holds; `selected` has one option id per catalog dim (resolved indices).
bool conditions_hold(const Conditions& when, std::span<const std::string> selected);
bool rule_applies(const Rule& rule, std::span<const std::string> selected);

}  // namespace servebench::recipe
