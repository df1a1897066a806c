#pragma once
// A deployment = SimConfig resolved against its cards: SGLang defaults filled in, the memory plan
// (weights per GPU, KV bytes per token, KV pool size) computed, and the facts /server_info serves.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "servebench/sim/engine_profile.hpp"
#include "servebench/sim/hardware_card.hpp"
#include "servebench/sim/model_card.hpp"
#include "servebench/sim/sim_config.hpp"

namespace servebench::sim {

struct SpecPlan {
  bool enabled = false;
  int num_steps = 0, topk = 1, num_draft_tokens = 1;
  bool adaptive = false;
  AdaptiveSpecPolicy policy;
  std::vector<double> accept_rates;  // one per draft position (a single alpha is repeated)
  std::string accept_source;         // accept-length | flag | card | default (SimConfig::sim_accept_length)
};

// Everything per GPU (after TP/PP/EP sharding); bytes as doubles because they feed the roofline.
struct MemoryPlan {
  double gpu_memory_bytes = 0, static_budget_bytes = 0;
  double weight_bytes = 0, draft_weight_bytes = 0, reserve_bytes = 0, kv_pool_bytes = 0;
  double kv_dtype_bytes = 2;  // bytes per KV element, scales included (kv_cache_bytes)
  int layers_per_stage = 0;
  double kv_bytes_per_token_layer = 0;     // target KV (GQA heads of this rank, or the replicated MLA latent)
  double index_bytes_per_token_layer = 0;  // DSA indexer keys (FP8)
  double draft_kv_bytes_per_token = 0;     // all draft layers
  double kv_bytes_per_token = 0;           // the pool unit: stage layers x (kv + index) + draft
  std::int64_t max_total_num_tokens = 0;   // the engine's pool: all DP attention ranks together
  std::int64_t rank_pool_tokens = 0;       // one DP attention rank's pool (SGLang's max_total_num_tokens)
  std::int64_t host_pool_tokens = 0;       // 0 without the hierarchical cache
};

struct Deployment {
  SimConfig config;  // as given, except efficiency overrides (folded into `hardware`)
  ModelCard model;
  HardwareCard hardware;
  EngineProfile engine;  // the simulated engine's physics (config.engine)
  ParamBreakdown params;
  MemoryPlan memory;
  SpecPlan spec;
  // Resolved SGLang values (the flag when given, else SGLang's default; docs/sim.md lists each rule).
  double mem_fraction_static = 0;
  int max_running_requests = 0;
  std::int64_t chunked_prefill_size = 0;  // per-batch prefill budget with max_prefill_tokens folded in
  int cuda_graph_max_bs = 0;
  bool overlap_scheduler = false;  // the engine's overlap scheduler, unless --disable-overlap-schedule
  bool mixed_chunk = false;  // prefill chunks carry decodes: --enable-mixed-chunk, or an engine that always mixes
  std::int64_t context_length = 0;
  std::int64_t max_req_input_len = 0;
  // DP attention: attention groups (1 without it) and the TP size of one group (tp without it).
  int attention_dp() const { return config.enable_dp_attention ? config.dp_size : 1; }
  int attention_tp() const { return config.tp_size / attention_dp(); }
  // DP attention groups share the tp ranks; replicas (not modelled) would multiply them.
  int gpus() const { return config.tp_size * config.pp_size * (config.enable_dp_attention ? 1 : config.dp_size); }
};

// Validates `config`, loads its cards and resolves everything; fails (bad_input) naming the flag or
// card at fault, e.g. when the weights do not fit in the memory fraction.
util::Result<Deployment> make_deployment(const SimConfig& config);
// Same with cards already loaded (tests, user-supplied cards); the engine profile is loaded by name.
util::Result<Deployment> make_deployment(const SimConfig& config, ModelCard model, HardwareCard hardware);

using FactValue = std::variant<std::nullptr_t, bool, std::int64_t, double, std::string>;
struct Fact {
  std::string key;
  FactValue value;
};
// server_args: SGLang /server_info keys in SGLang's spelling; sim: hardware, model, perf-model inputs.
struct ServerFacts {
  std::vector<Fact> server_args;
  std::vector<Fact> sim;
};
ServerFacts describe(const Deployment& d);

}  // namespace servebench::sim
