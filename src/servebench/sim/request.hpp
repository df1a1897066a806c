#pragma once
// The request-level types the engine's callers see: what to generate, what came out, and its meta.
#include <cstdint>
#include <span>
#include <vector>

#include "servebench/sim/output_tokens.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::sim {

using RequestId = std::uint64_t;
using VirtualTime = util::TimePoint;  // engine start = VirtualTime{}

struct SimRequest {
  std::vector<std::int32_t> prompt;
  SamplingParams sampling;
};

struct RequestMeta {
  RequestId id = 0;
  std::int64_t prompt_tokens = 0, completion_tokens = 0;
  std::int64_t cached_device = 0, cached_host = 0;  // prefix-cache hits at first admission
  std::int64_t spec_verify_ct = 0;
  std::int64_t retractions = 0;
  FinishReason finish = FinishReason::none;
  VirtualTime arrival{}, first_token{}, finished{};
  std::int64_t cached_tokens() const { return cached_device + cached_host; }
};

// Tokens a request produced in one step. `tokens` and `meta` point into engine storage and stay
// valid until the next non-const call on the engine (a request has one event per step, so `meta` is
// its state after this event; a consumer that keeps it copies it).
struct TokenEvent {
  RequestId id = 0;
  std::span<const std::int32_t> tokens;
  bool first_token = false;
  FinishReason finish = FinishReason::none;  // none while the request runs on
  const RequestMeta* meta = nullptr;         // never null in an event the engine produced
  std::uint64_t tag = 0;                     // what the caller gave Engine::submit (0 by default)
};

}  // namespace servebench::sim
