#include "servebench/sim/card_reader.hpp"

#include <fmt/format.h>

namespace servebench::sim {

util::Result<CardReader> CardReader::of(const std::string& file, const YAML::Node& node, std::string what) {
  auto map = util::YamlMap::of(file, node, std::move(what));
  if (!map) return std::unexpected(map.error());
  return CardReader(std::move(*map));
}

template <class T>
T CardReader::keep(util::Result<T> r, T fallback) {
  if (r) return std::move(*r);
  if (!m_error) m_error = r.error();
  return fallback;
}

std::int64_t CardReader::integer(const std::string& key) { return keep(m_map.required_int(key), std::int64_t{0}); }

std::int64_t CardReader::integer_or(const std::string& key, std::int64_t fallback) {
  auto v = keep(m_map.optional_int(key), std::optional<std::int64_t>{});
  return v.value_or(fallback);
}

double CardReader::number(const std::string& key) { return keep(m_map.required_double(key), 0.0); }

double CardReader::number_or(const std::string& key, double fallback) {
  return keep(m_map.optional_double(key), std::optional<double>{}).value_or(fallback);
}

util::Nanos CardReader::micros_or(const std::string& key, double fallback_us) {
  const double us = number_or(key, fallback_us);
  if (us >= 0 && us <= k_max_card_micros) return util::saturating_nanos<std::micro>(us);
  if (!m_error) {
    m_error = util::yaml_error(m_map.file(), m_map.node(key),
                               fmt::format("{} must be a time in [0, {:.0f}] microseconds, got {}", key,
                                           k_max_card_micros, us));
  }
  return util::Nanos{0};
}

util::Nanos CardReader::micros(const std::string& key) {
  if (!m_map.has(key)) {
    (void)keep(m_map.required_double(key), 0.0);  // records the missing key's error
    return util::Nanos{0};
  }
  return micros_or(key, 0);
}

std::string CardReader::text(const std::string& key) { return keep(m_map.required_string(key), std::string{}); }

std::string CardReader::text_or(const std::string& key, std::string fallback) {
  return keep(m_map.optional_string(key), std::optional<std::string>{}).value_or(std::move(fallback));
}

bool CardReader::flag_or(const std::string& key, bool fallback) {
  return keep(m_map.optional_bool(key), std::optional<bool>{}).value_or(fallback);
}

std::vector<std::string> CardReader::texts(const std::string& key) {
  if (!m_map.has(key)) return {};
  return keep(m_map.string_list(key), std::vector<std::string>{});
}

std::vector<double> CardReader::numbers(const std::string& key) {
  if (!m_map.has(key)) return {};
  const YAML::Node n = m_map.node(key);
  std::vector<double> out;
  if (!n.IsSequence()) {
    out.push_back(keep(util::yaml_double(m_map.file(), n, key), 0.0));
    return out;
  }
  for (const auto& item : n) out.push_back(keep(util::yaml_double(m_map.file(), item, key), 0.0));
  return out;
}

std::optional<CardReader> CardReader::child(const std::string& key) {
  if (!m_map.has(key)) return std::nullopt;
  auto c = of(m_map.file(), m_map.node(key), key);
  if (!c) {
    if (!m_error) m_error = c.error();
    return std::nullopt;
  }
  return std::move(*c);
}

void CardReader::absorb(CardReader& child) {
  auto r = child.finish();
  if (!r && !m_error) m_error = r.error();
}

util::Result<void> CardReader::finish() {
  if (m_error) return std::unexpected(*m_error);
  return m_map.finish();
}

}  // namespace servebench::sim
