#include "servebench/util/yaml_fields.hpp"

#include <fmt/format.h>

namespace servebench::util {

Result<YamlFields> YamlFields::of(const std::string& file, const YAML::Node& node, std::string what) {
  auto map = YamlMap::of(file, node, what);
  if (!map) return std::unexpected(map.error());
  return YamlFields(std::move(*map), std::move(what));
}

void YamlFields::note(Error e) {
  if (!m_error) m_error = std::move(e);
}

void YamlFields::note_at(const YAML::Node& n, std::string_view message) {
  note(yaml_error(file(), n.IsDefined() ? n : m_map.self(), message));
}

std::string YamlFields::required_string(const std::string& key) {
  std::string v = take(m_map.required_string(key));
  if (!failed() && v.empty()) note_at(node(key), fmt::format("{}.{} must not be empty", m_what, key));
  return v;
}

std::string YamlFields::string(const std::string& key, std::string fallback) {
  return take(m_map.optional_string(key)).value_or(std::move(fallback));
}

std::optional<std::string> YamlFields::optional_string(const std::string& key) {
  return take(m_map.optional_string(key));
}

std::int64_t YamlFields::integer(const std::string& key, std::int64_t fallback) {
  return optional_integer(key).value_or(fallback);
}

std::optional<std::int64_t> YamlFields::optional_integer(const std::string& key) {
  return take(m_map.optional_int(key));
}

double YamlFields::number(const std::string& key, double fallback) {
  return take(m_map.optional_double(key)).value_or(fallback);
}

std::int64_t YamlFields::integer_in(const std::string& key, std::int64_t fallback, std::int64_t lo, std::int64_t hi) {
  const std::int64_t v = integer(key, fallback);
  if (v >= lo && v <= hi) return v;
  note_at(node(key), fmt::format("{}.{} must be in {}..{} (got {})", m_what, key, lo, hi, v));
  return v < lo ? lo : hi;
}

double YamlFields::number_in(const std::string& key, double fallback, double lo, double hi) {
  const double v = number(key, fallback);
  if (v >= lo && v <= hi) return v;
  note_at(node(key), fmt::format("{}.{} must be in [{}, {}] (got {})", m_what, key, lo, hi, v));
  return v > hi ? hi : lo;  // NaN: the bottom
}

std::optional<double> YamlFields::nullable_number(const std::string& key, std::optional<double> fallback) {
  const YAML::Node n = node(key);
  if (!n.IsDefined()) return fallback;
  if (n.IsNull()) return std::nullopt;
  return take(m_map.optional_double(key));
}

bool YamlFields::boolean(const std::string& key, bool fallback) {
  return take(m_map.optional_bool(key)).value_or(fallback);
}

std::vector<std::int64_t> YamlFields::integers(const std::string& key) { return take(m_map.int_list(key)); }

std::vector<std::string> YamlFields::strings(const std::string& key) { return take(m_map.string_list(key)); }

Result<void> YamlFields::finish() const {
  if (m_error) return std::unexpected(*m_error);
  return m_map.finish();
}

}  // namespace servebench::util
