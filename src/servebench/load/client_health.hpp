#pragma once
// Was the client itself trustworthy? Per request, the send lag (allowed → sent: how late the
// client sent what it was allowed to send; in open loop "allowed" is the scheduled time unless the
// concurrency cap held it); per socket read, the read lag (read → recorded) and the arrival lag
// (the kernel's receive timestamp → parsed: socket readability to parsed event, whatever held the
// loop); per event loop, the loop lag (how late a 2-ms periodic timer on it ran, wrk2's jitter
// meter); per loop thread, its CPU share. Through the measured phase an idle probe thread measures
// the machine's noise floor: how late it wakes from 1-ms sleeps. A run is unhealthy when a lag's
// robust p99 exceeds the limit, when a loop thread was saturated, or when the server is serve-sim
// and its own engine loop ran late against its schedule. The limit is a fraction (10 %) of the
// median TPOT, but never below the noise floor: lag an idle loop on this machine shows is not the
// client's bottleneck. Against a time-scaled serve-sim the floor excuses nothing: a scale whose
// TPOT lies within the machine's noise distorts the run. Client-added latency (server emit stamp
// → socket read) is reported, not gated. docs/metrics.md has the rules.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "servebench/load/request_record.hpp"
#include "servebench/stats/histogram.hpp"
#include "servebench/stats/summary.hpp"
#include "servebench/wire/prometheus.hpp"

namespace servebench::load {

inline constexpr double k_default_client_lag_limit = 0.10;  // of the median TPOT
inline constexpr double k_saturated_loop_busy = 0.90;       // CPU share of a loop thread
inline constexpr std::int64_t k_min_lag_samples = 20;       // fewer: that lag is not gated
inline constexpr double k_min_noise_floor_ms = 0.05;        // Linux's default timer slack
inline constexpr util::Nanos k_open_loop_settle = std::chrono::seconds(1);  // opening second, see docs

inline constexpr util::Nanos k_loop_lag_period = std::chrono::milliseconds(2);  // the loop-lag meter's tick

// Lag samples of a run, in nanoseconds, merged from every loop thread: per read (read lag:
// read returned → recorded; arrival lag: the kernel queued the bytes → parsed), per chunk
// (client-added, server-stamped), per meter tick (loop lag: how late a periodic timer on the loop
// ran), per probe wake-up (floor).
struct LagHistograms {
  stats::Histogram read_lag{7}, arrival_lag{7}, loop_lag{7}, client_added{7}, floor{7};
  void merge(const LagHistograms& other) {
    read_lag.merge(other.read_lag);
    arrival_lag.merge(other.arrival_lag);
    loop_lag.merge(other.loop_lag);
    client_added.merge(other.client_added);
    floor.merge(other.floor);
  }
};

// serve-sim's engine loop over the measured window, from its step-lateness histogram's deltas.
struct SimStepWindow {
  std::int64_t steps = 0;
  double p99_ms = 0;  // robust p99, linear within its bucket (0 with < 20 steps)
};

// The window from two cumulative bucket lists (le in seconds); nullopt when either is empty or
// they do not have the same edges (the server restarted between the snapshots).
std::optional<SimStepWindow> sim_step_window(std::span<const wire::Bucket> before, std::span<const wire::Bucket> after);

struct ClientHealthReport {
  stats::Summary send_lag_ms;               // per request, every request
  double read_lag_p99_ms = 0, read_lag_max_ms = 0;
  std::optional<double> added_p50_ms, added_p99_ms, added_p999_ms;  // server-stamped chunks only
  std::int64_t stamped_chunks = 0;
  double cpu_seconds = 0;     // CPU time of the event-loop threads over the measured phase
  double max_loop_busy = 0;   // the busiest loop thread's CPU share of the phase (1 = saturated)
  int threads = 0;            // event-loop threads
  double noise_floor_ms = 0;  // max(measured probe wake-up lateness p99, k_min_noise_floor_ms)
  double measured_floor_ms = 0;  // the measured part alone (0 when not measured)
  std::int64_t send_lag_samples = 0, read_lag_samples = 0;  // the gated samples of each
  std::int64_t loop_lag_samples = 0, arrival_lag_samples = 0;
  double gated_send_lag_ms = 0, gated_read_lag_ms = 0;      // robust p99 of each (0: too few)
  double gated_loop_lag_ms = 0, gated_arrival_lag_ms = 0;
  double loop_lag_max_ms = 0, arrival_lag_max_ms = 0;
  double lag_p99_ms = 0;    // the gated value: max of the four robust p99s
  std::optional<SimStepWindow> sim_steps;  // serve-sim only: its step lateness over the window
  double sim_step_limit_ms = 0;            // what that is held to (0: not judged)
  double limit_ms = 0;      // the limit lag_p99_ms is held to; NaN when not gated
  std::string limit_basis;  // "tpot", "noise_floor", or "" when not gated
  bool healthy = true;
  std::string reason;       // why unhealthy, or why not gated; empty when healthy and gated
};

// What the loop threads did during the measured phase.
struct LoopLoad {
  double cpu_seconds = 0, max_busy = 0;
  int threads = 0;
};

struct HealthInputs {
  std::span<const RequestRecord> records;
  const LagHistograms* lags = nullptr;
  LoopLoad loops;
  double median_tpot_ms = 0;  // real time (before any time-scale conversion)
  double limit_fraction = k_default_client_lag_limit;
  stats::PercentileMethod method = stats::PercentileMethod::nearest_rank;
  bool open_loop = false;
  std::optional<double> sim_time_scale;  // the server is serve-sim running at this scale
  std::optional<SimStepWindow> sim_steps;  // the server is serve-sim and exported its step lateness
};

// The robust p99 of n samples: the lower 99.9 % confidence bound of their p99. The gate fails a
// lag only when the samples show, at that confidence, that more than 1 % of them exceed the limit:
// it takes the (k+1)-th largest sample, k being the most samples above the p99 that a lag whose
// true p99 sits at the limit gives with probability 0.999 (k = 1 for 2 samples, 5 for 100, 21 for
// 1,000; about 1.3 % of n at 10,000). Samples come in groups — one scheduler stall delays every
// stream's read that arrives during it — so a plain p99 of a small run is one stall; this needs
// several. The rank, 1-based, of n ≥ 2 sorted samples.
std::int64_t robust_p99_rank(std::int64_t n);

// Assesses the client from the run's records, lag histograms and loop load.
ClientHealthReport assess_client(const HealthInputs& in);

}  // namespace servebench::load
