#pragma once
// One adapter per engine: everything engine-specific about the control plane — cache flush,
// idle wait, server-side counters and the hit-rate / acceptance-length formulas, server facts,
// tokenize/detokenize, health — behind one interface, talking through http::Exchange.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/flags/flag_registry.hpp"
#include "servebench/http/exchange.hpp"
#include "servebench/util/clock.hpp"
#include "servebench/util/result.hpp"
#include "servebench/wire/client_request.hpp"
#include "servebench/wire/prometheus.hpp"
#include "servebench/wire/server_facts.hpp"

namespace servebench::engines {

enum class Engine { sglang, vllm, llamacpp, trtllm, openai, sim };
std::string_view to_string(Engine e);
util::Result<Engine> parse_engine(std::string_view name);  // bad_input listing the names
flags::Dialect dialect_of(Engine e);                       // sim -> sglang, openai -> generic
wire::Backend default_backend(Engine e);                   // the load generator's route for the engine
Engine engine_of(wire::Backend b);                         // the engine a load-generator backend talks to

// Server-side counters at one moment (from /metrics); absent when the engine does not export one.
struct Counters {
  std::optional<double> prompt_tokens;        // prompt tokens as the engine counts them (see hit_rate)
  std::optional<double> cached_tokens;        // prefix-cache hit tokens
  std::optional<double> generation_tokens;
  std::optional<double> spec_drafts;          // verification steps
  std::optional<double> spec_draft_tokens;
  std::optional<double> spec_accepted_tokens;  // accepted draft tokens (bonus token excluded)
  std::optional<double> running, queued;       // gauges
  // serve-sim only: its engine loop's step lateness histogram (seconds), cumulative buckets.
  std::vector<wire::Bucket> sim_step_lateness;
};

struct Health {
  bool ready = false;
  int status = 0;
  std::string detail;  // the body when not ready
};

enum class SpecialTokens { add, omit };

// Waits between polls; tests advance a ManualClock instead of sleeping.
class Pacer {
 public:
  virtual ~Pacer() = default;
  virtual void pause(util::Nanos d) = 0;
};
Pacer& sleeping_pacer();  // std::this_thread::sleep_for

class EngineAdapter {
 public:
  virtual ~EngineAdapter() = default;
  virtual Engine engine() const = 0;
  // Empties the prefix cache, retrying while the server is busy until `deadline`. Fails naming
  // the engine and what to change when the server cannot flush (route missing, not enabled).
  virtual util::Result<void> flush(http::Exchange& ex, util::TimePoint deadline) = 0;
  // Returns once nothing is running or queued; fails at `deadline` or when the engine shows no idle signal.
  virtual util::Result<void> wait_idle(http::Exchange& ex, util::TimePoint deadline) = 0;
  // Reads the counters; fails when /metrics is missing (naming the flag that enables it).
  virtual util::Result<Counters> snapshot(http::Exchange& ex) = 0;
  // Prefix-cache hit rate between two snapshots with the engine's formula; fails when the counters
  // are absent or no prompt token was counted in between.
  virtual util::Result<double> hit_rate(const Counters& before, const Counters& after) const = 0;
  // Mean acceptance length (bonus token included) between two snapshots; nullopt when the engine's
  // counters do not tell (SGLang: use per-request meta, accept_length_from_meta) or nothing was drafted.
  virtual std::optional<double> accept_length(const Counters& before, const Counters& after) const = 0;
  // The acceptance length the server itself reports, for runs whose responses and counters carry
  // none (SGLang's OpenAI routes: /server_info `internal_states[].avg_spec_accept_length`, the
  // server's running average, as sglang.bench_serving reads it); nullopt when it reports none.
  virtual std::optional<double> reported_accept_length(http::Exchange& ex) { return std::nullopt; }
  // What the server says about itself; fails when its info routes cannot be read.
  virtual util::Result<wire::ServerFacts> facts(http::Exchange& ex) = 0;
  virtual util::Result<wire::TokenIds> tokenize(http::Exchange& ex, std::string_view text, SpecialTokens special) = 0;
  virtual util::Result<std::string> detokenize(http::Exchange& ex, std::span<const std::int32_t> tokens) = 0;
  // The vocabulary size when the engine reports it (llama.cpp), else nullopt.
  virtual util::Result<std::optional<std::int64_t>> vocab_size(http::Exchange& ex) = 0;
  // The first model id of /v1/models.
  virtual util::Result<std::string> models(http::Exchange& ex) = 0;
  // GET /health: ready on 200; fails only when the server cannot be reached.
  virtual util::Result<Health> health(http::Exchange& ex) = 0;
};

// The adapter for an engine name ("sglang", "vllm", "llamacpp", "trtllm", "openai", "sim").
util::Result<std::unique_ptr<EngineAdapter>> make_adapter(std::string_view engine,
                                                          const util::Clock& clock = util::steady_clock(),
                                                          Pacer& pacer = sleeping_pacer());
std::unique_ptr<EngineAdapter> make_adapter(Engine engine, const util::Clock& clock = util::steady_clock(),
                                            Pacer& pacer = sleeping_pacer());

// SGLang's per-request definition: Σ completion_tokens / Σ meta_info.spec_verify_ct.
std::optional<double> accept_length_from_meta(std::int64_t completion_tokens, std::int64_t spec_verify_ct);

}  // namespace servebench::engines
