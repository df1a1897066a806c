#pragma once
// One rounding rule per unit, so every table, chart label and verdict shows the same digits for
// the same number (docs/report.md "Rounding"). Rounding is half away from zero at the shown
// precision; thousands are separated with ","; NaN / infinity / absent is shown as k_missing.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace servebench::report {

inline constexpr std::string_view k_missing = "—";

// Tokens per second (also tok/s per GPU and tok/s/user): 3 decimals under 1, 1 decimal under 100,
// else an integer (0.022, 49.6, 8,976).
std::string format_tok_per_s(double v);
// Milliseconds: 1 decimal ("1,459.6").
std::string format_ms(double v);
// Ratio between two numbers: 2 decimals and "×" ("2.95×").
std::string format_ratio(double v);
// Rates and fractions (cache hit rate): 4 decimals ("0.0012").
std::string format_rate(double v);
// Speculative accept length (tokens per step): 2 decimals.
std::string format_accept(double v);
// Request rates (req/s, an open-loop load): up to 6 significant digits, trailing zeros dropped
// ("13.5", "23.5602"), so a bisected rate reads as a number, not as its binary expansion.
std::string format_req_per_s(double v);
// Integer counts (tokens, requests, concurrency): thousands separators ("1,048,576").
std::string format_count(std::int64_t v);
// The building block: `decimals` digits after the point, thousands separators, half away from zero.
std::string format_fixed(double v, int decimals);

// Applies `format` to an optional value, k_missing when absent.
template <class F>
std::string format_optional(const std::optional<double>& v, F format) {
  return v ? format(*v) : std::string(k_missing);
}

}  // namespace servebench::report
