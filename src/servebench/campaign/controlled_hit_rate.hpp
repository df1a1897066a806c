#pragma once
// The `controlled-hit-rate` scenario kind (docs/campaign-file.md): prompts of exactly `isl` tokens
// built so a prefix cache that starts flushed reaches a chosen hit rate h over the point's counter
// window. Every measured prompt starts with one shared prefix of L tokens and continues with tokens
// of its own; the first warmup prompt carries the same prefix, so the prefix is cached before the
// measured requests start (the warmup phase ends before they are sent), and every measured prompt
// then hits exactly L tokens whatever the concurrency. Over N measured and W warmup prompts (the
// warmup ones count as misses, the window opens at the flush):
//   rate = N·L / ((N + W)·isl),  L = round(h · (N + W) · isl / N),  1 ≤ L ≤ isl − 1 (h > 0).
#include <cstdint>

#include "servebench/campaign/prompt_source.hpp"
#include "servebench/load/vocabulary.hpp"
#include "servebench/util/result.hpp"

namespace servebench::campaign {

struct ControlledPlan {
  std::int64_t prefix_len = 0;  // L; 0 for h = 0 (nothing shared)
  double expected = 0;          // the rate the rounded L gives, within (N+W)/(2·N·isl) of h
};

// Fails (bad_input, saying what to change) when h > 0 without a warmup prompt to carry the prefix,
// or when h is above what isl, N and W allow (L would reach isl).
util::Result<ControlledPlan> plan_controlled(double h, std::int64_t isl, std::int64_t measured, std::int64_t warmup);

// The prompts of one attempt: measured prompts behind the shared prefix, the prefix's primer as
// the first warmup prompt, the other warmup prompts sharing nothing.
util::Result<PointPrompts> take_controlled(const ScenarioSpec& s, const PromptRequest& r, std::uint64_t seed,
                                           const load::Vocabulary& vocab);

}  // namespace servebench::campaign
