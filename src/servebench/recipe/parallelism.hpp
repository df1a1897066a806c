#pragma once
// The parallel layout a launch command asks for, read through the engine's parallelism flags
// (data/recipe_lint.yaml): how many GPUs it needs and how attention and MoE layers are sharded.
#include <cstdint>

#include "servebench/flags/command.hpp"
#include "servebench/recipe/lint_facts.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

struct Parallelism {
  std::int64_t tp = 1, pp = 1, dp = 1, ep = 1, nnodes = 1;
  bool dp_attention = false;
  // TP × PP × DP; with DP-attention the DP ranks share the TP GPUs, so TP × PP.
  std::int64_t gpus() const { return tp * pp * (dp_attention ? 1 : dp); }
  // Ranks one attention layer is split over: TP, or TP / DP with DP-attention (DP divides TP).
  std::int64_t attention_tp() const { return dp_attention && dp > 0 && tp % dp == 0 ? tp / dp : tp; }
  // Ranks one expert is split over: TP / EP (EP divides TP).
  std::int64_t moe_tp() const { return ep > 0 && tp % ep == 0 ? tp / ep : tp; }
};

// Reads the degrees (absent flags: 1); fails (bad_input) naming the flag whose value is not a
// positive integer.
util::Result<Parallelism> parallelism_of(const flags::NormalizedCommand& command, const ParallelismFlags& flags);

}  // namespace servebench::recipe
