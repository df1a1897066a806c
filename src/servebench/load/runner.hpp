#pragma once
// load::run — one benchmark run, the library entry point the CLI (`servebench bench`) and the
// campaign both call: health → model → facts → (flush) → warmup → counters → measured phase →
// counters → metrics and client-health verdict.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "servebench/load/metrics.hpp"
#include "servebench/load/phase.hpp"
#include "servebench/load/prompt.hpp"
#include "servebench/load/run_result.hpp"
#include "servebench/load/run_settings.hpp"
#include "servebench/load/schedule.hpp"
#include "servebench/load/server_control.hpp"
#include "servebench/wire/client_request.hpp"

namespace servebench::load {

struct RequestSettings {
  bool stream = true;
  bool ignore_eos = true;
  std::optional<double> temperature = 0.0;
  std::optional<std::uint64_t> seed{};
  bool cache_prompt = true;  // llama.cpp only: false sends cache_prompt:false (cold-cache runs)
  std::string extra_body;    // a JSON object merged into every request body
  util::Nanos timeout{0};    // per request; zero: none
  util::Nanos stall_timeout{0};  // no response byte for this long ends a request as `stalled`; zero: none
};

struct RunSpec {
  wire::Backend backend = wire::Backend::sglang;
  std::string base_url;                 // "http://127.0.0.1:30000"
  std::string model;                    // empty: the server's first model
  std::string api_key;                  // sent as a bearer token; never written anywhere
  std::vector<Prompt> prompts;          // the measured requests, in send order
  std::vector<Prompt> warmup_prompts;   // sent first under the same cap; not measured
  std::optional<std::int64_t> max_concurrency{};  // nullopt: no cap
  std::optional<double> request_rate{};           // nullopt: all due at once
  std::vector<util::Nanos> send_offsets{};        // non-empty: each prompt due at its offset (trace replay)
  Arrival arrival = Arrival::poisson;
  double burstiness = 1.0;
  std::uint64_t seed = 0;               // the arrival schedule's seed
  RequestSettings request;
  int threads = 0;                      // event-loop threads; 0: one per hardware thread
  MetricOptions metrics;                // percentiles, goodput SLOs, GPU count
  bool flush_cache = false;
  double client_lag_limit = k_default_client_lag_limit;
  util::Nanos client_burn_per_read{0};  // a planted client fault (tests of the health gate)
  util::Nanos client_loop_stall{0};     // planted: each loop thread burns this much CPU every 100 ms
  std::function<void(const PhaseProgress&)> on_progress{};  // measured phase, from the calling thread
  // Set from a signal handler to stop the run early (PhaseSpec::interrupt): the result then holds the
  // requests that ended, with RunResult::interrupted.
  const std::atomic<bool>* interrupt = nullptr;
  const util::Clock* clock = &util::steady_clock();
  const util::WallClock* wall_clock = &util::system_wall_clock();
  const SettingNames* setting_names = &k_bench_flags;  // how the caller spells its settings, for messages
};

// Runs the benchmark. Fails with bad_input for an invalid spec (naming the field or flag),
// unreachable when the server is down at the start, and failed when every warmup request failed
// or the cache flush failed. Failed measured requests are data in the result, not a failure.
util::Result<RunResult> run(const RunSpec& spec, ServerControl& control);

// Checks a spec without touching the network (the checks run() starts with); a bad setting is
// named as the caller spells it (setting_names).
util::Result<void> validate(const RunSpec& spec);

}  // namespace servebench::load
