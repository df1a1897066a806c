#pragma once
// How late the engine loop ran against its absolute schedule. Each step is due at origin + its
// virtual end × time scale; its lateness is the real time its chunks were handed to the streams
// minus that due time (0 when on time). A loop that runs late delays every stream's tokens by
// the same amount, which no client can tell from server time, so the load generator's health
// gate reads this from /metrics (a Prometheus histogram, window deltas) and fails such a run.
// Recorded only with a time scale > 0 (at 0 nothing is scheduled). Fixed edges, no allocation.
#include <array>
#include <cstddef>
#include <cstdint>

#include "servebench/util/clock.hpp"

namespace servebench::sim {

struct StepLateness {
  // Bucket upper edges in seconds (the histogram's `le` labels); a last bucket holds the rest.
  static constexpr std::array<double, 14> k_edges_s = {25e-6, 50e-6, 100e-6, 250e-6, 500e-6, 1e-3,  2.5e-3,
                                                       5e-3,  10e-3, 25e-3,  50e-3,  100e-3, 250e-3, 1.0};
  std::array<std::uint64_t, k_edges_s.size() + 1> buckets{};  // per bucket, not cumulative
  std::uint64_t steps = 0;
  double sum_s = 0, max_s = 0;

  void record(util::Nanos late);
  // Steps with lateness ≤ k_edges_s[i] (i < size), or all steps.
  std::uint64_t cumulative(std::size_t i) const;
  // The smallest edge at or below which a fraction q of the steps lies (an upper bound of the
  // q-quantile); max_s when that is beyond the last edge; 0 without steps.
  double quantile_upper_s(double q) const;
};

}  // namespace servebench::sim
