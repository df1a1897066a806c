#include "servebench/report/pareto.hpp"

#include <algorithm>
#include <cmath>

namespace servebench::report {

std::vector<ParetoPoint> pareto_frontier(std::span<const ParetoPoint> points) {
  std::vector<ParetoPoint> sorted;
  for (const auto& p : points) {
    if (std::isfinite(p.interactivity) && std::isfinite(p.total_per_gpu)) sorted.push_back(p);
  }
  // Highest interactivity first; at equal interactivity the higher throughput first, so it dominates.
  std::sort(sorted.begin(), sorted.end(), [](const ParetoPoint& a, const ParetoPoint& b) {
    if (a.interactivity != b.interactivity) return a.interactivity > b.interactivity;
    if (a.total_per_gpu != b.total_per_gpu) return a.total_per_gpu > b.total_per_gpu;
    return a.concurrency < b.concurrency;
  });
  // Walking from the most interactive point, a point is on the frontier when it has more
  // throughput than every more-interactive point seen before it.
  std::vector<ParetoPoint> frontier;
  for (const auto& p : sorted) {
    if (frontier.empty() || p.total_per_gpu > frontier.back().total_per_gpu) frontier.push_back(p);
  }
  std::reverse(frontier.begin(), frontier.end());
  return frontier;
}

}  // namespace servebench::report
