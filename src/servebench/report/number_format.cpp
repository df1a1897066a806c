#include "servebench/report/number_format.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace servebench::report {
namespace {

void append_grouped(std::string& out, std::string_view digits) {
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
}

std::string group_thousands(std::string_view digits) {
  std::string out;
  append_grouped(out, digits);
  return out;
}

constexpr double k_scales[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};

}  // namespace

// Called for every cell of every table: formats into a stack buffer, one allocation per result.
std::string format_fixed(double v, int decimals) {
  if (!std::isfinite(v)) return std::string(k_missing);
  const double scale = decimals >= 0 && decimals < 7 ? k_scales[decimals] : std::pow(10.0, decimals);
  // std::round rounds half away from zero; formatting the rounded value with the same number of
  // decimals then only prints it (no second rounding can move a digit).
  const double rounded = std::round(std::fabs(v) * scale) / scale;
  fmt::memory_buffer text;
  fmt::format_to(std::back_inserter(text), "{:.{}f}", rounded, decimals);
  const std::string_view t(text.data(), text.size());
  const auto dot = t.find('.');
  std::string out;
  out.reserve(t.size() + t.size() / 3 + 1);
  if (v < 0 && rounded != 0) out.push_back('-');
  append_grouped(out, t.substr(0, dot));
  if (dot != std::string_view::npos) out.append(t.substr(dot));
  return out;
}

std::string format_tok_per_s(double v) {
  if (!std::isfinite(v)) return std::string(k_missing);
  // Decide on the rounded value, so 99.96 shows as "100" rather than "100.0".
  const double a = std::fabs(v);
  if (std::round(a * 1000.0) / 1000.0 < 1.0) return format_fixed(v, 3);
  return std::round(a * 10.0) / 10.0 < 100.0 ? format_fixed(v, 1) : format_fixed(v, 0);
}

std::string format_ms(double v) { return format_fixed(v, 1); }

std::string format_ratio(double v) {
  if (!std::isfinite(v)) return std::string(k_missing);
  return format_fixed(v, 2) + "×";
}

std::string format_rate(double v) { return format_fixed(v, 4); }

std::string format_accept(double v) { return format_fixed(v, 2); }

std::string format_count(std::int64_t v) {
  // Unsigned magnitude, so the most negative int64 has one too.
  const auto magnitude = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  return fmt::format("{}{}", v < 0 ? "-" : "", group_thousands(fmt::format("{}", magnitude)));
}

std::string format_req_per_s(double v) {
  if (!std::isfinite(v)) return std::string(k_missing);
  return fmt::format("{:.6g}", v);
}

}  // namespace servebench::report
