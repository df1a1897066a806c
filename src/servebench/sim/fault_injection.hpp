#pragma once
// Fault injection for the simulator's inference routes (--sim-fault, docs/sim.md "Fault injection"):
// a server that misbehaves on purpose, deterministically, so the load generator's failure counting
// and a campaign's recovery can be tested. Which request gets which fault is a pure function of the
// seed and the request's arrival number (0-based, over /v1/completions, /v1/chat/completions and
// /generate), so a run with the same seed and request count injects the same number of each kind.
// At most one fault per request, tried in this order: crash, http-5xx, disconnect, malformed, stall;
// slow-headers applies to every request on top.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "servebench/http/handler.hpp"
#include "servebench/util/result.hpp"

namespace servebench::sim {

enum class FaultKind { none, http_5xx, disconnect_mid_stream, stall, malformed_chunk, crash };
std::string_view to_string(FaultKind k);

struct FaultPlan {
  double http_5xx_rate = 0;         // answer 503 with an error body instead of generating
  double disconnect_rate = 0;       // close the connection after the first chunk (or before a whole answer)
  double malformed_rate = 0;        // one stream event (or the whole answer) is not JSON
  double stall_rate = 0;            // the stream stops for stall_seconds after its first chunk
  double stall_seconds = 0;
  std::optional<std::uint64_t> crash_after;  // the process exits (status 70) when request N+1 arrives
  double slow_headers_ms = 0;       // every answer's first byte is held this long
  double slow_steps_ms = 0;         // the engine loop hands out every step's chunks this late (EngineLoop)
  std::uint64_t seed = 0;

  bool empty() const;  // no fault on the routes (slow_steps_ms aside: EngineLoop applies it)
};

// Parses --sim-fault values: "http-5xx:RATE", "disconnect-mid-stream:RATE", "malformed-chunk:RATE",
// "stall:RATE:SECONDS", "crash-after:N" (or "crash-after:N-requests"), "slow-headers:MS",
// "slow-steps:MS"; RATE in
// [0, 1]. Fails (bad_input) naming the value, the kind and the allowed range; a kind given twice fails.
util::Result<FaultPlan> parse_fault_plan(const std::vector<std::string>& values, std::uint64_t seed);

// The fault request number `n` (0-based) gets under `plan` (crash counts as none before N).
FaultKind fault_for(const FaultPlan& plan, std::uint64_t n);
// How many of the first `requests` requests get fault `kind` (what a test expects to count).
std::uint64_t fault_count(const FaultPlan& plan, FaultKind kind, std::uint64_t requests);

// Wraps route handlers with the plan; owns the one timer thread that releases held streams.
class FaultInjector {
 public:
  explicit FaultInjector(FaultPlan plan);
  ~FaultInjector();  // stop()
  FaultInjector(const FaultInjector&) = delete;
  FaultInjector& operator=(const FaultInjector&) = delete;

  // `handler` itself when the plan is empty.
  http::StreamHandler wrap(http::StreamHandler handler);
  // Drops held streams (their connections close) and joins the timer thread; idempotent.
  void stop();

  struct Timer;

 private:
  FaultPlan m_plan;
  std::atomic<std::uint64_t> m_next{0};
  std::shared_ptr<Timer> m_timer;
};

}  // namespace servebench::sim
