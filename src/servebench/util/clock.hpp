#pragma once
// Time comes only from an injected clock: steady for measuring, manual for tests and the
// simulator's virtual time, wall only for timestamps written to files.
#include <atomic>
#include <chrono>
#include <string>

namespace servebench::util {

using Nanos = std::chrono::nanoseconds;
using TimePoint = std::chrono::steady_clock::time_point;
using WallTime = std::chrono::system_clock::time_point;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint now() const noexcept = 0;
};

// The process-wide monotonic clock.
class SteadyClock final : public Clock {
 public:
  TimePoint now() const noexcept override { return std::chrono::steady_clock::now(); }
};
const Clock& steady_clock();

// A clock that moves only when told to; thread-safe.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(TimePoint start = TimePoint{}) : m_now(start.time_since_epoch().count()) {}
  TimePoint now() const noexcept override { return TimePoint{Nanos{m_now.load(std::memory_order_acquire)}}; }
  void advance(Nanos d) noexcept { m_now.fetch_add(d.count(), std::memory_order_acq_rel); }
  void set(TimePoint t) noexcept { m_now.store(t.time_since_epoch().count(), std::memory_order_release); }

 private:
  std::atomic<Nanos::rep> m_now;
};

// Wall-clock source, injectable so files written by tests are reproducible.
class WallClock {
 public:
  virtual ~WallClock() = default;
  virtual WallTime now() const noexcept { return std::chrono::system_clock::now(); }
};
const WallClock& system_wall_clock();

// "2026-11-29T15:00:00Z" (UTC, second precision).
std::string format_utc(WallTime t);
// Parses format_utc's output (also accepts fractional seconds); returns false on bad input.
bool parse_utc(const std::string& text, WallTime& out);

// Seconds as a double, for JSON edges.
inline double to_seconds(Nanos d) { return std::chrono::duration<double>(d).count(); }
inline double to_ms(Nanos d) { return std::chrono::duration<double, std::milli>(d).count(); }
// A count of `Period` units as Nanos, truncated toward zero as duration_cast does; NaN is 0 and a
// count beyond Nanos' range (±292 years) saturates: the cast alone is undefined behaviour there,
// and servers and files can send any number.
template <class Period>
Nanos saturating_nanos(double count) {
  const std::chrono::duration<double, Period> d(count);
  const double ns = std::chrono::duration<double, std::nano>(d).count();
  if (ns != ns) return Nanos{0};
  constexpr double limit = 9.2e18;  // below 2^63 ns by more than one double's step there
  if (ns >= limit) return Nanos::max();
  if (ns <= -limit) return Nanos::min();
  return std::chrono::duration_cast<Nanos>(d);
}
inline Nanos from_seconds(double s) { return saturating_nanos<std::ratio<1>>(s); }
inline Nanos from_ms(double ms) { return saturating_nanos<std::milli>(ms); }

}  // namespace servebench::util
