#pragma once
// Exact summaries of a sample: mean, population std, min/max and percentiles.
// Percentile method is explicit: nearest rank (rank = ceil(p/100 * n), the default, matching
// the brief's baseline report) or linear interpolation (numpy's default, for parity with peers).
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::stats {

enum class PercentileMethod { nearest_rank, linear };

std::string_view to_string(PercentileMethod m);
util::Result<PercentileMethod> parse_percentile_method(std::string_view s);

// p in [0, 100] over an ascending `sorted` sample; NaN when empty.
// nearest_rank: the value at 1-based rank max(1, ceil(p/100 * n)).
// linear: numpy.percentile default, position (n-1) * p/100 interpolated.
double percentile_sorted(std::span<const double> sorted, double p, PercentileMethod method);

// {50, 90, 95, 99}.
std::span<const double> default_percentiles();

struct Summary {
  std::size_t count = 0;
  double mean = 0, median = 0, std = 0, min = 0, max = 0;  // std: population (ddof = 0, numpy's default)
  std::vector<double> percentile_points;  // the p values requested, e.g. {90, 95, 99}
  std::vector<double> percentile_values;  // same order
  // Value for a requested p; NaN when p was not requested.
  double at(double p) const;
};

// Summarises `values` (copied and sorted). median uses the same method as the percentiles.
// An empty sample gives count 0 and NaN statistics.
Summary summarize(std::span<const double> values, PercentileMethod method,
                  std::span<const double> percentiles = default_percentiles());

}  // namespace servebench::stats
