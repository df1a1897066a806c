#pragma once
// Speculative decoding as the engine sees it: how many draft steps to run at a batch size (fixed, or
// the adaptive policy), and how many tokens a verify pass yields (chain acceptance with per-position
// rates: token i+1 is accepted only if tokens 1..i were; a bonus/correction token always comes).
#include <span>

#include "servebench/sim/deployment.hpp"
#include "servebench/sim/seeded_rng.hpp"

namespace servebench::sim {

// Draft steps for a decode batch of `batch` requests; 0 = plain decode.
int draft_steps(const SpecPlan& spec, int batch);
// Tokens emitted by one verify pass after `steps` drafts: 1 + accepted drafts, drawn from `rng`.
int tokens_per_verify(std::span<const double> accept_rates, int steps, SeededRng& rng);
// Expectation of tokens_per_verify: sum over i = 0..steps of prod_{j<i} p_j ((1-a^(k+1))/(1-a) for one a).
double expected_tokens_per_verify(std::span<const double> accept_rates, int steps);
// The single rate α whose expected tokens per verify at `steps` drafts is `accept_length`
// (bisection; clamped to [0, 1) for lengths outside [1, steps + 1)).
double rate_for_accept_length(double accept_length, int steps);

}  // namespace servebench::sim
