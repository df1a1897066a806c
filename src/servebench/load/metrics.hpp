#pragma once
// Records → the run's metrics, exactly as docs/metrics.md defines them (each definition has an id
// written into the output, see definition_ids()). Pure: no clock, no I/O.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "servebench/load/request_record.hpp"
#include "servebench/stats/summary.hpp"

namespace servebench::load {

struct GoodputSlo {  // a request is good when it completed and meets every SLO that is set
  std::optional<util::Nanos> ttft{}, tpot{}, e2e{};
  bool any() const { return ttft || tpot || e2e; }
};

struct MetricOptions {
  stats::PercentileMethod method = stats::PercentileMethod::nearest_rank;
  std::vector<double> percentiles{50, 90, 95, 99};  // shown; 90, 95 and 99 are always computed too
  GoodputSlo goodput;
  std::optional<int> gpus{};  // divides throughput per GPU when set
  bool open_loop = false;   // report latency from the intended send time as well
};

struct GoodputResult {
  std::int64_t good_requests = 0;
  double request_goodput = 0;        // good requests / duration
  double output_token_goodput = 0;   // output tokens of good requests / duration
  double fraction = 0;               // good / completed
};

struct RunMetrics {
  std::int64_t num_requests = 0, completed = 0, failed = 0;
  std::int64_t reconnects = 0;  // requests sent again on a fresh connection, failed ones included
  std::array<std::int64_t, k_request_error_kinds> errors_by_kind{};  // indexed by RequestError
  util::Nanos duration{0};  // first send → last response end
  std::int64_t total_input_tokens = 0, total_input_planned = 0;
  std::int64_t total_output_tokens = 0, total_output_requested = 0;
  std::int64_t output_mismatches = 0;   // completed requests served a count other than requested
  std::int64_t input_mismatches = 0;    // server prompt count differs from the planned length
  std::int64_t output_count_fallbacks = 0;  // completed requests without a server output count
  double request_throughput = 0, input_throughput = 0, output_throughput = 0, total_throughput = 0;
  std::optional<double> output_throughput_per_gpu, total_throughput_per_gpu;
  // Milliseconds. Percentile points: MetricOptions::percentiles ∪ {90, 95, 99}, ascending.
  stats::Summary ttft_ms, tpot_ms, itl_ms, itl_token_ms, e2e_ms;
  // Open loop only: latency from the intended send time, and the wait for the concurrency cap.
  std::optional<stats::Summary> ttft_from_intended_ms, e2e_from_intended_ms, queue_ms;
  double concurrency = 0;               // Σ E2E / duration (Little's law)
  double max_output_tokens_per_s = 0;   // peak 1-s bucket
  std::int64_t max_concurrent_requests = 0;  // peak 1-s bucket
  std::int64_t peak_in_flight = 0;           // exact: most requests between sent and done at one instant
  std::optional<GoodputResult> goodput;
  std::optional<double> native_accept_length;  // Σ completion tokens / Σ spec_verify_ct
  std::vector<double> shown_percentiles;       // MetricOptions::percentiles, for tables
};

// Computes every metric. `chunks` holds the token-bearing chunks of all requests, grouped by
// request and in time order inside a request (sort_chunks gives that order).
RunMetrics compute_metrics(std::span<const RequestRecord> records, std::span<const ChunkMark> chunks,
                           const MetricOptions& options);

// Orders chunks by request, keeping each request's time order (a stable sort).
void sort_chunks(std::vector<ChunkMark>& chunks);

// 1000 / TPOT for a TPOT statistic in ms (tokens per second per user); NaN when undefined.
double interactivity(double tpot_ms);

// {metric, definition id} pairs written into the output's `definitions` (docs/metrics.md).
std::span<const std::pair<std::string_view, std::string_view>> definition_ids();

}  // namespace servebench::load
