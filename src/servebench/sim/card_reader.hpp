#pragma once
// Reads one YAML mapping of a data card field by field, keeping the first error, so card parsers read
// as a list of fields instead of a ladder of early returns. Internal to the sim module.
#include <optional>
#include <string>

#include "servebench/util/yaml_file.hpp"

namespace servebench::sim {

class CardReader {
 public:
  // Fails like util::YamlMap::of when `node` is not a mapping.
  static util::Result<CardReader> of(const std::string& file, const YAML::Node& node, std::string what);

  std::int64_t integer(const std::string& key);
  std::int64_t integer_or(const std::string& key, std::int64_t fallback);
  double number(const std::string& key);
  double number_or(const std::string& key, double fallback);
  std::string text(const std::string& key);
  std::string text_or(const std::string& key, std::string fallback);
  bool flag_or(const std::string& key, bool fallback);
  std::vector<std::string> texts(const std::string& key);
  // A sequence of numbers (a single number is a one-element list); absent -> empty.
  std::vector<double> numbers(const std::string& key);
  // A nested mapping, absent -> nullopt; errors are kept like the others.
  std::optional<CardReader> child(const std::string& key);
  bool has(const std::string& key) const { return m_map.has(key); }

  // Rejects unread keys, then reports the first error met (including a child's).
  util::Result<void> finish();
  void absorb(CardReader& child);

 private:
  explicit CardReader(util::YamlMap map) : m_map(std::move(map)) {}
  template <class T>
  T keep(util::Result<T> r, T fallback);

  util::YamlMap m_map;
  std::optional<util::Error> m_error;
};

}  // namespace servebench::sim
