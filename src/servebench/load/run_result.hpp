#pragma once
// Everything one measured run produced: per-request records, pooled chunks, the metrics, the
// client-health verdict, cache and speculative-decoding facts from the server over the run window.
// Output writers (result_formats.hpp, request_log.hpp, summary_table.hpp) and the campaign's
// ledger mapping (point_mapping.hpp) read only this.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "servebench/load/client_health.hpp"
#include "servebench/load/metrics.hpp"
#include "servebench/load/request_record.hpp"

namespace servebench::load {

struct CacheReport {
  bool flushed = false;             // the server's prefix cache was flushed before the run
  std::optional<double> hit_rate{};  // Δcached / Δprompt tokens from server counters over the run
};

// How the run was driven, echoed into the output.
struct RunEcho {
  std::string backend, model, base_url;
  std::int64_t num_prompts = 0, warmup_requests = 0;
  std::optional<std::int64_t> max_concurrency{};  // nullopt: no cap
  std::optional<double> request_rate{};           // nullopt: infinite
  double burstiness = 1.0;
  std::optional<int> gpus{};
  MetricOptions metric_options;
};

struct RunResult {
  RunEcho echo;
  std::vector<RequestRecord> records;  // index order
  std::vector<ChunkMark> chunks;       // grouped by request, time order inside (sort_chunks)
  RunMetrics metrics;
  ClientHealthReport client;
  CacheReport cache;
  std::optional<double> accept_length{};  // over the run window only
  std::string accept_length_source;       // "native_meta" | "counter_delta" | "server_reported" | "" (none)
  std::int64_t warmup_failed = 0;
  boost::json::value server_info;         // the server's /server_info body, or null
  boost::json::object server_facts;       // what the engine adapter learned about the server
  util::WallTime started_at{};            // wall clock when the measured phase started
  util::Nanos wall_span{0};               // measured phase: start → last response end
  // 1: times are real. Otherwise the simulator's --sim-time-scale: every time and rate in this
  // result was converted to simulated time (measured ÷ time_scale; time_base.hpp).
  double time_scale = 1;
  // Stopped by SIGINT/SIGTERM: `records` and every metric cover only the requests that ended on their
  // own; the rest were never sent or were cut off after the grace period.
  bool interrupted = false;
  std::int64_t not_sent = 0, cut_off = 0;
};

}  // namespace servebench::load
