#pragma once
// One phase of a run (warmup or measured): prepared requests sent on N event-loop threads under an
// arrival schedule and a concurrency cap, each response followed by a RequestSink. Keep-alive
// connections are pooled per thread; per-thread recorders are merged after the loops stop.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "servebench/http/url.hpp"
#include "servebench/load/client_health.hpp"
#include "servebench/load/request_record.hpp"
#include "servebench/load/request_sink.hpp"
#include "servebench/load/schedule.hpp"
#include "servebench/util/clock.hpp"
#include "servebench/util/result.hpp"

namespace servebench::load {

struct PreparedRequest {
  std::string body;  // the JSON body, built before the phase so sending costs no serialization
  std::int64_t input_tokens_planned = 0, output_tokens_requested = 0;
  // A conversation's following turn starts `think` after this request ends, on the same
  // concurrency slot; a request that `waits` is started only that way, never by the schedule.
  std::optional<std::uint32_t> next{};
  util::Nanos think{0};
  bool waits = false;
};

struct PhaseProgress {
  std::int64_t done = 0, total = 0, running = 0, failed = 0, output_tokens = 0;
  util::Nanos elapsed{0};
};

struct PhaseSpec {
  http::Url url;
  std::string target;  // route path, e.g. "/v1/completions"
  std::vector<std::pair<std::string, std::string>> headers;  // e.g. Authorization
  Streaming streaming = Streaming::sse;
  std::vector<PreparedRequest> requests;
  Schedule schedule;                         // one offset per request
  std::optional<std::int64_t> max_concurrency{};  // nullopt: no cap
  int threads = 1;
  util::Nanos timeout{0};                    // per request; zero: none
  util::Nanos stall_timeout{0};              // per request, between bytes; zero: none
  const util::Clock* clock = &util::steady_clock();
  std::function<void(const PhaseProgress&)> on_progress{};  // called from the calling thread
  util::Nanos progress_interval = std::chrono::milliseconds(250);
  bool measure_noise_floor = false;  // run a noise probe thread through the phase (PhaseResult::lags.floor)
  util::Nanos burn_per_read{0};  // a planted fault for tests of the health gate; zero in real runs
  util::Nanos loop_stall{0};     // planted too: every loop thread burns this much CPU every 100 ms
  util::Nanos loop_lag_period{0};  // the loop-lag meter's tick (PhaseResult::lags.loop_lag); zero: off
  // Set (by a signal handler) to stop the phase: no further request starts, the ones in flight
  // get up to `interrupt_grace` to finish, then are cut off. Checked every progress_interval.
  const std::atomic<bool>* interrupt = nullptr;
  util::Nanos interrupt_grace = std::chrono::seconds(2);
};

struct PhaseResult {
  std::vector<RequestRecord> records;  // index order
  std::vector<ChunkMark> chunks;       // sorted (sort_chunks)
  LagHistograms lags;
  util::TimePoint origin{};            // the phase's time zero
  util::Nanos span{0};                 // origin → last response end
  std::uint64_t connections_opened = 0;
  util::Nanos loop_cpu{0};   // CPU time the loop threads used during the phase, summed
  double max_loop_busy = 0;  // the busiest loop thread's CPU time / phase wall time
  int threads = 0;
  // Interrupted: `records` and `chunks` hold only the requests that ended on their own (renumbered
  // in send order); the others are counted here.
  bool interrupted = false;
  std::int64_t not_sent = 0;  // never started
  std::int64_t cut_off = 0;   // in flight when the grace period ended
};

// Runs the phase to completion (every request ends: done, failed or timed out), or until
// `interrupt` is set and the grace period is over. Fails only when
// the client cannot be set up (the host does not resolve: ErrorKind::unreachable).
util::Result<PhaseResult> run_phase(PhaseSpec spec);

}  // namespace servebench::load
