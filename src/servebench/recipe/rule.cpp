#include "servebench/recipe/rule.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/util/yaml_file.hpp"

namespace servebench::recipe {
namespace {

using util::Result;

Result<std::vector<std::string>> read_values(const std::string& file, const YAML::Node& n, std::string_view what) {
  std::vector<std::string> values;
  if (n.IsScalar()) {
    values.push_back(n.Scalar());
    return values;
  }
  if (!n.IsSequence() || n.size() == 0) {
    return std::unexpected(util::yaml_error(file, n, fmt::format("{} must be a non-empty list of option ids", what)));
  }
  for (const auto& item : n) {
    auto v = util::yaml_string(file, item, what);
    if (!v) return std::unexpected(v.error());
    values.push_back(*v);
  }
  return values;
}

// One `dim: values` or `dim: {not: values}` pair.
Result<RuleCondition> read_condition(const std::string& file, const YAML::Node& key, const YAML::Node& value,
                                     std::string_view what) {
  RuleCondition c;
  c.dim = key.Scalar();
  c.where = util::yaml_where(file, key);
  const std::string label = fmt::format("{}.when.{}", what, c.dim);
  YAML::Node list = value;
  if (value.IsMap()) {
    if (value.size() != 1 || !value["not"]) {
      return std::unexpected(util::yaml_error(file, value, fmt::format("{} must be option ids or {{not: [option ids]}}", label)));
    }
    c.negated = true;
    list = value["not"];
  }
  auto values = read_values(file, list, label);
  if (!values) return std::unexpected(values.error());
  c.values = std::move(*values);
  return c;
}

Result<Rule> read_rule(const std::string& file, const YAML::Node& n, std::string_view what) {
  auto m = util::YamlMap::of(file, n, std::string(what));
  if (!m) return std::unexpected(m.error());
  Rule rule;
  rule.where = util::yaml_where(file, n);
  auto reason = m->required_string("reason");
  if (!reason) return std::unexpected(reason.error());
  rule.reason = *reason;
  if (m->has("when")) {
    auto when = parse_conditions(file, m->node("when"), what);
    if (!when) return std::unexpected(when.error());
    rule.when = std::move(*when);
  }
  if (auto done = m->finish(); !done) return std::unexpected(done.error());
  return rule;
}

}  // namespace

bool RuleCondition::holds(std::span<const std::string> selected) const {
  if (dim_index >= selected.size()) return false;
  const bool listed = std::find(values.begin(), values.end(), selected[dim_index]) != values.end();
  return listed != negated;
}

Result<Conditions> parse_conditions(const std::string& file, const YAML::Node& node, std::string_view what) {
  if (!node.IsMap() || node.size() == 0) {
    return std::unexpected(util::yaml_error(file, node, fmt::format("{} needs 'when': a mapping of dimension to option ids", what)));
  }
  Conditions out;
  for (const auto& kv : node) {
    auto c = read_condition(file, kv.first, kv.second, what);
    if (!c) return std::unexpected(c.error());
    out.push_back(std::move(*c));
  }
  return out;
}

Result<std::vector<Rule>> parse_rules(const std::string& file, const YAML::Node& node, std::string_view what) {
  std::vector<Rule> rules;
  if (!node.IsDefined() || node.IsNull()) return rules;
  if (node.IsMap()) {
    auto r = read_rule(file, node, what);
    if (!r) return std::unexpected(r.error());
    rules.push_back(std::move(*r));
    return rules;
  }
  if (!node.IsSequence()) {
    return std::unexpected(util::yaml_error(file, node, fmt::format("{} must be a list of {{when, reason}} rules", what)));
  }
  for (const auto& item : node) {
    auto r = read_rule(file, item, what);
    if (!r) return std::unexpected(r.error());
    rules.push_back(std::move(*r));
  }
  return rules;
}

bool conditions_hold(const Conditions& when, std::span<const std::string> selected) {
  return std::all_of(when.begin(), when.end(), [&](const RuleCondition& c) { return c.holds(selected); });
}

bool rule_applies(const Rule& rule, std::span<const std::string> selected) { return conditions_hold(rule.when, selected); }

}  // namespace servebench::recipe
