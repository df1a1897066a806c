#pragma once
// Test support: the brief's two deployment arms of GLM-5.3-Flash on eight RTX PRO 6000 GPUs as
// simulator configurations, and one closed-loop point with the brief's num_prompts = max(8, 2C).
#include <algorithm>

#include "closed_loop.hpp"
#include "servebench/sim/engine.hpp"

namespace servebench::sim::brief {

inline SimConfig tp2pp4() {
  SimConfig c;
  c.hardware = "rtx-pro-6000";
  c.model = "glm-5.3-flash";
  c.tp_size = 2;
  c.pp_size = 4;
  c.mem_fraction_static = 0.85;
  c.max_running_requests = 48;
  c.chunked_prefill_size = 16384;
  c.disable_radix_cache = true;
  c.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
  return c;
}

inline SimConfig e7b(int cuda_graph_max_bs = 8) {
  SimConfig c = tp2pp4();
  c.tp_size = 8;
  c.pp_size = 1;
  c.mem_fraction_static = 0.90;
  c.max_running_requests = 16;
  c.chunked_prefill_size = 8192;
  c.disable_radix_cache = false;
  c.enable_hierarchical_cache = true;
  c.hicache_ratio = 3;
  c.context_length = 270336;
  c.cuda_graph_max_bs = cuda_graph_max_bs;
  c.speculative_algorithm = SpecAlgorithm::eagle3;
  c.speculative_num_steps = 4;
  c.speculative_eagle_topk = 1;
  c.speculative_num_draft_tokens = 5;
  c.sim_accept_rates = {0.885};  // (1 - a^5) / (1 - a) = 4: the brief's accept length
  return c;
}

inline loop::LoopResult point(const SimConfig& c, std::int64_t isl, std::int64_t osl, int concurrency) {
  Engine e(make_deployment(c).value());
  return loop::run_closed_loop(e, isl, osl, concurrency, std::max(8, 2 * concurrency));
}

}  // namespace servebench::sim::brief
