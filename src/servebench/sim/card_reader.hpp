#pragma once
// Reads one YAML mapping of a data card field by field, keeping the first error, so card parsers read
// as a list of fields instead of a ladder of early returns. Internal to the sim module.
#include <optional>
#include <string>

#include "servebench/util/clock.hpp"
#include "servebench/util/yaml_file.hpp"

namespace servebench::sim {

inline constexpr double k_max_card_micros = 1e9;  // 1,000 s

class CardReader {
 public:
  // Fails like util::YamlMap::of when `node` is not a mapping.
  static util::Result<CardReader> of(const std::string& file, const YAML::Node& node, std::string what);

  std::int64_t integer(const std::string& key);
  std::int64_t integer_or(const std::string& key, std::int64_t fallback);
  double number(const std::string& key);
  double number_or(const std::string& key, double fallback);
  // A time in microseconds (`key` ends in `_us`), within [0, k_max_card_micros]: beyond it the
  // value is no engine's time, and its conversion to integer nanoseconds would overflow.
  util::Nanos micros(const std::string& key);
  util::Nanos micros_or(const std::string& key, double fallback_us);
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
