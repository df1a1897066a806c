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

Result<Rule> read_rule(const std::string& file, const YAML::Node& n, std::string_view what) {
  auto m = util::YamlMap::of(file, n, std::string(what));
  if (!m) return std::unexpected(m.error());
  Rule rule;
  rule.where = util::yaml_where(file, n);
  auto reason = m->required_string("reason");
  if (!reason) return std::unexpected(reason.error());
  rule.reason = *reason;
  const YAML::Node when = m->node("when");
  if (!when.IsMap() || when.size() == 0) {
    return std::unexpected(util::yaml_error(file, when.IsDefined() ? when : n,
                                            fmt::format("{} needs 'when': a mapping of dimension to option ids", what)));
  }
  for (const auto& kv : when) {
    RuleCondition c;
    c.dim = kv.first.Scalar();
    c.where = util::yaml_where(file, kv.first);
    auto values = read_values(file, kv.second, fmt::format("{}.when.{}", what, c.dim));
    if (!values) return std::unexpected(values.error());
    c.values = std::move(*values);
    rule.when.push_back(std::move(c));
  }
  if (auto done = m->finish(); !done) return std::unexpected(done.error());
  return rule;
}

}  // namespace

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

bool rule_applies(const Rule& rule, std::span<const std::string> selected) {
  return std::all_of(rule.when.begin(), rule.when.end(), [&](const RuleCondition& c) {
    return c.dim_index < selected.size() &&
           std::find(c.values.begin(), c.values.end(), selected[c.dim_index]) != c.values.end();
  });
}

}  // namespace servebench::recipe
