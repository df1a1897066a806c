#pragma once
// SGLang's GET /server_info body as a compatible server (the simulator) writes it: the server
// args, the front's settings, internal_states[0], version, and the simulator's two extensions
// (recorded_flags and a "sim" block). The adapters read it back (sglang_adapter.cpp).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace servebench::wire {

using InfoValue = std::variant<std::nullptr_t, bool, std::int64_t, double, std::string>;
// One top-level member whose key the caller spells (SGLang's server_args names).
struct InfoField {
  std::string key;
  InfoValue value;
};

// internal_states[0]: SGLang's per-DP-rank scheduler state.
struct SglangRankState {
  double weight_gb = 0, kvcache_gb = 0, graph_gb = 0;  // memory_usage
  std::int64_t token_capacity = 0;                      // memory_usage.token_capacity: the KV pool
  std::int64_t effective_max_running_requests = 0;      // effective_max_running_requests_per_dp
  double last_gen_throughput = 0;                       // tokens/s
  std::optional<double> avg_spec_accept_length;         // with speculative decoding only
};

struct ServerInfo {
  std::span<const InfoField> server_args;  // in order
  std::string_view served_model_name, host;
  std::int64_t port = 0;
  bool enable_metrics = true, enable_cache_report = true, incremental_streaming_output = false;
  bool ready = false;  // "status": "ready" | "starting"
  SglangRankState rank;
  std::string_view version;
  std::span<const std::pair<std::string, std::string>> recorded_flags;  // flag as given -> value
  std::span<const InfoField> sim;                                        // the simulator's own facts
};

// Appends the /server_info object; cannot fail.
void encode_server_info(std::string& out, const ServerInfo& info);

}  // namespace servebench::wire
