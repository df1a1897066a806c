#pragma once
// Engine profiles (data/engines/<name>.yaml): what the simulated engine changes in the physics —
// which CPU work hides behind the GPU and what it costs, whether prefill chunks mix with decodes,
// CUDA-graph and prefill-batch defaults, and which collectives and overlaps the engine has
// (docs/sim.md "Engine profiles"). The HTTP dialect stays SGLang's whatever the profile.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::sim {

enum class MixedPrefill { with_flag, always };  // --enable-mixed-chunk decides, or the engine always mixes

struct EngineProfile {
  std::string name = "sglang", label = "SGLang";
  // CPU work of step n+1 runs while the GPU runs step n: it costs time only where it exceeds the GPU's.
  bool overlap_scheduler = true;
  std::chrono::nanoseconds cpu_step{0}, cpu_sequence{0}, cpu_request{0};  // per iteration / running sequence / admitted request
  MixedPrefill mixed_prefill = MixedPrefill::with_flag;
  // Default of --cuda-graph-max-bs by the GPU's memory and the TP size: cuda_graph_bs[i] below
  // cuda_graph_below_gib[i] GiB with fewer than 4 TP ranks, cuda_graph_bs_tp4[i] from 4 ranks on (the
  // last entries at or above the last threshold).
  std::vector<std::int64_t> cuda_graph_bs{160}, cuda_graph_bs_tp4{160};
  std::vector<double> cuda_graph_below_gib;
  // Default of --chunked-prefill-size by the GPU's memory: prefill_budget_tokens[i] below
  // prefill_budget_below_gib[i] GiB, the last entry at or above the last threshold (one more budget
  // than thresholds; no thresholds: one budget for every GPU).
  std::vector<std::int64_t> prefill_budget_tokens{8192};
  std::vector<double> prefill_budget_below_gib;
  // Default of --max-running-requests by the GPU's memory, as the same kind of ladder (vLLM's
  // max_num_seqs); empty: SGLang's rule from the KV pool (deployment.cpp).
  std::vector<std::int64_t> running_cap;
  std::vector<double> running_cap_below_gib;
  // With speculative decoding and --max-running-requests unset, the engine's own cap on running
  // requests (all DP ranks together; SGLang: 48); 0 = none.
  int speculative_running_cap = 0;
  bool custom_all_reduce = true;           // one-shot / two-shot all-reduce over NVLink for small messages
  bool tensor_parallel = true;             // false: layers split across GPUs, --tp-size must be 1
  bool speculative = true;                 // EAGLE / MTP drafting modelled for this engine
  double two_batch_overlap = 0;            // communication fraction hidden with --enable-two-batch-overlap; 0 = none

  // The default prefill budget on a GPU with `gpu_gib` GiB of memory (as the engine reads it).
  std::int64_t prefill_budget(double gpu_gib) const;
  // The default largest CUDA-graph decode batch on such a GPU with `tp` tensor-parallel ranks.
  int cuda_graph_max_bs(double gpu_gib, int tp) const;
  // The default running-request cap per scheduler on such a GPU, when the profile sets one.
  std::optional<int> default_running_cap(double gpu_gib) const;
};

// Parses one profile; errors name the file, line and key (bad_input).
util::Result<EngineProfile> parse_engine_profile(const std::string& yaml_text, const std::string& file);
// Loads data/engines/<name>.yaml ($SERVEBENCH_DATA_DIR first); an unknown name lists the known ones.
util::Result<EngineProfile> load_engine_profile(const std::string& name);
std::vector<std::string> engine_profile_names();

}  // namespace servebench::sim
