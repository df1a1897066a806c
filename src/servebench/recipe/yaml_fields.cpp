#include "servebench/recipe/yaml_fields.hpp"

namespace servebench::recipe {

util::Result<YamlFields> YamlFields::of(const std::string& file, const YAML::Node& node, std::string what) {
  auto m = util::YamlMap::of(file, node, std::move(what));
  if (!m) return std::unexpected(m.error());
  return YamlFields(std::move(*m));
}

void YamlFields::note(const util::Error& e) {
  if (!m_error) m_error = e;
}

std::string YamlFields::required_string(const std::string& key) { return take(m_map.required_string(key)); }

std::string YamlFields::string(const std::string& key, std::string fallback) {
  auto v = m_map.optional_string(key);
  if (!v) {
    note(v.error());
    return fallback;
  }
  return v->value_or(std::move(fallback));
}

std::int64_t YamlFields::integer(const std::string& key, std::int64_t fallback) {
  return optional_integer(key).value_or(fallback);
}

std::optional<std::int64_t> YamlFields::optional_integer(const std::string& key) {
  return take(m_map.optional_int(key));
}

std::vector<std::string> YamlFields::strings(const std::string& key) { return take(m_map.string_list(key)); }

std::vector<std::int64_t> YamlFields::integers(const std::string& key) { return take(m_map.int_list(key)); }

util::Result<void> YamlFields::finish() const {
  if (m_error) return std::unexpected(*m_error);
  return m_map.finish();
}

}  // namespace servebench::recipe
