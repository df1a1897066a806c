#include "servebench/sim/step_lateness.hpp"

#include <algorithm>
#include <cmath>

namespace servebench::sim {

void StepLateness::record(util::Nanos late) {
  const double s = std::max(0.0, util::to_seconds(late));
  std::size_t i = 0;
  while (i < k_edges_s.size() && s > k_edges_s[i]) ++i;
  ++buckets[i];
  ++steps;
  sum_s += s;
  max_s = std::max(max_s, s);
}

std::uint64_t StepLateness::cumulative(std::size_t i) const {
  std::uint64_t n = 0;
  for (std::size_t b = 0; b <= std::min(i, buckets.size() - 1); ++b) n += buckets[b];
  return n;
}

double StepLateness::quantile_upper_s(double q) const {
  if (steps == 0) return 0;
  const auto want = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(steps) - 1e-9));
  for (std::size_t i = 0; i < k_edges_s.size(); ++i) {
    if (cumulative(i) >= want) return std::min(k_edges_s[i], max_s);
  }
  return max_s;
}

}  // namespace servebench::sim
