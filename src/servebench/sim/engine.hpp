#pragma once
// The simulated SGLang scheduler on a virtual clock: FIFO waiting queue, running set bounded by
// max_running_requests and KV-pool admission, chunked prefill, decode of every running request,
// retraction when decode growth overflows the pool, radix prefix cache with a host tier, speculative
// decoding, CUDA-graph batch limit, and pipeline parallelism as micro-batches flowing through stages.
// Threading: one thread owns an Engine; other threads post work to that thread (not thread-safe).
// Deterministic: the same deployment and the same calls give the same times, tokens and logs.
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "servebench/sim/deployment.hpp"
#include "servebench/sim/engine_request.hpp"
#include "servebench/sim/kv_transfer.hpp"
#include "servebench/sim/output_tokens.hpp"
#include "servebench/sim/perf_model.hpp"
#include "servebench/sim/radix_cache.hpp"
#include "servebench/sim/seeded_rng.hpp"
#include "servebench/sim/step_log.hpp"
#include "servebench/sim/tokenizer.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::sim {

struct StepResult {
  std::chrono::nanoseconds duration{0};  // virtual time this step advanced
  std::span<const TokenEvent> events;    // at the step's end (now())
  std::span<const StepLog> logs;         // batches launched during the step
};

// Totals for /metrics (SGLang names in comments). Token counters count finished requests' prompts.
struct EngineCounters {
  std::int64_t prompt_tokens_total = 0;        // sglang:prompt_tokens_total
  std::int64_t cached_tokens_total = 0;        // sglang:cached_tokens_total (device + host)
  std::int64_t cached_device_tokens_total = 0, cached_host_tokens_total = 0;
  std::int64_t generation_tokens_total = 0;    // sglang:generation_tokens_total
  std::int64_t spec_verify_steps_total = 0;    // decode/verify passes of speculative requests
  std::int64_t spec_accepted_tokens_total = 0; // accepted draft tokens (excludes the bonus token)
  std::int64_t retractions_total = 0;
  std::int64_t requests_finished_total = 0;
  // A decode server of a disaggregated deployment: prompts received, their tokens, and the virtual
  // time from admission (KV pages allocated) until the KV had arrived, summed.
  std::int64_t kv_transfers_total = 0, kv_transfer_tokens_total = 0, kv_transfer_ns_total = 0;
  std::int64_t running = 0, queued = 0;        // sglang:num_running_reqs, sglang:num_queue_reqs
  std::int64_t used_tokens = 0, max_total_num_tokens = 0;
  double token_usage = 0;                      // sglang:token_usage
};

class Engine {
 public:
  explicit Engine(Deployment deployment);
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Queues a request at now(). On a prefill server (disaggregation) it generates one token at most;
  // on a decode server its prompt's KV arrives over the modelled link instead of being computed,
  // after the request holds pool space for it (kv_transfer.hpp). Fails (bad_input, SGLang's 400 text) when prompt + max_tokens exceeds
  // the context length, the prompt cannot fit the KV pool, or an id is outside the vocabulary.
  util::Result<RequestId> submit(SimRequest request);
  // The same for a prompt the caller keeps: it is copied into storage the engine reuses from
  // request to request, so a steady stream of submits allocates nothing. `tag` comes back in every
  // TokenEvent of the request (a caller's own index, so it needs no lookup by id per token).
  util::Result<RequestId> submit(std::span<const std::int32_t> prompt, SamplingParams sampling, std::uint64_t tag = 0);
  // Drops a request (client gone): its slot and KV are freed at once. False for an unknown id.
  bool cancel(RequestId id);
  // Ends a decoding request now as finished with "stop" (the front matched a stop string): frees it
  // like cancel() but counts it like any finished request (prompt/cached counters, radix insert).
  // A request that is not decoding between steps is cancelled instead. False for an unknown id.
  bool stop_early(RequestId id);
  // SGLang /flush_cache: false while anything runs or waits; else clears the prefix cache (the host
  // tier too, unless the deployment keeps it).
  bool flush_cache();
  // Runs scheduler iterations up to the next batch completion and returns what it produced; a zero
  // duration with no events when idle.
  StepResult step();

