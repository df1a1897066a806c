#pragma once
// Internal to the campaign spec reader: a strict YAML mapping (util::YamlMap) whose getters return
// a value or a fallback and keep the first error, so reading a block of keys checks once at the
// end. (recipe::YamlFields is the same idea; both could move to util.)
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "servebench/util/yaml_file.hpp"

namespace servebench::campaign {

class SpecFields {
 public:
  // Fails when `node` is not a mapping; `what` names it in messages ("arm 'e7b'").
  static util::Result<SpecFields> of(const std::string& file, const YAML::Node& node, std::string what);

  std::string required_string(const std::string& key);
  std::string string(const std::string& key, std::string fallback = "");
  std::optional<std::string> optional_string(const std::string& key);
  std::int64_t integer(const std::string& key, std::int64_t fallback);
  double number(const std::string& key, double fallback);
  // Absent → fallback; explicit null → nullopt.
  std::optional<double> nullable_number(const std::string& key, std::optional<double> fallback);
  bool boolean(const std::string& key, bool fallback);
  std::vector<std::int64_t> integers(const std::string& key);
  // The raw child (marks the key as known); undefined when absent.
  YAML::Node node(const std::string& key) { return m_map.node(key); }
  bool has(const std::string& key) const { return m_map.has(key); }

  // Records `e` unless an error is already recorded.
  void note(util::Error e);
  // Records "file:line:col: message" at `n` (the mapping itself when `n` is undefined).
  void note_at(const YAML::Node& n, std::string_view message);
  template <class T>
  T take(util::Result<T> r, T fallback = {}) {
    if (r) return std::move(*r);
    note(r.error());
    return fallback;
  }

  // The first recorded error, else the unknown-key check.
  util::Result<void> finish() const;
  bool failed() const { return m_error.has_value(); }
  const std::string& file() const { return m_map.file(); }
  const std::string& what() const { return m_what; }
  const YAML::Node& self_node() const { return m_map.self(); }

 private:
  SpecFields(util::YamlMap map, std::string what) : m_map(std::move(map)), m_what(std::move(what)) {}
  util::YamlMap m_map;
  std::string m_what;
  std::optional<util::Error> m_error;
};

}  // namespace servebench::campaign
