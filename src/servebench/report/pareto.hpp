#pragma once
// The throughput-per-GPU vs interactivity Pareto frontier (InferenceX's chart): per arm, the points
// no other point of the same arm beats on both axes.
#include <cstdint>
#include <span>
#include <vector>

namespace servebench::report {

struct ParetoPoint {
  double interactivity = 0;      // x: tok/s/user = 1000 / TPOT ms
  double total_per_gpu = 0;      // y: total tok/s per GPU
  std::int64_t concurrency = 0;  // label only
};

// The non-dominated points (no other point has x ≥ and y ≥ with one strictly greater), sorted by
// interactivity ascending (so throughput descends along the frontier). Points with a non-finite
// coordinate are ignored; of exact duplicates one is kept.
std::vector<ParetoPoint> pareto_frontier(std::span<const ParetoPoint> points);

}  // namespace servebench::report
