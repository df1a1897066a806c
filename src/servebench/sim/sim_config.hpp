#pragma once
// The simulator's launch configuration: every SGLang flag serve-sim accepts (values spelled as SGLang
// spells them) plus sim-only knobs. A plain struct; validate() checks ranges without loading cards.
// Unset optionals mean "SGLang derives it" and are resolved by make_deployment (deployment.hpp).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/sim/disaggregation.hpp"
#include "servebench/util/result.hpp"

namespace servebench::sim {

// SGLang's --kv-cache-dtype choices. Bytes per element (kv_cache_bytes): bf16 2; fp8 1; mxfp8 1 + one
// E8M0 scale per 32 = 1.03125; nvfp4 0.5 + one FP8 scale per 16 = 0.5625; fp4_e2m1 (MX, block 32)
// 0.5 + 1/32 = 0.53125; fp4_mx_block16 0.5 + 1/16 = 0.5625 (OCP MX spec and NVIDIA NVFP4 layout).
enum class KvCacheDtype { auto_dtype, bf16, fp8_e4m3, fp8_e5m2, mxfp8, nvfp4, fp4_e2m1, fp4_mx_block16 };
enum class SpecAlgorithm { none, eagle, eagle3, nextn };
// SGLang's --moe-a2a-backend choices the simulator models: none (EP combines with the TP all-reduce)
// and deepep (dispatch / combine all-to-all, docs/sim.md "Collectives").
enum class MoeA2aBackend { none, deepep };

std::string_view to_string(KvCacheDtype d);  // SGLang's spelling ("auto", "bf16", "fp8_e4m3", ...)
util::Result<KvCacheDtype> parse_kv_cache_dtype(std::string_view s);  // also accepts "bfloat16"
// Bytes per cached element, scales included; `auto` is the model's BF16 activations (2).
double kv_cache_bytes(KvCacheDtype d);
std::string_view to_string(MoeA2aBackend b);  // "none" | "deepep"
// Fails (bad_input) for SGLang's other backends, naming the flag and the modelled ones.
util::Result<MoeA2aBackend> parse_moe_a2a_backend(std::string_view s);
std::string_view to_string(SpecAlgorithm a);  // "" for none, else "EAGLE" | "EAGLE3" | "NEXTN"
util::Result<SpecAlgorithm> parse_spec_algorithm(std::string_view s);

// Adaptive drafting (the brief's policy): steps capped at cap_steps from cap_from_batch running
// requests, drafting off from off_from_batch.
struct AdaptiveSpecPolicy {
  int cap_from_batch = 8;
  int cap_steps = 3;
  int off_from_batch = 64;
};

// Overrides of the hardware card's efficiency factors (hardware_card.hpp); unset = card default.
struct EfficiencyOverrides {
  std::optional<double> bandwidth, mfu, link;
  std::optional<std::chrono::nanoseconds> step_overhead, eager_layer, per_sequence, per_request;
  std::optional<double> routing_skew;  // the model card's mlp.routing_skew
};

struct SimConfig {
  // sim-only: which cards, and which engine's physics (data/engines/<engine>.yaml)
  std::string hardware = "h200";
  std::string model = "llama-3.1-8b";
  std::string engine = "sglang";
  // The served checkpoint's weight format when it is not the model card's (a weight_format name:
  // bf16, fp8, nvfp4, ...; empty = the card's), e.g. a BF16 or NVFP4 checkpoint of an FP8 card.
  std::string weight_dtype;
  // SGLang's --quantization method. One that quantizes to a known format (fp8, w8a8_int8, modelopt_fp4,
  // awq, ...) sets the weight format when --sim-weight-dtype does not; one that reads the format from
  // the checkpoint (compressed-tensors, modelopt, ...) leaves the card's (quantization_weight_format).
  std::string quantization;
  // SGLang flags
  int tp_size = 1, pp_size = 1, ep_size = 1, dp_size = 1;
  // Decode context parallelism (--dcp-size): the ranks of a TP group that hold copies of the same KV
  // (MLA's one latent head, GQA heads replicated when kv_heads < tp) hold 1/dcp of every request's
  // tokens instead; attention combines the partial results (docs/sim.md "Decode context parallelism").
  int dcp_size = 1;
  // DP attention (--enable-dp-attention with --dp-size D): attention runs data-parallel in D groups of
  // tp / D ranks, each with its own requests and KV pool; the MLP/MoE stays tensor/expert parallel over
  // all tp ranks. The GPUs are tp x pp (docs/sim.md "DP attention"). --dp-size > 1 without it (whole
  // replicas behind a router) is not modelled.
  bool enable_dp_attention = false;
  // Multi-node (--nnodes, --node-rank, --dist-init-addr): the GPUs split evenly over the nodes, and
  // a collective whose group spans nodes runs at the card's inter-node bandwidth. Rank 0 serves;
  // the other ranks only join (serve-sim prints one line and waits to be stopped).
  int nnodes = 1, node_rank = 0;
  std::string dist_init_addr;
  std::optional<double> mem_fraction_static;
  std::optional<int> max_running_requests;
  std::optional<int> chunked_prefill_size;  // -1 disables chunking (SGLang)
  int max_prefill_tokens = 16384;
  bool disable_radix_cache = false;
  KvCacheDtype kv_cache_dtype = KvCacheDtype::auto_dtype;
  std::optional<std::int64_t> context_length;
  std::optional<int> cuda_graph_max_bs;
  // SGLang's decode-only limit (set beside prefill CUDA graphs, --cuda-graph-backend-prefill): it wins
  // over --cuda-graph-max-bs for decode batches, the only ones the simulator replays as graphs.
  std::optional<int> cuda_graph_max_bs_decode;
  bool disable_cuda_graph = false;
  bool enable_mixed_chunk = false;
  bool disable_overlap_schedule = false;  // SGLang: the scheduler's CPU work no longer hides behind the GPU step
  // Communication overlap (docs/sim.md "Collectives"): two micro-batches whose communication hides
  // behind each other's compute, and the MoE dispatch / combine backend.
  bool enable_two_batch_overlap = false;
  MoeA2aBackend moe_a2a_backend = MoeA2aBackend::none;
  SpecAlgorithm speculative_algorithm = SpecAlgorithm::none;
  std::optional<int> speculative_num_steps, speculative_eagle_topk, speculative_num_draft_tokens;
  bool speculative_adaptive = false;
  AdaptiveSpecPolicy adaptive;
  bool enable_hierarchical_cache = false;
  double hicache_ratio = 2.0;
  double hicache_size_gb = 0;  // 0: size the host tier by hicache_ratio
  int page_size = 1;
  std::optional<std::int64_t> max_total_tokens;
  // Prefill/decode disaggregation (--disaggregation-*): a prefill server answers at most one token, a
  // decode server receives every prompt's KV over the modelled link (docs/sim.md "Disaggregation").
  DisaggregationConfig disaggregation;
  // sim-only behaviour
  // Draft acceptance, most specific first: the accept length (tokens per verify, solved for one α at
  // the configured steps), else these rates (one α, or one rate per draft position), else the model
  // card's draft.accept_rates, else 0.7 (docs/sim.md "Speculative decoding").
  std::optional<double> sim_accept_length;
  std::vector<double> sim_accept_rates;
  std::uint64_t sim_seed = 0;
  bool flush_keeps_host_tier = false;  // reproduces builds whose flush left the host tier intact
  double sim_eos_probability = 1.0 / 512;  // per-token stop chance after min_tokens when ignore_eos is off
  double init_new_token_ratio = 0.7;       // SGLang's decode-headroom reservation at admission (0 = none)
  EfficiencyOverrides efficiency;
};

// Range and combination checks that need no card (bad_input, message names the flag).
util::Result<void> validate(const SimConfig& c);

}  // namespace servebench::sim
