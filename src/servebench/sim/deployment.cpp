#include "servebench/sim/deployment.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "servebench/sim/speculative.hpp"

namespace servebench::sim {
namespace {

constexpr double k_gib = 1024.0 * 1024.0 * 1024.0;

// SGLang 0.4/0.5 ServerArgs default when --mem-fraction-static is not given (by TP size).
double default_mem_fraction(int tp) {
  if (tp >= 16) return 0.79;
  if (tp >= 8) return 0.81;
  if (tp >= 4) return 0.85;
  if (tp >= 2) return 0.87;
  return 0.88;
}


constexpr double k_default_accept_rate = 0.7;  // no accept length, rates or card rates given

util::Result<SpecPlan> resolve_spec(const SimConfig& c, const ModelCard& m) {
  SpecPlan s;
  if (c.speculative_algorithm == SpecAlgorithm::none) return s;
  s.enabled = true;
  // SGLang picks 3/1/4 when the algorithm is given without a shape.
  s.num_steps = c.speculative_num_steps.value_or(3);
  s.topk = c.speculative_eagle_topk.value_or(1);
  s.num_draft_tokens = c.speculative_num_draft_tokens.value_or(s.num_steps + 1);
  if (s.topk == 1) s.num_draft_tokens = s.num_steps + 1;  // SGLang forces a chain of steps + 1
  s.adaptive = c.speculative_adaptive;
  s.policy = c.adaptive;
  const int depth = std::max(s.num_steps, 1);
  std::vector<double> rates{k_default_accept_rate};
  s.accept_source = "default";
  if (c.sim_accept_length) {
    if (*c.sim_accept_length >= s.num_steps + 1.0) {
      return util::failf(util::ErrorKind::bad_input, "--sim-accept-length {} needs fewer than {} tokens per verify "
                         "(--speculative-num-steps {} + the bonus token)", *c.sim_accept_length, s.num_steps + 1, s.num_steps);
    }
    rates = {rate_for_accept_length(*c.sim_accept_length, s.num_steps)};
    s.accept_source = "accept-length";
  } else if (!c.sim_accept_rates.empty()) {
    rates = c.sim_accept_rates;
    s.accept_source = "flag";
  } else if (m.draft && !m.draft->accept_rates.empty()) {
    rates = m.draft->accept_rates;
    s.accept_source = "card";
  }
  for (int i = 0; i < depth; ++i) s.accept_rates.push_back(rates[std::min<std::size_t>(i, rates.size() - 1)]);
  return s;
}

void apply_overrides(Efficiency& e, const EfficiencyOverrides& o) {
  if (o.bandwidth) e.bandwidth = *o.bandwidth;
  if (o.mfu) e.mfu = *o.mfu;
  if (o.link) e.link = *o.link;
  if (o.step_overhead) e.step_overhead = *o.step_overhead;
  if (o.eager_layer) e.eager_layer = *o.eager_layer;
  if (o.per_sequence) e.per_sequence = *o.per_sequence;
  if (o.per_request) e.per_request = *o.per_request;
}

double weight_bytes_per_gpu(const Deployment& d, int layers_per_stage) {
  const auto& p = d.params;
  const auto& m = d.model;
  const int tp = d.config.tp_size, pp = d.config.pp_size;
  const double stage = static_cast<double>(layers_per_stage) / m.layers;
  // DP attention shards attention over its group's attention_tp ranks only; the MLP over all tp.
  const double attention = p.attention_sharded * m.layers * m.weight_dtype_bytes / d.attention_tp();
  const double mlp = (p.dense_mlp * p.dense_layers + p.expert * (p.experts + p.shared_experts) * p.moe_layers) *
                     m.weight_dtype_bytes / tp;
  const double replicated = p.attention_replicated * m.layers * m.replicated_dtype_bytes;
  // PP: the first stage holds the embedding, the last the LM head; count the larger on every stage.
  const double vocab = (pp == 1 ? p.embedding + p.lm_head : std::max(p.embedding, p.lm_head)) * m.embedding_dtype_bytes;
  return stage * (attention + mlp + replicated) + vocab / tp;
}

double draft_kv_bytes(const Deployment& d, double target_per_layer) {
  if (!d.spec.enabled || !d.model.draft) return 0;
  const auto& dr = *d.model.draft;
  if (dr.kind == DraftKind::mtp) return dr.layers * target_per_layer;
  const double heads = std::ceil(static_cast<double>(dr.kv_heads) / d.config.tp_size);
  return dr.layers * 2.0 * heads * dr.head_dim * d.memory.kv_dtype_bytes;
}

util::Result<void> plan_memory(Deployment& d) {
  auto& mem = d.memory;
  const auto& m = d.model;
  const int tp = d.config.tp_size;
  mem.kv_dtype_bytes = kv_cache_bytes(d.config.kv_cache_dtype);
  mem.layers_per_stage = (m.layers + d.config.pp_size - 1) / d.config.pp_size;
  mem.gpu_memory_bytes = d.hardware.memory_bytes();
  mem.static_budget_bytes = mem.gpu_memory_bytes * d.mem_fraction_static;
  mem.weight_bytes = weight_bytes_per_gpu(d, mem.layers_per_stage);
  if (d.spec.enabled && m.draft) {
    const double draft_dtype = m.draft->kind == DraftKind::mtp ? m.weight_dtype_bytes : 2.0;
    mem.draft_weight_bytes = m.draft->params_b * 1e9 * draft_dtype / tp;
  }
  mem.reserve_bytes = d.hardware.efficiency.runtime_reserve_gib * k_gib;
  // DCP: the ranks that hold copies of the same KV split its tokens instead (check_cards: dcp divides
  // the copies), so every per-token KV byte of the target model is divided by dcp.
  const double dcp = d.config.dcp_size;
  if (m.attention.kind == AttentionKind::mla) {
    mem.kv_bytes_per_token_layer = kv_elements_per_token_layer(m) * mem.kv_dtype_bytes / dcp;  // replicated across TP
  } else {
    const double heads = std::ceil(static_cast<double>(m.attention.kv_heads) / d.attention_tp());  // < 1 head per rank replicates
    mem.kv_bytes_per_token_layer = 2.0 * heads * m.attention.head_dim * mem.kv_dtype_bytes / dcp;
  }
  mem.index_bytes_per_token_layer = index_key_elements_per_token_layer(m) / dcp;  // FP8 keys
  const double per_layer = mem.kv_bytes_per_token_layer + mem.index_bytes_per_token_layer;
  mem.draft_kv_bytes_per_token = draft_kv_bytes(d, per_layer);
  mem.kv_bytes_per_token = mem.layers_per_stage * per_layer + mem.draft_kv_bytes_per_token;
  mem.kv_pool_bytes = mem.static_budget_bytes - mem.weight_bytes - mem.draft_weight_bytes - mem.reserve_bytes;
  if (mem.kv_pool_bytes <= 0) {
    return util::failf(util::ErrorKind::bad_input,
                       "{} on {} with tp {} pp {}: weights need {:.1f} GB per GPU (model card params.total_b {} at "
                       "weight_dtype_bytes {}) but --mem-fraction-static {} of the card's {:.1f} GB (usable_gib) "
                       "leaves {:.1f} GB after runtime_reserve_gib {}",
                       m.name, d.hardware.name, tp, d.config.pp_size, (mem.weight_bytes + mem.draft_weight_bytes) / 1e9,
                       m.params_total_b, m.weight_dtype_bytes, d.mem_fraction_static, mem.gpu_memory_bytes / 1e9,
                       (mem.static_budget_bytes - mem.reserve_bytes) / 1e9, d.hardware.efficiency.runtime_reserve_gib);
  }
  auto tokens = static_cast<std::int64_t>(mem.kv_pool_bytes / mem.kv_bytes_per_token);
  if (d.config.max_total_tokens) tokens = std::min(tokens, *d.config.max_total_tokens);
  tokens -= tokens % d.config.page_size;
  mem.rank_pool_tokens = tokens;
  mem.max_total_num_tokens = tokens * d.attention_dp();  // each DP attention rank holds its own requests' KV
  if (d.config.enable_hierarchical_cache && !d.config.disable_radix_cache) {
    mem.host_pool_tokens = d.attention_dp() *  // one host tier per DP attention rank
                           (d.config.hicache_size_gb > 0
                                ? static_cast<std::int64_t>(d.config.hicache_size_gb * 1e9 / mem.kv_bytes_per_token)
                                : static_cast<std::int64_t>(d.config.hicache_ratio * static_cast<double>(tokens)));
  }
  if (tokens < 2 * d.config.page_size) {
    return util::failf(util::ErrorKind::bad_input,
                       "KV pool of {} tokens is too small: {:.2f} GB left for KV at {:.0f} bytes per token (model card "
                       "layers x KV dims, --kv-cache-dtype {})", tokens, mem.kv_pool_bytes / 1e9, mem.kv_bytes_per_token,
                       to_string(d.config.kv_cache_dtype));
  }
  return {};
}

// What the engine profile cannot represent (docs/sim.md "Engine profiles"): each error names the flag
// and the profile field.
util::Result<void> check_engine(const Deployment& d) {
  const auto& c = d.config;
  const auto& e = d.engine;
  if (!e.tensor_parallel && c.tp_size > 1) {
    return util::failf(util::ErrorKind::bad_input,
                       "--tp-size {} with --sim-engine {}: {} splits layers across GPUs, not tensors (engine profile "
                       "tensor_parallel false); use --pp-size for a layer split", c.tp_size, e.name, e.label);
  }
  if (d.spec.enabled && !e.speculative) {
    return util::failf(util::ErrorKind::bad_input, "--speculative-algorithm with --sim-engine {}: drafting is not "
                       "modelled for {} (engine profile speculative false)", e.name, e.label);
  }
  if (c.enable_two_batch_overlap && e.two_batch_overlap <= 0) {
    return util::failf(util::ErrorKind::bad_input, "--enable-two-batch-overlap with --sim-engine {}: {} has no "
                       "two-batch overlap (engine profile two_batch_overlap 0)", e.name, e.label);
  }
  if (c.moe_a2a_backend != MoeA2aBackend::none && !d.model.mlp.is_moe()) {
    return util::failf(util::ErrorKind::bad_input, "--moe-a2a-backend {} needs a MoE model; '{}' is dense (model card "
                       "mlp.experts is 0)", to_string(c.moe_a2a_backend), d.model.name);
  }
  return {};
}

util::Result<void> check_cards(const Deployment& d) {
  const auto& c = d.config;
  if (d.spec.enabled && !d.model.draft)
    return util::failf(util::ErrorKind::bad_input, "model '{}' has no draft card for --speculative-algorithm", d.model.name);
  if (c.ep_size > 1 && !d.model.mlp.is_moe())
    return util::failf(util::ErrorKind::bad_input, "--ep-size {} needs a MoE model; '{}' is dense (model card mlp.experts "
                       "is 0)", c.ep_size, d.model.name);
  if (d.model.mlp.is_moe() && d.model.mlp.experts % c.ep_size != 0)
    return util::failf(util::ErrorKind::bad_input, "--ep-size {} must divide the {} experts (model card mlp.experts)",
                       c.ep_size, d.model.mlp.experts);
  if (d.model.attention.heads % c.tp_size != 0)
    return util::failf(util::ErrorKind::bad_input, "--tp-size {} must divide the {} attention heads (model card "
                       "attention.heads)", c.tp_size, d.model.attention.heads);
  if (const int copies = kv_copies_per_tp_group(d.model, d.attention_tp()); copies % c.dcp_size != 0) {
    return util::failf(util::ErrorKind::bad_input,
                       "--dcp-size {} must divide the {} TP ranks that hold the same KV ({} attention, model card "
                       "attention.kv_heads {} at --tp-size {})", c.dcp_size, copies,
                       d.model.attention.kind == AttentionKind::mla ? "MLA: one latent head" : "GQA",
                       d.model.attention.kind == AttentionKind::mla ? 1 : d.model.attention.kv_heads, d.attention_tp());
  }
  if (auto r = check_engine(d); !r) return r;
  if (c.pp_size > d.model.layers)
    return util::failf(util::ErrorKind::bad_input, "--pp-size {} exceeds the {} layers (model card layers)", c.pp_size, d.model.layers);
  if (c.context_length && *c.context_length > d.model.context_length)
    return util::failf(util::ErrorKind::bad_input, "--context-length {} exceeds the model's {}", *c.context_length,
                       d.model.context_length);
  return {};
}

void resolve_scheduler(Deployment& d) {
  const auto& c = d.config;
  const std::int64_t pool = d.memory.rank_pool_tokens;  // a request lives on one DP attention rank
  // SGLang: req_to_token_pool size = clamp(pool / context * 512, 2048, 4096); running = min(pool / 2, that),
  // per DP attention rank (a given --max-running-requests counts all ranks).
  // An engine with its own default (vLLM's max_num_seqs by GPU memory) uses it instead; its KV pool
  // then limits admission as it fills, not the cap.
  const double gpu_gib = d.hardware.memory_bytes() / k_gib;
  const std::int64_t reqs = std::clamp<std::int64_t>(pool * 512 / d.context_length, 2048, 4096);
  const auto engine_cap = d.engine.default_running_cap(gpu_gib);
  const std::int64_t per_rank = engine_cap ? *engine_cap : std::min(pool / 2, reqs);
  std::int64_t running = per_rank * d.attention_dp();
  // SGLang resets an unset cap to 48 when speculative decoding is on (ServerArgs), over all DP ranks.
  if (d.spec.enabled && d.engine.speculative_running_cap > 0) running = std::min<std::int64_t>(running, d.engine.speculative_running_cap);
  d.max_running_requests = c.max_running_requests.value_or(static_cast<int>(running));
  const std::int64_t chunk = c.chunked_prefill_size.value_or(d.engine.prefill_budget(gpu_gib));
  // With DP attention SGLang splits --chunked-prefill-size over the DP ranks' schedulers (ServerArgs
  // divides it by --dp-size) while each keeps the whole --max-prefill-tokens: the step's budget over
  // all ranks is min(chunk, dp · max_prefill_tokens).
  const std::int64_t max_prefill = static_cast<std::int64_t>(c.max_prefill_tokens) * d.attention_dp();
  d.chunked_prefill_size = chunk < 0 ? max_prefill : std::min<std::int64_t>(chunk, max_prefill);
  d.cuda_graph_max_bs = c.disable_cuda_graph ? 0
                                             : c.cuda_graph_max_bs_decode.value_or(c.cuda_graph_max_bs.value_or(
                                                   d.engine.cuda_graph_max_bs(gpu_gib, c.tp_size)));
  d.overlap_scheduler = d.engine.overlap_scheduler && !c.disable_overlap_schedule;
  d.mixed_chunk = c.enable_mixed_chunk || d.engine.mixed_prefill == MixedPrefill::always;
  d.max_req_input_len = std::min(d.context_length - 1, pool - 1);  // pool: one rank's
}

}  // namespace

util::Result<Deployment> make_deployment(const SimConfig& config, ModelCard model, HardwareCard hardware) {
  if (auto v = validate(config); !v) return std::unexpected(v.error());
  Deployment d;
  d.config = config;
  // SGLang: DeepEP needs every TP rank to own experts, so it sets --ep-size to --tp-size.
  if (config.moe_a2a_backend == MoeA2aBackend::deepep) d.config.ep_size = config.tp_size;
  auto engine = load_engine_profile(config.engine);
  if (!engine) return std::unexpected(engine.error());
  d.engine = std::move(*engine);
  d.model = std::move(model);
  if (d.config.weight_dtype.empty() && !config.quantization.empty()) {
    d.config.weight_dtype = quantization_weight_format(config.quantization).value_or("");
  }
  if (!d.config.weight_dtype.empty()) {
    auto format = weight_format(d.config.weight_dtype);
    if (!format) return util::failf(util::ErrorKind::bad_input, "--sim-weight-dtype: {}", format.error().message);
    d.model.weight_dtype_bytes = format->bytes;
    d.model.weight_gemm = format->gemm;
  }
  d.hardware = std::move(hardware);
  apply_overrides(d.hardware.efficiency, config.efficiency);
  if (config.efficiency.routing_skew) d.model.mlp.routing_skew = *config.efficiency.routing_skew;
  d.params = param_breakdown(d.model);
  auto spec = resolve_spec(config, d.model);
  if (!spec) return std::unexpected(spec.error());
  d.spec = std::move(*spec);
  if (auto r = check_cards(d); !r) return std::unexpected(r.error());
  d.mem_fraction_static = config.mem_fraction_static.value_or(default_mem_fraction(config.tp_size));
  d.context_length = config.context_length.value_or(d.model.context_length);
  if (auto r = plan_memory(d); !r) return std::unexpected(r.error());
  resolve_scheduler(d);
  return d;
}

util::Result<Deployment> make_deployment(const SimConfig& config) {
  auto model = load_model_card(config.model);
  if (!model) return std::unexpected(model.error());
  auto hw = load_hardware_card(config.hardware);
  if (!hw) return std::unexpected(hw.error());
  return make_deployment(config, std::move(*model), std::move(*hw));
}

}  // namespace servebench::sim
