#pragma once
// Confidence intervals the report and the quality gate state next to a number: a seeded
// percentile-bootstrap interval of the median (repeats of a point) and the Wilson score interval
// of a proportion (gate accuracy). Both are deterministic: the same input gives the same interval
// on every machine (the bootstrap draws from std::mt19937_64, whose output the standard fixes).
#include <cstdint>
#include <span>

namespace servebench::stats {

struct Interval {
  double low = 0, high = 0;
  // True when the intervals share no value (a difference is then called, else "within noise").
  bool separated_from(const Interval& other) const { return high < other.low || other.high < low; }
};

inline constexpr std::uint64_t k_bootstrap_seed = 20261203;
inline constexpr int k_bootstrap_resamples = 2000;

// Median of `values` (mean of the middle two for an even count); NaN when empty.
double median_of(std::span<const double> values);

// The `confidence` (e.g. 0.95) percentile-bootstrap interval of the median: `resamples` resamples
// with replacement, each one's median, and the (1-confidence)/2 and (1+confidence)/2 quantiles of
// those (nearest rank). One value gives [v, v]; none gives [NaN, NaN].
Interval bootstrap_median(std::span<const double> values, double confidence = 0.95,
                          std::uint64_t seed = k_bootstrap_seed, int resamples = k_bootstrap_resamples);

// Wilson score interval of `successes` out of `trials` at z (1.96: 95 %); [0, 1] when trials is 0.
Interval wilson(std::int64_t successes, std::int64_t trials, double z = 1.959963984540054);

}  // namespace servebench::stats
