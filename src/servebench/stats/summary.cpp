#include "servebench/stats/summary.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace servebench::stats {

std::string_view to_string(PercentileMethod m) {
  return m == PercentileMethod::nearest_rank ? "nearest-rank" : "linear";
}

util::Result<PercentileMethod> parse_percentile_method(std::string_view s) {
  if (s == "nearest-rank" || s == "nearest_rank") return PercentileMethod::nearest_rank;
  if (s == "linear") return PercentileMethod::linear;
  return util::failf(util::ErrorKind::bad_input, "unknown percentile method '{}'; use nearest-rank or linear", s);
}

std::span<const double> default_percentiles() {
  static constexpr std::array<double, 4> k_default{50, 90, 95, 99};
  return k_default;
}

double percentile_sorted(std::span<const double> sorted, double p, PercentileMethod method) {
  const std::size_t n = sorted.size();
  if (n == 0) return std::numeric_limits<double>::quiet_NaN();
  p = std::clamp(p, 0.0, 100.0);
  if (method == PercentileMethod::nearest_rank) {
    // ceil on p*n/100 computed in a way that keeps exact products exact (p=95, n=20 -> rank 19).
    const double exact = p * static_cast<double>(n) / 100.0;
    auto rank = static_cast<std::size_t>(std::ceil(exact - 1e-9));
    rank = std::clamp<std::size_t>(rank, 1, n);
    return sorted[rank - 1];
  }
  const double pos = (static_cast<double>(n) - 1.0) * p / 100.0;
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, n - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

double Summary::at(double p) const {
  for (std::size_t i = 0; i < percentile_points.size(); ++i) {
    if (percentile_points[i] == p) return percentile_values[i];
  }
  return std::numeric_limits<double>::quiet_NaN();
}

Summary summarize(std::span<const double> values, PercentileMethod method, std::span<const double> percentiles) {
  Summary s;
  s.count = values.size();
  s.percentile_points.assign(percentiles.begin(), percentiles.end());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (values.empty()) {
    s.mean = s.median = s.std = s.min = s.max = nan;
    s.percentile_values.assign(percentiles.size(), nan);
    return s;
  }
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (double v : sorted) sum += v;
  s.mean = sum / static_cast<double>(sorted.size());
  double sq = 0;
  for (double v : sorted) sq += (v - s.mean) * (v - s.mean);
  s.std = std::sqrt(sq / static_cast<double>(sorted.size()));
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = percentile_sorted(sorted, 50, method);
  for (double p : percentiles) s.percentile_values.push_back(percentile_sorted(sorted, p, method));
  return s;
}

}  // namespace servebench::stats
