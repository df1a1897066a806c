#pragma once
// Was the client itself trustworthy? Per request, the send lag (released → sent: how late the
// client sent what it was allowed to send); per socket read, the read lag (read → recorded); per
// loop thread, its CPU share. A run is unhealthy when the client lag p99 (send and read lag)
// exceeds a fraction (10 %) of the median TPOT, or when a loop thread was saturated: its latencies
// measure the client as much as the server. Against a simulator started with --sim-stamp-events,
// the client-added latency (server emit → socket read) is reported too, but not gated: it also
// holds the server's own send path and the OS scheduler, which are not the client's.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "servebench/load/request_record.hpp"
#include "servebench/stats/histogram.hpp"
#include "servebench/stats/summary.hpp"

namespace servebench::load {

inline constexpr double k_default_client_lag_limit = 0.10;  // of the median TPOT
inline constexpr double k_saturated_loop_busy = 0.90;       // CPU share of a loop thread

// Per-chunk lag samples of a run, in nanoseconds, merged from every loop thread.
struct LagHistograms {
  stats::Histogram read_lag{7}, client_added{7};
  void merge(const LagHistograms& other) {
    read_lag.merge(other.read_lag);
    client_added.merge(other.client_added);
  }
};

struct ClientHealthReport {
  stats::Summary send_lag_ms;               // per request
  double read_lag_p99_ms = 0, read_lag_max_ms = 0;
  std::optional<double> added_p50_ms, added_p99_ms;  // server-stamped chunks only
  std::int64_t stamped_chunks = 0;
  double cpu_seconds = 0;     // CPU time of the event-loop threads over the measured phase
  double max_loop_busy = 0;   // the busiest loop thread's CPU share of the phase (1 = saturated)
  int threads = 0;            // event-loop threads
  double lag_p99_ms = 0;    // the gated value: max(send lag p99, read lag p99)
  double limit_ms = 0;      // fraction × median TPOT; NaN when TPOT is undefined (not gated)
  bool healthy = true;
  std::string reason;       // why unhealthy, or why not gated; empty when healthy and gated
};

// What the loop threads did during the measured phase.
struct LoopLoad {
  double cpu_seconds = 0, max_busy = 0;
  int threads = 0;
};

// Assesses the client from the run's records, lag histograms and loop load.
ClientHealthReport assess_client(std::span<const RequestRecord> records, const LagHistograms& lags,
                                 const LoopLoad& loops, double median_tpot_ms, double limit_fraction,
                                 stats::PercentileMethod method);

}  // namespace servebench::load
