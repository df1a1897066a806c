#pragma once
// An error-collecting view of a strict YAML mapping (util::YamlMap): each getter returns a value
// (or its fallback) and remembers the first error, so a reader of many keys checks once at the end.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "servebench/util/yaml_file.hpp"

namespace servebench::recipe {

class YamlFields {
 public:
  // Fails when `node` is not a mapping; `what` names it in messages ("cell", "option 'fp8'").
  static util::Result<YamlFields> of(const std::string& file, const YAML::Node& node, std::string what);

  std::string required_string(const std::string& key);
  std::string string(const std::string& key, std::string fallback = "");
  std::int64_t integer(const std::string& key, std::int64_t fallback);
  std::optional<std::int64_t> optional_integer(const std::string& key);
  std::vector<std::string> strings(const std::string& key);
  std::vector<std::int64_t> integers(const std::string& key);
  // The raw child (marks the key as known); undefined when absent.
  YAML::Node node(const std::string& key) { return m_map.node(key); }
  bool has(const std::string& key) const { return m_map.has(key); }
  // Records an error from a nested reader unless one is already recorded.
  void note(const util::Error& e);
  template <class T>
  T take(util::Result<T> r, T fallback = {}) {
    if (r) return std::move(*r);
    note(r.error());
    return fallback;
  }

  // The first recorded error, else the unknown-key check of util::YamlMap::finish.
  util::Result<void> finish() const;
  bool failed() const { return m_error.has_value(); }
  const std::string& file() const { return m_map.file(); }

 private:
  explicit YamlFields(util::YamlMap map) : m_map(std::move(map)) {}
  util::YamlMap m_map;
  std::optional<util::Error> m_error;
};

}  // namespace servebench::recipe
