#pragma once
// bench's flags (sglang.bench_serving's spellings, shared by `sweep`) and what they become: every flag
// checked and converted before the network is touched, so bad usage exits 2 even when no server runs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "servebench/load/client_health.hpp"
#include "servebench/load/runner.hpp"
#include "servebench/load/workload.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace servebench::cli {

struct BenchFlags {
  std::string backend = "sglang", base_url, host = "127.0.0.1", model, dataset_name = "random", dataset_path;
  std::optional<int> port;
  std::int64_t random_input_len = 1024, random_output_len = 1024, num_prompts = 1000, warmup_requests = 1;
  double random_range_ratio = 1.0, burstiness = 1.0, temperature = 0.0, request_timeout_s = 0;
  double stall_timeout_s = 300;
  double max_client_lag = load::k_default_client_lag_limit;
  std::int64_t plant_client_burn_us = 0;
  std::int64_t plant_client_stall_ms = 0;
  std::optional<std::int64_t> max_concurrency, sharegpt_output_len, vocab_size;
  std::string request_rate = "inf", arrival = "poisson", tag, extra_request_body, output_file, per_request;
  std::uint64_t seed = 1;
  bool disable_ignore_eos = false, flush_cache = false, output_details = false, no_progress = false;
  bool allow_failures = false;
  std::string api_key_env = "OPENAI_API_KEY", percentile_method = "nearest-rank", metric_percentiles = "50,90,95,99";
  std::string output_format = "sglang";
  std::vector<std::string> goodput;
  std::string slo;  // --slo ttft_p99_ms=…,tpot_p50_ms=… (load/slo.hpp)
  std::optional<int> num_gpus;
  int threads = 0;
  load::SharedPrefixWorkload gsp;
  load::ConversationWorkload mt;
  double mt_think_time_s = 0;
  load::TraceOptions trace;
  std::optional<std::int64_t> trace_max_requests;
  std::optional<double> trace_max_duration_s;
  CLI::Option* range_ratio_option = nullptr;
  CLI::Option* port_option = nullptr;
  CLI::Option* host_option = nullptr;
};

// Adds every bench flag to `c`, bound to `f`.
void define_bench_flags(CLI::App& c, BenchFlags& f);

// The run the flags describe, without prompts or progress display; throws CommandError (exit 2) on a bad flag.
load::RunSpec run_spec(const BenchFlags& f);

// The workload the flags describe (dataset, lengths, seed, shared prefix, conversations, trace).
load::WorkloadOptions workload_options(const BenchFlags& f);

}  // namespace servebench::cli
