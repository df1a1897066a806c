#pragma once
// The machine's noise floor while a load phase runs (docs/metrics.md "Client health"): an idle
// thread of our own sleeps to absolute deadlines 1 ms apart and records how late it wakes — the OS
// scheduling delay that every lag of the client contains too. The phase starts it before its first
// request, so even a short phase has samples.
#include <atomic>
#include <cstdint>
#include <thread>

#include "servebench/stats/histogram.hpp"

namespace servebench::load {

// Missed periods recorded after one long stall (this probe's 1 ms, the loop-lag meter's own period):
// both backfill alike, so a stall of the whole machine weighs the same in the floor as in the lag.
inline constexpr std::int64_t k_max_backfilled_ticks = 10'000;

class NoiseProbe {
 public:
  // Starts the sampling thread; it writes `out` until stop() (or the destructor) returns.
  explicit NoiseProbe(stats::Histogram& out);
  ~NoiseProbe();
  NoiseProbe(const NoiseProbe&) = delete;
  NoiseProbe& operator=(const NoiseProbe&) = delete;
  // Stops and joins the thread; `out` may be read after it. Idempotent.
  void stop();

 private:
  void run();
  static constexpr int k_max_samples = 24 * 3600 * 1000;  // a day of 1-ms samples, then it stops
  stats::Histogram& m_out;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

}  // namespace servebench::load
