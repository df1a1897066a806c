#pragma once
// serve-sim's flags: SGLang's launch flags in SGLang's spelling (the ones the simulation uses change
// it; every other flag of the registry is accepted and only recorded), the router's and
// disaggregation's, and the simulator's own --hw, --model and --sim-* knobs (docs/sim.md).
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "servebench/cli/serve_sim_pd.hpp"
#include "servebench/sim/sim_config.hpp"

namespace servebench::cli {

struct RecordedFlag {
  std::string name;  // canonical spelling
  std::string value;
  std::vector<std::string> values;
  bool is_switch = false;
  CLI::Option* option = nullptr;
};

struct ServeSimFlags {
  sim::SimConfig config;
  std::string model_card, model_path, served_model_name, kv_cache_dtype = "auto", speculative_algorithm;
  std::string moe_a2a_backend = "none";
  std::string host = "127.0.0.1", log_level = "info", accept_rates, overrides_file;
  std::string api_key, admin_api_key;  // never echoed: not in /server_info, not in a log line
  int port = 30000, decode_log_interval = 40, io_threads = 2;
  bool close_after_response = false;
  std::int64_t keepalive_timeout_ms = 0, max_requests_per_connection = 0;
  double time_scale = 1, max_body_mb = 64;
  bool stamp_events = false, oracle = false, incremental_output = false, default_usage = false;
  std::optional<double> step_overhead_us, eager_layer_us, per_sequence_us, per_request_us;
  std::vector<std::string> faults;  // --sim-fault, repeatable
  std::deque<RecordedFlag> recorded;  // stable addresses: CLI11 keeps pointers into them
  PdFlags pd;                         // --disaggregation-*, --router
};

// Defines every serve-sim flag on `c`, writing into `f` (which must outlive `c`'s parsing).
void define_serve_sim_flags(CLI::App& c, ServeSimFlags& f);

}  // namespace servebench::cli
