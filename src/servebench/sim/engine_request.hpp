#pragma once
// Engine-internal state of one request and of one micro-batch in flight. Only engine.hpp includes it
// (its containers need complete types); not part of the module's interface.
#include <optional>

#include "servebench/sim/output_tokens.hpp"
#include "servebench/sim/request.hpp"
#include "servebench/sim/seeded_rng.hpp"

namespace servebench::sim::detail {

// transfer: admitted on a decode server of a disaggregated deployment, its prompt's KV on the way.
enum class Phase { waiting, prefill, transfer, decode, done };

struct EngineRequest {
  RequestId id = 0;
  std::uint64_t tag = 0;  // the caller's, from submit()
  Phase phase = Phase::done;
  std::vector<std::int32_t> seq;  // prompt, then generated tokens
  std::int64_t prompt_len = 0;
  SamplingParams sampling;
  std::optional<OutputPlan> plan;  // points at `sampling`
  std::int64_t fill_target = 0;    // tokens that need KV before decoding (prompt, plus output after a retraction)
  std::int64_t filled = 0;         // of which are in KV
  std::int64_t chunk = 0;          // prefill tokens in the batch in flight
  int query_tokens = 0;            // decode/verify tokens in the batch in flight
  int draft_steps = 0;
  std::int64_t private_kv = 0;     // KV tokens held outside the radix tree
  std::int32_t node = 0;           // locked radix node (0 = none)
  int slot = -1;
  bool admitted_once = false;
  bool kv_remote = false;          // a decode server's request: the prompt's KV comes from the prefill server
  VirtualTime kv_ready{};          // Phase::transfer: when that KV has arrived
  VirtualTime ready_at{};          // Phase::waiting: when the front (HTTP, tokenizer) hands it to the scheduler
  std::uint64_t admission = 0;
  SeededRng spec_rng{0};
  RequestMeta meta;
  std::int64_t outputs() const { return static_cast<std::int64_t>(seq.size()) - prompt_len; }
};

struct InFlight {
  int slot = 0;
  VirtualTime done{};
  bool prefill = false;  // carries prefill chunks (some request may get its first token)
};

}  // namespace servebench::sim::detail
