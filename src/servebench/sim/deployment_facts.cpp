// describe(): the deployment as /server_info facts (SGLang keys) plus the simulator's own block.
#include <chrono>

#include "servebench/sim/deployment.hpp"
#include "servebench/sim/kv_transfer.hpp"

namespace servebench::sim {
namespace {

FactValue opt_int(const std::optional<int>& v) { return v ? FactValue{std::int64_t{*v}} : FactValue{nullptr}; }
FactValue text_or_null(std::string_view s) { return s.empty() ? FactValue{nullptr} : FactValue{std::string(s)}; }
double micros(std::chrono::nanoseconds d) { return std::chrono::duration<double, std::micro>(d).count(); }

std::vector<Fact> server_args(const Deployment& d) {
  const auto& c = d.config;
  const auto& s = d.spec;
  const auto i64 = [](auto v) { return FactValue{static_cast<std::int64_t>(v)}; };
  return {
      {"model_path", d.model.name},
      {"tp_size", i64(c.tp_size)},
      {"pp_size", i64(c.pp_size)},
      {"ep_size", i64(c.ep_size)},
      {"dp_size", i64(c.dp_size)},
      {"dcp_size", i64(c.dcp_size)},
      {"enable_dp_attention", c.enable_dp_attention},
      {"nnodes", i64(c.nnodes)},
      {"node_rank", i64(c.node_rank)},
      {"dist_init_addr", c.dist_init_addr.empty() ? FactValue{nullptr} : FactValue{c.dist_init_addr}},
      {"mem_fraction_static", d.mem_fraction_static},
      {"max_running_requests", i64(d.max_running_requests)},
      {"chunked_prefill_size", c.chunked_prefill_size ? i64(*c.chunked_prefill_size) : i64(d.chunked_prefill_size)},
      {"max_prefill_tokens", i64(c.max_prefill_tokens)},
      {"context_length", c.context_length ? i64(*c.context_length) : FactValue{nullptr}},
      {"kv_cache_dtype", std::string(to_string(c.kv_cache_dtype))},
      {"page_size", i64(c.page_size)},
      {"disable_radix_cache", c.disable_radix_cache},
      {"enable_hierarchical_cache", c.enable_hierarchical_cache},
      {"hicache_ratio", c.hicache_ratio},
      {"hicache_size", i64(c.hicache_size_gb)},
      {"cuda_graph_max_bs", i64(d.cuda_graph_max_bs)},
      {"cuda_graph_max_bs_decode", opt_int(c.cuda_graph_max_bs_decode)},
      {"disable_cuda_graph", c.disable_cuda_graph},
      {"enable_mixed_chunk", c.enable_mixed_chunk},
      {"disable_overlap_schedule", c.disable_overlap_schedule},
      {"enable_two_batch_overlap", c.enable_two_batch_overlap},
      {"moe_a2a_backend", std::string(to_string(c.moe_a2a_backend))},
      {"speculative_algorithm", text_or_null(to_string(c.speculative_algorithm))},
      {"speculative_num_steps", s.enabled ? i64(s.num_steps) : opt_int(c.speculative_num_steps)},
      {"speculative_eagle_topk", s.enabled ? i64(s.topk) : opt_int(c.speculative_eagle_topk)},
      {"speculative_num_draft_tokens", s.enabled ? i64(s.num_draft_tokens) : opt_int(c.speculative_num_draft_tokens)},
      {"speculative_adaptive", c.speculative_adaptive},
      {"max_total_tokens", c.max_total_tokens ? i64(*c.max_total_tokens) : FactValue{nullptr}},
      {"max_total_num_tokens", i64(d.memory.rank_pool_tokens)},  // one DP attention rank's, as SGLang
      {"max_req_input_len", i64(d.max_req_input_len)},
      {"disaggregation_mode", std::string(to_string(c.disaggregation.mode))},
      {"disaggregation_transfer_backend", c.disaggregation.transfer_backend},
      {"disaggregation_bootstrap_port", i64(c.disaggregation.bootstrap_port)},
      {"disaggregation_ib_device", text_or_null(c.disaggregation.ib_device)},
      {"disaggregation_decode_enable_radix_cache", c.disaggregation.decode_enable_radix_cache},
  };
}

std::vector<Fact> sim_block(const Deployment& d) {
  const auto& e = d.hardware.efficiency;
  const auto& m = d.memory;
  std::string rates;
  for (double a : d.spec.accept_rates) rates += (rates.empty() ? "" : ",") + std::to_string(a);
  return {
      {"hardware", d.hardware.name},
      {"model", d.model.name},
      {"engine", d.engine.name},
      {"overlap_scheduler", d.overlap_scheduler},
      {"mixed_chunk", d.mixed_chunk},
      {"vocab_size", d.model.vocab_size},
      {"gpus", std::int64_t{d.gpus()}},
      {"context_length", d.context_length},
      {"weight_gb_per_gpu", (m.weight_bytes + m.draft_weight_bytes) / 1e9},
      {"kv_bytes_per_token_per_gpu", m.kv_bytes_per_token},
      {"kv_pool_gb_per_gpu", m.kv_pool_bytes / 1e9},
      {"kv_pool_tokens_all_ranks", m.max_total_num_tokens},
      {"attention_dp", std::int64_t{d.attention_dp()}},
      {"host_pool_tokens", m.host_pool_tokens},
      {"bandwidth_efficiency", e.bandwidth},
      {"mfu", e.mfu},
      {"link_efficiency", e.link},
      {"step_overhead_us", micros(e.step_overhead)},
      {"eager_layer_overhead_us", micros(e.eager_layer)},
      {"per_sequence_us", micros(e.per_sequence)},
      {"per_request_us", micros(e.per_request)},
      {"routing_skew", d.model.mlp.routing_skew},
      {"weight_dtype_bytes", d.model.weight_dtype_bytes},
      {"weight_dtype", text_or_null(d.config.weight_dtype)},  // null: the model card's
      {"quantization", text_or_null(d.config.quantization)},  // --quantization as given
      {"accept_rates", rates.empty() ? FactValue{nullptr} : FactValue{rates}},
      {"accept_rates_source", d.spec.enabled ? FactValue{d.spec.accept_source} : FactValue{nullptr}},
      {"seed", static_cast<std::int64_t>(d.config.sim_seed)},
      {"flush_keeps_host_tier", d.config.flush_keeps_host_tier},
  };
}

// The KV-transfer model of a disaggregated part (kv_transfer.hpp), so a report can show its figures.
void add_kv_transfer(std::vector<Fact>& sim, const Deployment& d) {
  if (d.config.disaggregation.mode == DisaggregationMode::none) return;
  const KvTransferModel t = kv_transfer_model(d);
  sim.push_back({"kv_transfer_bytes_per_token", t.bytes_per_token});
  sim.push_back({"kv_transfer_bytes_per_token_per_gpu", t.bytes_per_token_per_gpu});
  sim.push_back({"kv_transfer_link_gbs", t.moves_bytes ? t.link_bytes_per_s / 1e9 : 0.0});
  sim.push_back({"kv_transfer_latency_us", t.moves_bytes ? micros(t.latency) : 0.0});
}

}  // namespace

ServerFacts describe(const Deployment& d) {
  ServerFacts f{server_args(d), sim_block(d)};
  add_kv_transfer(f.sim, d);
  return f;
}

}  // namespace servebench::sim
