#include "servebench/sim/server_info.hpp"

#include <variant>

#include "servebench/api/json_writer.hpp"
#include "servebench/api/models_encoder.hpp"

namespace servebench::sim {
namespace {

void write_value(api::JsonWriter& json, const FactValue& v) {
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::nullptr_t>) {
          json.null();
        } else if constexpr (std::is_same_v<T, bool>) {
          json.boolean(x);
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          json.integer(x);
        } else if constexpr (std::is_same_v<T, double>) {
          json.number(x);
        } else {
          json.string(x);
        }
      },
      v);
}

void write_facts(api::JsonWriter& json, const std::vector<Fact>& facts, const FrontFacts& front) {
  for (const Fact& f : facts) {
    json.key(f.key);
    if (f.key == "model_path") {
      json.string(front.model_path);
    } else {
      write_value(json, f.value);
    }
  }
}

// SGLang's per-DP-rank state; the simulator has one rank.
void write_internal_states(api::JsonWriter& json, const Deployment& d, const ServerStats& stats) {
  json.key("internal_states");
  json.begin_array();
  json.begin_object();
  json.key("memory_usage");
  json.begin_object();
  json.member("weight", (d.memory.weight_bytes + d.memory.draft_weight_bytes) / 1e9);
  json.member("kvcache", d.memory.kv_pool_bytes / 1e9);
  json.member("token_capacity", d.memory.max_total_num_tokens);
  json.member("graph", 0.0);
  json.end_object();
  json.member("effective_max_running_requests_per_dp", std::int64_t{d.max_running_requests});
  json.member("last_gen_throughput", stats.gen_throughput);
  if (d.spec.enabled) json.member("avg_spec_accept_length", stats.accept_length);
  json.end_object();
  json.end_array();
}

void write_front(api::JsonWriter& json, const FrontFacts& front) {
  json.member("time_scale", front.time_scale);
  json.member("oracle", front.oracle);
  json.member("stamp_events", front.stamp_events);
}

}  // namespace

void append_server_info(std::string& out, const ServerFacts& facts, const Deployment& d, const FrontFacts& front,
                        const ServerStats& stats) {
  api::JsonWriter json(out);
  json.begin_object();
  write_facts(json, facts.server_args, front);
  json.member("served_model_name", front.served_model_name);
  json.member("host", front.host);
  json.member("port", std::int64_t{front.port});
  json.member("enable_metrics", true);
  json.member("enable_cache_report", true);
  json.member("incremental_streaming_output", front.incremental_streaming);
  json.member("status", stats.ready ? "ready" : "starting");
  write_internal_states(json, d, stats);
  json.member("version", front.version);
  json.key("recorded_flags");
  json.begin_object();
  for (const auto& [flag, value] : front.recorded_flags) json.member(flag, value);
  json.end_object();
  json.key("sim");
  json.begin_object();
  write_facts(json, facts.sim, front);
  write_front(json, front);
  json.end_object();
  json.end_object();
}

void append_models(std::string& out, const Deployment& d, const FrontFacts& front) {
  api::encode_models_response(out,
                              {front.served_model_name, front.created, "sglang", front.model_path, d.context_length});
}

}  // namespace servebench::sim
