#pragma once
// An error-collecting view of a strict YAML mapping (YamlMap): each getter returns a value or its
// fallback and keeps the first error, so a reader of many keys checks once, at finish(). Used by
// every file reader with many keys (campaign specs, catalogs, data cards).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/util/yaml_file.hpp"

namespace servebench::util {

class YamlFields {
 public:
  // Fails when `node` is not a mapping; `what` names it in messages ("arm 'e7b'", "cell").
  static Result<YamlFields> of(const std::string& file, const YAML::Node& node, std::string what);

  // Missing or empty → error.
  std::string required_string(const std::string& key);
  std::string string(const std::string& key, std::string fallback = "");
  std::optional<std::string> optional_string(const std::string& key);
  std::int64_t integer(const std::string& key, std::int64_t fallback);
  std::optional<std::int64_t> optional_integer(const std::string& key);
  double number(const std::string& key, double fallback);
  // The same, checked against a documented range [lo, hi]: outside it (NaN too) the error names
  // what.key, the allowed range and the value, at the key's line and column; the result is then
  // clamped into the range, so later checks never compute with an absurd value.
  std::int64_t integer_in(const std::string& key, std::int64_t fallback, std::int64_t lo, std::int64_t hi);
  double number_in(const std::string& key, double fallback, double lo, double hi);
  // Absent → fallback; explicit null → nullopt.
  std::optional<double> nullable_number(const std::string& key, std::optional<double> fallback);
  bool boolean(const std::string& key, bool fallback);
  std::vector<std::int64_t> integers(const std::string& key);
  std::vector<std::string> strings(const std::string& key);
  // The raw child (marks the key as known); undefined when absent.
  YAML::Node node(const std::string& key) { return m_map.node(key); }
  bool has(const std::string& key) const { return m_map.has(key); }

  // Records `e` unless an error is already recorded.
  void note(Error e);
  // Records "file:line:col: message" at `n` (the mapping itself when `n` is undefined).
  void note_at(const YAML::Node& n, std::string_view message);
  template <class T>
  T take(Result<T> r, T fallback = {}) {
    if (r) return std::move(*r);
    note(r.error());
    return fallback;
  }

  // The first recorded error, else the unknown-key check of YamlMap::finish.
  Result<void> finish() const;
  bool failed() const { return m_error.has_value(); }
  const std::string& file() const { return m_map.file(); }
  const std::string& what() const { return m_what; }
  const YAML::Node& self_node() const { return m_map.self(); }

 private:
  YamlFields(YamlMap map, std::string what) : m_map(std::move(map)), m_what(std::move(what)) {}
  YamlMap m_map;
  std::string m_what;
  std::optional<Error> m_error;
};

}  // namespace servebench::util
