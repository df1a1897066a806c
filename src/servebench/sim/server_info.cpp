#include "servebench/sim/server_info.hpp"

#include "servebench/wire/models_encoder.hpp"
#include "servebench/wire/server_info_encoder.hpp"

namespace servebench::sim {
namespace {

std::vector<wire::InfoField> info_fields(const std::vector<Fact>& facts, const FrontFacts& front) {
  std::vector<wire::InfoField> out;
  out.reserve(facts.size());
  for (const Fact& f : facts) {
    // model_path is what the user named with --model-path, not the card.
    wire::InfoValue value = f.key == "model_path" ? wire::InfoValue{front.model_path}
                                                 : std::visit([](const auto& x) { return wire::InfoValue{x}; }, f.value);
    out.push_back({f.key, std::move(value)});
  }
  return out;
}

// One DP rank's state (with DP attention the ranks are alike: the pool and the cap split evenly).
wire::SglangRankState rank_state(const Deployment& d, const ServerStats& stats) {
  wire::SglangRankState rank;
  rank.weight_gb = (d.memory.weight_bytes + d.memory.draft_weight_bytes) / 1e9;
  rank.kvcache_gb = d.memory.kv_pool_bytes / 1e9;
  rank.token_capacity = d.memory.rank_pool_tokens;
  rank.effective_max_running_requests = d.max_running_requests / d.attention_dp();
  rank.last_gen_throughput = stats.gen_throughput;
  if (d.spec.enabled) rank.avg_spec_accept_length = stats.accept_length;
  return rank;
}

}  // namespace

void append_server_info(std::string& out, const ServerFacts& facts, const Deployment& d, const FrontFacts& front,
                        const ServerStats& stats) {
  const auto server_args = info_fields(facts.server_args, front);
  auto sim = info_fields(facts.sim, front);
  sim.push_back({"time_scale", front.time_scale});
  sim.push_back({"oracle", front.oracle});
  sim.push_back({"stamp_events", front.stamp_events});
  // Since start; the load generator judges its measured window from /metrics instead.
  sim.push_back({"step_lateness_steps", static_cast<std::int64_t>(stats.step_lateness.steps)});
  sim.push_back({"step_lateness_p99_ms", stats.step_lateness.quantile_upper_s(0.99) * 1e3});
  sim.push_back({"step_lateness_max_ms", stats.step_lateness.max_s * 1e3});
  wire::ServerInfo info;
  info.server_args = server_args;
  info.served_model_name = front.served_model_name;
  info.host = front.host;
  info.port = front.port;
  info.incremental_streaming_output = front.incremental_streaming;
  info.ready = stats.ready;
  info.rank = rank_state(d, stats);
  info.version = front.version;
  info.recorded_flags = front.recorded_flags;
  info.sim = sim;
  wire::encode_server_info(out, info);
}

void append_models(std::string& out, const Deployment& d, const FrontFacts& front) {
  wire::encode_models_response(out,
                              {front.served_model_name, front.created, "sglang", front.model_path, d.context_length});
}

}  // namespace servebench::sim