  bool idle() const;  // nothing running, in flight or waiting
  VirtualTime now() const { return m_now; }
  // Lets virtual time pass while idle (a real-time front keeps it in step with the wall clock);
  // ignored when `t` is not later than now().
  void advance_to(VirtualTime t);

  EngineCounters counters() const;
  std::optional<RequestMeta> meta(RequestId id) const;
  const Deployment& deployment() const { return m_d; }
  const Tokenizer& tokenizer() const { return m_tokenizer; }
  const PerfModel& perf_model() const { return m_perf; }

 private:
  using Phase = detail::Phase;
  using Request = detail::EngineRequest;
  using InFlight = detail::InFlight;

  // engine_launch.cpp: forming and launching one micro-batch
  bool launch(int slot, VirtualTime at);
  bool slot_busy(int slot) const;
  void admit(int slot, BatchShape& shape, StepLog& log, std::int64_t& budget);
  bool try_admit(std::int32_t r, int slot, std::int64_t headroom, std::int64_t& host_load);
  void join_slot(std::int32_t r, int slot);  // an admitted request joins micro-batch `slot`'s running set
  // engine_transfer.cpp: a decode server's requests whose KV arrives from the prefill server
  bool admit_remote(std::int32_t r, int slot, std::int64_t headroom);
  void receive_arrived(int slot, VirtualTime at);
  bool advance_to_next_arrival();
  void continue_prefill(int slot, BatchShape& shape, StepLog& log, std::int64_t& budget);
  void add_decodes(int slot, BatchShape& shape, StepLog& log);
  bool make_room(std::int64_t tokens);
  void retract(std::int32_t r);
  std::int64_t reserved_decode_tokens() const;
  void run_iterations();
  // engine.cpp: completing a micro-batch
  void complete(std::size_t in_flight_index);
  void plan_outputs(std::span<const std::int32_t> members);
  void finish_prefill(Request& q, std::int32_t r);
  void emit(Request& q, std::int32_t r, int drawn);
  void finish(Request& q, std::int32_t r, FinishReason why);
  void release_kv(Request& q);
  std::int64_t available_tokens() const;
  Request& req(std::int32_t r) { return *m_requests[static_cast<std::size_t>(r)]; }
  const Request& req(std::int32_t r) const { return *m_requests[static_cast<std::size_t>(r)]; }
  std::int64_t used_tokens() const;

  Deployment m_d;
  PerfModel m_perf;
  Tokenizer m_tokenizer;
  RadixCache m_cache;
  bool m_radix = true;
  VirtualTime m_now{};
  // Each request at a stable address (OutputPlan points into it), reached per token with one load (a
  // deque's index arithmetic cost more); reused via m_free_requests.
  std::vector<std::unique_ptr<Request>> m_requests;
  std::vector<std::int32_t> m_free_requests, m_release_next_step;
  std::unordered_map<RequestId, std::int32_t> m_by_id;
  std::deque<std::int32_t> m_waiting;
  std::vector<std::vector<std::int32_t>> m_slots;  // running requests per micro-batch slot, admission order
  std::vector<std::int64_t> m_prefilling;          // of which are in Phase::prefill
  std::vector<std::int64_t> m_transferring;        // ... in Phase::transfer (the rest decode)
  std::optional<KvTransferLink> m_link;            // a decode server's receiving link
  VirtualTime m_launch_at{};                       // the launch being formed (launch())
  std::vector<VirtualTime> m_stage_free;
  std::vector<InFlight> m_in_flight;
  int m_next_slot = 0;
  RequestId m_next_id = 1;
  std::uint64_t m_admissions = 0;
  std::int64_t m_private_tokens = 0;  // KV held by requests outside the radix tree
  double m_new_token_ratio;
  std::int64_t m_running = 0;
  EngineCounters m_counters;
  std::vector<TokenEvent> m_events;
  std::vector<std::int32_t> m_members;                      // complete(): the micro-batch's requests
  std::vector<std::span<const std::int32_t>> m_hash_inputs;  // plan_outputs(): prompts to hash
  std::vector<std::uint64_t> m_hashes;
  std::vector<StepLog> m_logs;
  VirtualTime m_last_decode_log{};
  std::int64_t m_generated_since_log = 0;
};

}  // namespace servebench::sim
