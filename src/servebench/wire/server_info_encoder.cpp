#include "servebench/wire/server_info_encoder.hpp"

#include "servebench/wire/json_writer.hpp"

namespace servebench::wire {
namespace {

void write_value(JsonWriter& json, const InfoValue& v) {
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

void write_fields(JsonWriter& json, std::span<const InfoField> fields) {
  for (const InfoField& f : fields) {
    json.key(f.key);
    write_value(json, f.value);
  }
}

void write_internal_states(JsonWriter& json, const SglangRankState& rank) {
  json.key("internal_states");
  json.begin_array();
  json.begin_object();
  json.key("memory_usage");
  json.begin_object();
  json.member("weight", rank.weight_gb);
  json.member("kvcache", rank.kvcache_gb);
  json.member("token_capacity", rank.token_capacity);
  json.member("graph", rank.graph_gb);
  json.end_object();
  json.member("effective_max_running_requests_per_dp", rank.effective_max_running_requests);
  json.member("last_gen_throughput", rank.last_gen_throughput);
  if (rank.avg_spec_accept_length) json.member("avg_spec_accept_length", *rank.avg_spec_accept_length);
  json.end_object();
  json.end_array();
}

}  // namespace

void encode_server_info(std::string& out, const ServerInfo& info) {
  JsonWriter json(out);
  json.begin_object();
  write_fields(json, info.server_args);
  json.member("served_model_name", info.served_model_name);
  json.member("host", info.host);
  json.member("port", info.port);
  json.member("enable_metrics", info.enable_metrics);
  json.member("enable_cache_report", info.enable_cache_report);
  json.member("incremental_streaming_output", info.incremental_streaming_output);
  json.member("status", info.ready ? "ready" : "starting");
  write_internal_states(json, info.rank);
  json.member("version", info.version);
  json.key("recorded_flags");
  json.begin_object();
  for (const auto& [flag, value] : info.recorded_flags) json.member(flag, value);
  json.end_object();
  json.key("sim");
  json.begin_object();
  write_fields(json, info.sim);
  json.end_object();
  json.end_object();
}

}  // namespace servebench::wire
