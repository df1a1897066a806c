#include "servebench/campaign/spec_fields.hpp"

#include <fmt/format.h>

namespace servebench::campaign {

util::Result<SpecFields> SpecFields::of(const std::string& file, const YAML::Node& node, std::string what) {
  auto map = util::YamlMap::of(file, node, what);
  if (!map) return std::unexpected(map.error());
  return SpecFields(std::move(*map), std::move(what));
}

void SpecFields::note(util::Error e) {
  if (!m_error) m_error = std::move(e);
}

void SpecFields::note_at(const YAML::Node& n, std::string_view message) {
  note(util::yaml_error(file(), n.IsDefined() ? n : m_map.self(), message));
}

std::string SpecFields::required_string(const std::string& key) {
  std::string v = take(m_map.required_string(key));
  if (!failed() && v.empty()) note_at(node(key), fmt::format("{}.{} must not be empty", m_what, key));
  return v;
}

std::string SpecFields::string(const std::string& key, std::string fallback) {
  return take(m_map.optional_string(key)).value_or(std::move(fallback));
}

std::optional<std::string> SpecFields::optional_string(const std::string& key) {
  return take(m_map.optional_string(key));
}

std::int64_t SpecFields::integer(const std::string& key, std::int64_t fallback) {
  return take(m_map.optional_int(key)).value_or(fallback);
}

double SpecFields::number(const std::string& key, double fallback) {
  return take(m_map.optional_double(key)).value_or(fallback);
}

std::optional<double> SpecFields::nullable_number(const std::string& key, std::optional<double> fallback) {
  const YAML::Node n = node(key);
  if (!n.IsDefined()) return fallback;
  if (n.IsNull()) return std::nullopt;
  return take(m_map.optional_double(key));
}

bool SpecFields::boolean(const std::string& key, bool fallback) {
  return take(m_map.optional_bool(key)).value_or(fallback);
}

std::vector<std::int64_t> SpecFields::integers(const std::string& key) { return take(m_map.int_list(key)); }

util::Result<void> SpecFields::finish() const {
  if (m_error) return std::unexpected(*m_error);
  return m_map.finish();
}

}  // namespace servebench::campaign
