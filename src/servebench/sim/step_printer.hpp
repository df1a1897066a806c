#pragma once
// The server log at --log-level info: SGLang's scheduler lines, "[time] Prefill batch. ..." for
// every prefill and "[time] Decode batch. ..." every `decode_log_interval` decode batches (SGLang's
// --decode-log-interval), with gen throughput measured over that window in virtual time.
#include <cstdint>
#include <cstdio>
#include <span>

#include "servebench/sim/request.hpp"
#include "servebench/sim/step_log.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::sim {

class StepPrinter {
 public:
  // Prints to `out` (nullptr: prints nothing, still measures throughput); `wall` stamps lines.
  StepPrinter(std::FILE* out, int decode_log_interval, const util::WallClock& wall = util::system_wall_clock());

  // One engine step's batch logs; `generated_total` is the engine's generation counter after it.
  void observe(std::span<const StepLog> logs, std::int64_t generated_total);
  // Generated tokens/s over the last completed decode-log window (virtual time).
  double gen_throughput() const { return m_throughput; }

 private:
  void print(const StepLog& log);

  std::FILE* m_out;
  int m_interval;
  const util::WallClock* m_wall;
  int m_decodes = 0;  // decode batches since the last printed one
  std::int64_t m_window_tokens = 0;
  std::chrono::nanoseconds m_window_start{0};
  bool m_window_open = false;
  double m_throughput = 0;
};

}  // namespace servebench::sim
