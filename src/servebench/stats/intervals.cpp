#include "servebench/stats/intervals.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace servebench::stats {
namespace {

double sorted_median(std::vector<double>& v) {
  const std::size_t n = v.size();
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (n % 2 == 1) return *mid;
  const double upper = *mid;
  const double lower = *std::max_element(v.begin(), mid);
  return (lower + upper) / 2.0;
}

// Nearest-rank quantile of sorted values.
double quantile(const std::vector<double>& sorted, double q) {
  const auto n = static_cast<double>(sorted.size());
  const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(q * n)));
  return sorted[std::min(rank, sorted.size()) - 1];
}

}  // namespace

double median_of(std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> v(values.begin(), values.end());
  return sorted_median(v);
}

Interval bootstrap_median(std::span<const double> values, double confidence, std::uint64_t seed, int resamples) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (values.empty()) return {nan, nan};
  if (values.size() == 1) return {values[0], values[0]};
  std::mt19937_64 rng(seed);
  const std::uint64_t n = values.size();
  std::vector<double> medians, sample(values.size());
  medians.reserve(static_cast<std::size_t>(std::max(resamples, 1)));
  for (int b = 0; b < std::max(resamples, 1); ++b) {
    // rng() % n: a tiny modulo bias, but the same draw on every standard library (distributions are not).
    for (auto& x : sample) x = values[static_cast<std::size_t>(rng() % n)];
    medians.push_back(sorted_median(sample));
  }
  std::sort(medians.begin(), medians.end());
  const double tail = (1.0 - confidence) / 2.0;
  return {quantile(medians, tail), quantile(medians, 1.0 - tail)};
}

Interval wilson(std::int64_t successes, std::int64_t trials, double z) {
  if (trials <= 0) return {0.0, 1.0};
  const auto n = static_cast<double>(trials);
  const double p = static_cast<double>(successes) / n;
  const double z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

}  // namespace servebench::stats
