#pragma once
// The bench load model on the engine's virtual clock: the same prompts, concurrency cap and
// arrival schedule `load::run` sends over HTTP, given to a sim::Engine directly — no sockets, no
// sleeping. It reproduces the serving loop's order exactly (serve-sim takes new requests only
// between engine steps): a request sent while the engine is busy joins the first step that starts
// after it was sent, so a closed-loop follow-up sent when a request finishes waits for the step
// that was already launched, as it does against the live server. Times are offsets from the
// phase's start in virtual nanoseconds, recorded as load::RequestRecord so the metric code is the
// bench's own. Multi-turn prompts (`after`) run as the bench runs them: a turn is sent when the one
// before it ended plus the think time, on the same concurrency slot.
//
// A fleet (`plan --replicas N`): N engines of the same deployment behind a router, on one global
// virtual clock — every engine's step ends, arrivals and think times are taken in time order across
// the engines, and each request is routed when it is sent (router.hpp), its replica and the
// router's reason going on its record.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "servebench/load/prompt.hpp"
#include "servebench/load/request_record.hpp"
#include "servebench/plan/router.hpp"
#include "servebench/sim/engine.hpp"
#include "servebench/util/result.hpp"

namespace servebench::plan {

struct VirtualLoad {
  std::span<const load::Prompt> prompts;        // in send order
  // Instead of `prompts`: `count` prompts made one at a time as each is sent, so a million-request
  // run never holds its prompts (generate(i, out) fills prompt i).
  std::size_t count = 0;
  std::function<void(std::size_t, load::Prompt&)> generate;
  std::optional<std::int64_t> max_concurrency;  // nullopt: no cap
  std::vector<util::Nanos> offsets;             // open loop: due times (one per prompt); empty: closed loop
  std::size_t size() const { return generate ? count : prompts.size(); }
  bool ignore_eos = true;                       // also sets min_tokens = max_tokens, as the bench does
  double temperature = 0;
  std::optional<std::uint64_t> seed;
  std::optional<std::int64_t> max_tokens_cap;   // the bench's warmup cap
  std::int64_t step_limit = 2'000'000'000;      // a bound on engine steps (never reached by a sane load)
};

// Receives each request when it ends and the token-bearing chunks it produced, in time order.
// The records are not kept when a sink is given, so memory stays bounded by the requests in flight.
class RequestSink {
 public:
  virtual ~RequestSink() = default;
  virtual void on_request(const load::RequestRecord& record, std::span<const load::ChunkMark> chunks) = 0;
};

struct VirtualPhase {
  std::vector<load::RequestRecord> records;  // index order (empty with a sink)
  std::vector<load::ChunkMark> chunks;       // grouped by request, time order inside (empty with a sink)
  util::Nanos span{0};                       // phase start → last request end
  std::int64_t steps = 0;                    // engine steps taken
  std::int64_t requests = 0;                 // requests that ended
};

// The engines a load runs on: one, or replicas of one deployment behind a router.
struct Fleet {
  std::span<sim::Engine* const> engines;  // idle when the phase starts
  Router* router = nullptr;               // required with more than one engine; it sees prompts only
                                          // from `prompts` (generated prompts are routed blind)
};

// Runs every prompt to its end from engine.now(). A prompt the engine refuses (too long for the
// context or the KV pool) becomes a failed record (http_status 400, the engine's message), like
// the live server's answer. Fails (failed) only when the step bound is reached or the engines
// stall with requests waiting, (bad_input) for an open-loop schedule of multi-turn prompts.
util::Result<VirtualPhase> run_virtual(sim::Engine& engine, const VirtualLoad& load, RequestSink* sink = nullptr);
// The same on a fleet, from the latest now() of its engines (the others wait idle until then).
util::Result<VirtualPhase> run_virtual(const Fleet& fleet, const VirtualLoad& load, RequestSink* sink = nullptr);

}  // namespace servebench::plan
