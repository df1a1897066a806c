#include "servebench/wire/prometheus.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace servebench::wire {
namespace {

bool name_char(char c, bool first) {
  return c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

void skip_spaces(std::string_view s, std::size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
}

std::string_view read_name(std::string_view s, std::size_t& i) {
  const std::size_t start = i;
  while (i < s.size() && name_char(s[i], i == start)) ++i;
  return s.substr(start, i - start);
}

std::optional<double> parse_value(std::string_view token) {
  if (token == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (token == "+Inf" || token == "Inf") return std::numeric_limits<double>::infinity();
  if (token == "-Inf") return -std::numeric_limits<double>::infinity();
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  double v = 0;
  const auto r = std::from_chars(token.data(), token.data() + token.size(), v);
  if (r.ec != std::errc() || r.ptr != token.data() + token.size()) return std::nullopt;
  return v;
}

// A quoted label value with \\, \" and \n escapes; `i` is at the opening quote.
std::optional<std::string> read_label_value(std::string_view s, std::size_t& i) {
  if (i >= s.size() || s[i] != '"') return std::nullopt;
  std::string out;
  for (++i; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') {
      ++i;
      return out;
    }
    if (c == '\\' && i + 1 < s.size()) {
      const char e = s[++i];
      out.push_back(e == 'n' ? '\n' : e);
    } else {
      out.push_back(c);
    }
  }
  return std::nullopt;
}

// Reads "{k="v",...}" into `labels`; returns an error text or empty.
std::string read_labels(std::string_view s, std::size_t& i, Sample& sample) {
  ++i;  // '{'
  for (;;) {
    skip_spaces(s, i);
    if (i < s.size() && s[i] == '}') {
      ++i;
      return {};
    }
    const std::string_view key = read_name(s, i);
    skip_spaces(s, i);
    if (key.empty() || i >= s.size() || s[i] != '=') return "expected label=\"value\"";
    ++i;
    skip_spaces(s, i);
    if (i >= s.size() || s[i] != '"') return "expected a quoted label value";
    auto value = read_label_value(s, i);
    if (!value) return "unterminated label value";
    sample.labels.emplace_back(std::string(key), std::move(*value));
    skip_spaces(s, i);
    if (i < s.size() && s[i] == ',') ++i;
    else if (i >= s.size() || s[i] != '}') return "expected ',' or '}' after a label";
  }
}

}  // namespace

std::optional<std::string_view> Sample::label(std::string_view key) const {
  for (const auto& [k, v] : labels) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

void PrometheusParser::parse_line(std::string_view line, std::vector<Sample>& out) {
  ++m_line;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::size_t i = 0;
  skip_spaces(line, i);
  if (i == line.size() || line[i] == '#') return;
  Sample sample;
  std::string error;
  sample.name = std::string(read_name(line, i));
  if (sample.name.empty()) error = "expected a metric name";
  if (error.empty() && i < line.size() && line[i] == '{') error = read_labels(line, i, sample);
  std::optional<double> value;
  if (error.empty()) {
    skip_spaces(line, i);
    std::size_t end = i;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t') ++end;
    value = parse_value(line.substr(i, end - i));  // a timestamp or exemplar may follow; ignored
    if (!value) error = "expected a value";
  }
  if (!error.empty()) {
    if (m_malformed++ == 0) m_first_error = fmt::format("line {}: {}", m_line, error);
    return;
  }
  if (sample.name.ends_with("_created")) return;
  sample.value = *value;
  out.push_back(std::move(sample));
}

void PrometheusParser::feed(std::string_view bytes, std::vector<Sample>& out) {
  while (!bytes.empty()) {
    const auto nl = bytes.find('\n');
    if (nl == std::string_view::npos) {
      m_partial.append(bytes);
      return;
    }
    if (m_partial.empty()) {
      parse_line(bytes.substr(0, nl), out);
    } else {
      m_partial.append(bytes.substr(0, nl));
      parse_line(m_partial, out);
      m_partial.clear();
    }
    bytes.remove_prefix(nl + 1);
  }
}

void PrometheusParser::finish(std::vector<Sample>& out) {
  if (m_partial.empty()) return;
  parse_line(m_partial, out);
  m_partial.clear();
}

std::vector<Sample> parse_prometheus(std::string_view text) {
  std::vector<Sample> out;
  PrometheusParser parser;
  parser.feed(text, out);
  parser.finish(out);
  return out;
}

std::optional<double> sum_metric(std::span<const Sample> samples, std::string_view name,
                                 std::optional<LabelMatch> match) {
  const auto sum_of = [&](std::string_view n) -> std::optional<double> {
    std::optional<double> total;
    for (const auto& s : samples) {
      if (s.name != n) continue;
      if (match && s.label(match->key) != match->value) continue;
      total = total.value_or(0) + s.value;
    }
    return total;
  };
  if (auto exact = sum_of(name)) return exact;
  constexpr std::string_view k_total = "_total";
  if (name.ends_with(k_total)) return sum_of(name.substr(0, name.size() - k_total.size()));
  return sum_of(std::string(name) + std::string(k_total));
}

std::vector<Bucket> histogram_buckets(std::span<const Sample> samples, std::string_view name) {
  const std::string bucket_name = std::string(name) + "_bucket";
  std::vector<Bucket> out;
  for (const auto& s : samples) {
    if (s.name != bucket_name) continue;
    const auto le = s.label("le");
    if (!le) return {};
    double edge = std::numeric_limits<double>::infinity();
    if (*le != "+Inf") {
      const auto [end, ec] = std::from_chars(le->data(), le->data() + le->size(), edge);
      if (ec != std::errc{} || end != le->data() + le->size()) return {};
    }
    auto it = std::find_if(out.begin(), out.end(), [&](const Bucket& b) { return b.le == edge; });
    if (it == out.end()) {
      out.push_back({edge, s.value});
    } else {
      it->count += s.value;
    }
  }
  std::sort(out.begin(), out.end(), [](const Bucket& a, const Bucket& b) { return a.le < b.le; });
  return out;
}

}  // namespace servebench::wire
