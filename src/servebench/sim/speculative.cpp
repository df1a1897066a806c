#include "servebench/sim/speculative.hpp"

#include <algorithm>

namespace servebench::sim {

int draft_steps(const SpecPlan& spec, int batch) {
  if (!spec.enabled) return 0;
  if (!spec.adaptive) return spec.num_steps;
  if (batch >= spec.policy.off_from_batch) return 0;
  if (batch >= spec.policy.cap_from_batch) return std::min(spec.num_steps, spec.policy.cap_steps);
  return spec.num_steps;
}

int tokens_per_verify(std::span<const double> accept_rates, int steps, SeededRng& rng) {
  int tokens = 1;
  for (int i = 0; i < steps; ++i) {
    const double p = accept_rates.empty() ? 0.0 : accept_rates[std::min<std::size_t>(i, accept_rates.size() - 1)];
    if (rng.uniform() >= p) break;
    ++tokens;
  }
  return tokens;
}

double expected_tokens_per_verify(std::span<const double> accept_rates, int steps) {
  double total = 1, survive = 1;
  for (int i = 0; i < steps; ++i) {
    survive *= accept_rates.empty() ? 0.0 : accept_rates[std::min<std::size_t>(i, accept_rates.size() - 1)];
    total += survive;
  }
  return total;
}

double rate_for_accept_length(double accept_length, int steps) {
  double lo = 0, hi = 0.99999;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    const double rates[] = {mid};
    (expected_tokens_per_verify(rates, steps) < accept_length ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

}  // namespace servebench::sim
