#include "servebench/load/noise_probe.hpp"

#include <algorithm>
#include <ctime>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

namespace servebench::load {

NoiseProbe::NoiseProbe(stats::Histogram& out) : m_out(out), m_thread([this] { run(); }) {}

NoiseProbe::~NoiseProbe() { stop(); }

void NoiseProbe::stop() {
  m_stop.store(true);
  if (m_thread.joinable()) m_thread.join();
}

void NoiseProbe::run() {
#if defined(__linux__)
  prctl(PR_SET_TIMERSLACK, 1UL);  // wake-ups at the deadline, not up to 50 µs after it
#endif
  timespec next{};
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (int i = 0; i < k_max_samples && !m_stop.load(std::memory_order_relaxed); ++i) {
    next.tv_nsec += 1'000'000;
    if (next.tv_nsec >= 1'000'000'000) {
      next.tv_nsec -= 1'000'000'000;
      ++next.tv_sec;
    }
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr);
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    const std::int64_t late = (now.tv_sec - next.tv_sec) * 1'000'000'000 + (now.tv_nsec - next.tv_nsec);
    // A wake-up late by several periods also records the wake-ups it displaced.
    for (std::int64_t l = std::max<std::int64_t>(0, late), k = 0; k <= k_max_backfilled_ticks; l -= 1'000'000, ++k) {
      m_out.record(static_cast<std::uint64_t>(l));
      if (l < 1'000'000) break;
    }
    if (late > 1'000'000) next = now;  // behind by more than a period: restart from now
  }
}

}  // namespace servebench::load
