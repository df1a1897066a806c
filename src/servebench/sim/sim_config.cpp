#include "servebench/sim/sim_config.hpp"

#include <fmt/format.h>

namespace servebench::sim {
namespace {

util::Result<void> bad(std::string message) { return util::fail(util::ErrorKind::bad_input, std::move(message)); }

util::Result<void> validate_parallel(const SimConfig& c) {
  if (c.tp_size < 1 || c.pp_size < 1 || c.ep_size < 1 || c.dp_size < 1) return bad("--tp/pp/ep/dp-size must be >= 1");
  if (c.tp_size % c.ep_size != 0) return bad(fmt::format("--ep-size {} must divide --tp-size {}", c.ep_size, c.tp_size));
  if (c.dcp_size < 1 || c.tp_size % c.dcp_size != 0) {
    return bad(fmt::format("--dcp-size {} must be >= 1 and divide --tp-size {}", c.dcp_size, c.tp_size));
  }
  if (c.dp_size != 1 && !c.enable_dp_attention) {
    return bad("--dp-size > 1 without --enable-dp-attention (replicas behind a router) is not modelled by the simulator "
               "(run one server per replica)");
  }
  if (c.enable_dp_attention && c.tp_size % c.dp_size != 0) {
    return bad(fmt::format("--enable-dp-attention needs --dp-size {} to divide --tp-size {}", c.dp_size, c.tp_size));
  }
  if (c.enable_dp_attention && (c.tp_size / c.dp_size) % c.dcp_size != 0) {
    return bad(fmt::format("--dcp-size {} must divide the attention TP size {} (--tp-size / --dp-size)", c.dcp_size,
                           c.tp_size / c.dp_size));
  }
  if (c.nnodes < 1) return bad("--nnodes must be >= 1");
  if (c.node_rank < 0 || c.node_rank >= c.nnodes) return bad(fmt::format("--node-rank must be in 0..{}", c.nnodes - 1));
  if ((c.tp_size * c.pp_size) % c.nnodes != 0) {
    return bad(fmt::format("--tp-size x --pp-size = {} GPUs do not split evenly over --nnodes {}", c.tp_size * c.pp_size,
                           c.nnodes));
  }
  if (c.nnodes > 1 && c.dist_init_addr.empty()) return bad("--nnodes > 1 needs --dist-init-addr HOST:PORT (rank 0's)");
  if (c.engine.empty()) return bad("--sim-engine must name an engine profile (sglang, vllm, llamacpp)");
  if (c.pp_size > 1 && c.speculative_algorithm != SpecAlgorithm::none)
    return bad("speculative decoding with --pp-size > 1 is not supported (as in SGLang)");
  return {};
}

util::Result<void> validate_memory(const SimConfig& c) {
  if (c.mem_fraction_static && (*c.mem_fraction_static <= 0 || *c.mem_fraction_static >= 1))
    return bad("--mem-fraction-static must be in (0, 1)");
  if (c.max_running_requests && *c.max_running_requests < 1) return bad("--max-running-requests must be >= 1");
  if (c.chunked_prefill_size && *c.chunked_prefill_size != -1 && *c.chunked_prefill_size < 1)
    return bad("--chunked-prefill-size must be >= 1 or -1");
  if (c.max_prefill_tokens < 1) return bad("--max-prefill-tokens must be >= 1");
  if (c.context_length && *c.context_length < 2) return bad("--context-length must be >= 2");
  if (c.cuda_graph_max_bs && *c.cuda_graph_max_bs < 0) return bad("--cuda-graph-max-bs must be >= 0");
  if (c.page_size < 1) return bad("--page-size must be >= 1");
  if (c.max_total_tokens && *c.max_total_tokens < 1) return bad("--max-total-tokens must be >= 1");
  if (c.hicache_ratio <= 0 && c.hicache_size_gb <= 0) return bad("--hicache-ratio must be > 0");
  if (c.hicache_size_gb < 0) return bad("--hicache-size must be >= 0");
  return {};
}

util::Result<void> validate_speculative(const SimConfig& c) {
  const auto positive = [](const std::optional<int>& v) { return !v || *v >= 1; };
  if (!positive(c.speculative_num_steps) || !positive(c.speculative_eagle_topk) ||
      !positive(c.speculative_num_draft_tokens))
    return bad("--speculative-num-steps/-eagle-topk/-num-draft-tokens must be >= 1");
  if (c.sim_accept_length && !(*c.sim_accept_length >= 1)) return bad("--sim-accept-length must be >= 1 (tokens per verify)");
  if (c.sim_accept_length && !c.sim_accept_rates.empty()) return bad("give --sim-accept-length or --sim-accept-rate, not both");
  for (double a : c.sim_accept_rates) {
    if (!(a >= 0 && a < 1)) return bad("sim accept rates must be in [0, 1)");
  }
  const auto& p = c.adaptive;
  if (p.cap_from_batch < 1 || p.cap_steps < 0 || p.off_from_batch < p.cap_from_batch)
    return bad("adaptive thresholds need 1 <= cap-from-batch <= off-from-batch and cap-steps >= 0");
  return {};
}

util::Result<void> validate_sim(const SimConfig& c) {
  if (!(c.sim_eos_probability >= 0 && c.sim_eos_probability <= 1)) return bad("sim EOS probability must be in [0, 1]");
  if (!(c.init_new_token_ratio >= 0 && c.init_new_token_ratio <= 1)) return bad("new-token ratio must be in [0, 1]");
  const auto& e = c.efficiency;
  for (const auto& f : {e.bandwidth, e.mfu, e.link}) {
    if (f && !(*f > 0 && *f <= 1)) return bad("efficiency factors must be in (0, 1]");
  }
  if ((e.step_overhead && e.step_overhead->count() < 0) || (e.eager_layer && e.eager_layer->count() < 0))
    return bad("overheads must be >= 0");
  return {};
}

}  // namespace

namespace {

struct KvDtypeRow {
  KvCacheDtype dtype;
  std::string_view name;
  double bytes;
};
constexpr KvDtypeRow k_kv_dtypes[] = {
    {KvCacheDtype::auto_dtype, "auto", 2.0},        {KvCacheDtype::bf16, "bf16", 2.0},
    {KvCacheDtype::fp8_e4m3, "fp8_e4m3", 1.0},      {KvCacheDtype::fp8_e5m2, "fp8_e5m2", 1.0},
    {KvCacheDtype::mxfp8, "mxfp8", 1.03125},        {KvCacheDtype::nvfp4, "nvfp4", 0.5625},
    {KvCacheDtype::fp4_e2m1, "fp4_e2m1", 0.53125},  {KvCacheDtype::fp4_mx_block16, "fp4_mx_block16", 0.5625},
};

}  // namespace

std::string_view to_string(KvCacheDtype d) {
  for (const auto& r : k_kv_dtypes) {
    if (r.dtype == d) return r.name;
  }
  return "auto";
}

double kv_cache_bytes(KvCacheDtype d) {
  for (const auto& r : k_kv_dtypes) {
    if (r.dtype == d) return r.bytes;
  }
  return 2.0;
}

util::Result<KvCacheDtype> parse_kv_cache_dtype(std::string_view s) {
  if (s == "bfloat16") return KvCacheDtype::bf16;
  for (const auto& r : k_kv_dtypes) {
    if (r.name == s) return r.dtype;
  }
  return util::failf(util::ErrorKind::bad_input,
                     "--kv-cache-dtype '{}': expected auto, bf16, bfloat16, fp8_e4m3, fp8_e5m2, mxfp8, nvfp4, "
                     "fp4_e2m1 or fp4_mx_block16", s);
}

std::string_view to_string(MoeA2aBackend b) { return b == MoeA2aBackend::deepep ? "deepep" : "none"; }

util::Result<MoeA2aBackend> parse_moe_a2a_backend(std::string_view s) {
  if (s == "none") return MoeA2aBackend::none;
  if (s == "deepep") return MoeA2aBackend::deepep;
  return util::failf(util::ErrorKind::bad_input,
                     "--moe-a2a-backend '{}' is not modelled by the simulator: none (EP combines with the TP "
                     "all-reduce) or deepep (dispatch / combine all-to-all)", s);
}

std::string_view to_string(SpecAlgorithm a) {
  switch (a) {
    case SpecAlgorithm::none: return "";
    case SpecAlgorithm::eagle: return "EAGLE";
    case SpecAlgorithm::eagle3: return "EAGLE3";
    case SpecAlgorithm::nextn: return "NEXTN";
  }
  return "";
}

util::Result<SpecAlgorithm> parse_spec_algorithm(std::string_view s) {
  if (s == "EAGLE") return SpecAlgorithm::eagle;
  if (s == "EAGLE3") return SpecAlgorithm::eagle3;
  if (s == "NEXTN" || s == "MTP") return SpecAlgorithm::nextn;
  return util::failf(util::ErrorKind::bad_input, "--speculative-algorithm '{}': expected EAGLE, EAGLE3 or NEXTN", s);
}

util::Result<void> validate(const SimConfig& c) {
  if (auto ok = validate(c.disaggregation); !ok) return ok;
  for (auto check : {validate_parallel, validate_memory, validate_speculative, validate_sim}) {
    if (auto r = check(c); !r) return r;
  }
  return {};
}

}  // namespace servebench::sim
