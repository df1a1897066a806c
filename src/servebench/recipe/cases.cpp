#include "servebench/recipe/cases.hpp"

#include <fmt/format.h>

#include "servebench/util/yaml_file.hpp"

namespace servebench::recipe {
namespace {

using util::Result;

Result<void> flatten(const std::string& file, const YAML::Node& node, std::string_view what, EntryList& out) {
  if (node.IsSequence()) {
    for (const auto& item : node) {
      if (auto r = flatten(file, item, what, out); !r) return r;
    }
    return {};
  }
  if (!node.IsScalar() || node.Scalar().empty()) {
    return std::unexpected(util::yaml_error(file, node, fmt::format("{} items must be non-empty text (or lists of text)", what)));
  }
  out.push_back({node.Scalar(), util::yaml_where(file, node)});
  return {};
}

bool is_case(const YAML::Node& n) { return n.IsMap() && (n["then"] || n["else"] || n["when"]); }

// One {when, then} or {else} mapping; `read` converts the value node.
template <class T, class Read>
Result<typename Cases<T>::Case> read_case(const std::string& file, const YAML::Node& n, std::string_view what, Read&& read) {
  auto m = util::YamlMap::of(file, n, fmt::format("{} case", what));
  if (!m) return std::unexpected(m.error());
  typename Cases<T>::Case c;
  c.where = util::yaml_where(file, n);
  const bool otherwise = m->has("else");
  if (otherwise == m->has("then") || otherwise == m->has("when")) {
    return std::unexpected(util::yaml_error(file, n, fmt::format("{} case must be {{when, then}} or {{else}}", what)));
  }
  if (!otherwise) {
    auto when = parse_conditions(file, m->node("when"), what);
    if (!when) return std::unexpected(when.error());
    c.when = std::move(*when);
  }
  auto value = read(m->node(otherwise ? "else" : "then"));
  if (!value) return std::unexpected(value.error());
  c.value = std::move(*value);
  if (auto done = m->finish(); !done) return std::unexpected(done.error());
  return c;
}

template <class T, class Read>
Result<Cases<T>> read_cases(const std::string& file, const YAML::Node& node, std::string_view what, Read&& read) {
  Cases<T> out;
  for (const auto& item : node) {
    if (!is_case(item)) {
      return std::unexpected(util::yaml_error(file, item, fmt::format("{} mixes plain items and {{when, then}} cases", what)));
    }
    auto c = read_case<T>(file, item, what, read);
    if (!c) return std::unexpected(c.error());
    out.cases.push_back(std::move(*c));
  }
  return out;
}

}  // namespace

Result<EntryList> parse_entries(const std::string& file, const YAML::Node& node, std::string_view what) {
  EntryList out;
  if (!node.IsDefined() || node.IsNull()) return out;
  if (!node.IsSequence()) return std::unexpected(util::yaml_error(file, node, fmt::format("{} must be a list", what)));
  if (auto r = flatten(file, node, what, out); !r) return std::unexpected(r.error());
  return out;
}

Result<TextCases> parse_text_cases(const std::string& file, const YAML::Node& node, std::string_view what) {
  const auto read = [&](const YAML::Node& n) { return util::yaml_string(file, n, what); };
  if (!node.IsDefined() || node.IsNull()) return TextCases{};
  if (node.IsSequence()) return read_cases<std::string>(file, node, what, read);
  auto value = read(node);
  if (!value) return std::unexpected(value.error());
  return TextCases{{{{}, *value, util::yaml_where(file, node)}}};
}

Result<EntryCases> parse_entry_cases(const std::string& file, const YAML::Node& node, std::string_view what) {
  const auto read = [&](const YAML::Node& n) { return parse_entries(file, n, what); };
  if (node.IsSequence() && node.size() > 0 && is_case(node[0])) return read_cases<EntryList>(file, node, what, read);
  auto entries = read(node);
  if (!entries) return std::unexpected(entries.error());
  EntryCases out;
  if (node.IsDefined() && !node.IsNull()) out.cases.push_back({{}, std::move(*entries), util::yaml_where(file, node)});
  return out;
}

std::vector<std::string> texts(const EntryList& entries) {
  std::vector<std::string> out;
  out.reserve(entries.size());
  for (const auto& e : entries) out.push_back(e.text);
  return out;
}

}  // namespace servebench::recipe
