// Engine: requests in and out, the step loop, and what happens when a micro-batch completes.
#include "servebench/sim/engine.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "servebench/sim/speculative.hpp"

namespace servebench::sim {
namespace {

constexpr std::int64_t k_seq_reserve_cap = 1 << 16;  // output tokens reserved up front per request
constexpr std::size_t k_seq_keep_capacity = 1 << 17;  // token storage a freed request keeps for the next

}  // namespace

Engine::Engine(Deployment deployment)
    : m_d(std::move(deployment)),
      m_perf(m_d),
      m_tokenizer(Tokenizer::for_model(m_d.model)),
      m_cache(m_d.config.page_size, m_d.memory.host_pool_tokens),
      m_radix(!m_d.config.disable_radix_cache),
      m_slots(static_cast<std::size_t>(m_d.config.pp_size)),
      m_prefilling(static_cast<std::size_t>(m_d.config.pp_size)),
      m_transferring(static_cast<std::size_t>(m_d.config.pp_size)),
      m_stage_free(static_cast<std::size_t>(m_d.config.pp_size)),
      m_new_token_ratio(m_d.config.init_new_token_ratio) {
  m_counters.max_total_num_tokens = m_d.memory.max_total_num_tokens;
  const DisaggregationConfig& pd = m_d.config.disaggregation;
  if (pd.mode == DisaggregationMode::decode) {
    m_link.emplace(kv_transfer_model(m_d));
    m_radix = m_radix && pd.decode_enable_radix_cache;  // SGLang's decode servers cache no prefixes by default
  }
}

util::Result<RequestId> Engine::submit(SimRequest request) {
  return submit(std::span<const std::int32_t>(request.prompt), std::move(request.sampling));
}

util::Result<RequestId> Engine::submit(std::span<const std::int32_t> ids, SamplingParams sampling, std::uint64_t tag) {
  const auto prompt = static_cast<std::int64_t>(ids.size());
  const std::int64_t max_tokens = sampling.max_tokens;
  if (prompt == 0) return util::fail(util::ErrorKind::bad_input, "the prompt is empty");
  if (max_tokens < 1) return util::fail(util::ErrorKind::bad_input, "max_tokens must be >= 1");
  // Compared as a difference: prompt + max_tokens overflows for max_tokens near 2^63.
  if (max_tokens > m_d.context_length - prompt) {
    const auto total = static_cast<std::uint64_t>(prompt) + static_cast<std::uint64_t>(max_tokens);
    return util::failf(util::ErrorKind::bad_input,
                       "Requested token count exceeds the model's maximum context length of {} tokens. You requested "
                       "a total of {} tokens: {} tokens from the input messages and {} tokens for the completion. "
                       "Please reduce the number of tokens in the input messages or the completion to fit within the "
                       "limit.",
                       m_d.context_length, total, prompt, max_tokens);
  }
  if (prompt > m_d.max_req_input_len) {
    return util::failf(util::ErrorKind::bad_input, "input length {} exceeds the maximum allowed length {}", prompt,
                       m_d.max_req_input_len);
  }
  // One pass without an early exit, in signed compares (SSE2 has no unsigned one; it vectorizes only
  // so); the first id outside is looked up only on failure. Ids run to 2^31 - 2 at most.
  const auto vocab = static_cast<std::int32_t>(
      std::clamp<std::int64_t>(m_tokenizer.vocab_size(), 0, std::numeric_limits<std::int32_t>::max()));
  const auto outside = [vocab](std::int32_t id) { return static_cast<std::int32_t>(id < 0) | static_cast<std::int32_t>(id >= vocab); };
  std::int32_t any_outside = 0;
  for (std::int32_t id : ids) any_outside |= outside(id);
  if (any_outside != 0) {
    const auto bad = *std::find_if(ids.begin(), ids.end(), outside);
    return util::failf(util::ErrorKind::bad_input, "token id {} is outside the vocabulary", bad);
  }
  if (m_d.config.disaggregation.mode == DisaggregationMode::prefill) {  // the decode server generates the rest
    sampling.max_tokens = 1;
    sampling.min_tokens = std::min<std::int64_t>(sampling.min_tokens, 1);
  }
  std::int32_t r;
  if (!m_free_requests.empty()) {
    r = m_free_requests.back();
    m_free_requests.pop_back();
  } else {
    r = static_cast<std::int32_t>(m_requests.size());
    m_requests.push_back(std::make_unique<Request>());
  }
  Request& q = req(r);
  std::vector<std::int32_t> storage = std::move(q.seq);  // a freed request's token storage, reused
  q = Request{};
  q.seq = std::move(storage);
  q.seq.clear();
  q.seq.reserve(static_cast<std::size_t>(prompt + std::min(max_tokens, k_seq_reserve_cap)));
  q.seq.assign(ids.begin(), ids.end());
  q.id = m_next_id++;
  q.tag = tag;
  q.phase = Phase::waiting;
  q.sampling = std::move(sampling);
  q.prompt_len = prompt;
  q.fill_target = prompt;
  q.kv_remote = m_link.has_value();
  // q.plan is made when the prompt's prefill completes (plan_outputs), when its first token is due.
  q.spec_rng = SeededRng(mix64(m_d.config.sim_seed ^ 0x73706563ULL, q.id));
  q.meta.id = q.id;
  q.meta.prompt_tokens = prompt;
  q.meta.arrival = m_now;
  q.ready_at = m_now + m_d.hardware.efficiency.per_request;
  m_by_id.emplace(q.id, r);
  m_waiting.push_back(r);
  return q.id;
}

bool Engine::cancel(RequestId id) {
  const auto it = m_by_id.find(id);
  if (it == m_by_id.end()) return false;
  const std::int32_t r = it->second;
  Request& q = req(r);
  if (q.phase == Phase::waiting) {
    m_waiting.erase(std::find(m_waiting.begin(), m_waiting.end(), r));
  } else {
    auto& list = m_slots[static_cast<std::size_t>(q.slot)];
    list.erase(std::find(list.begin(), list.end(), r));
    if (q.phase == Phase::prefill) m_prefilling[static_cast<std::size_t>(q.slot)] -= 1;
    if (q.phase == Phase::transfer) m_transferring[static_cast<std::size_t>(q.slot)] -= 1;
    m_running -= 1;
    release_kv(q);
  }
  q.phase = Phase::done;
  q.meta.finish = FinishReason::abort;
  m_by_id.erase(it);
  m_release_next_step.push_back(r);
  return true;
}

bool Engine::stop_early(RequestId id) {
  const auto it = m_by_id.find(id);
  if (it == m_by_id.end()) return false;
  const std::int32_t r = it->second;
  Request& q = req(r);
  if (q.phase != Phase::decode || q.chunk > 0 || q.query_tokens > 0) return cancel(id);
  finish(q, r, FinishReason::stop);
  return true;
}

bool Engine::flush_cache() {
  if (!idle()) return false;
  m_cache.flush(m_d.config.flush_keeps_host_tier ? FlushScope::device_only : FlushScope::everything);
  return true;
}

bool Engine::idle() const { return m_waiting.empty() && m_running == 0 && m_in_flight.empty(); }

void Engine::advance_to(VirtualTime t) {
  if (t <= m_now) return;
  m_now = t;
  for (auto& s : m_stage_free) s = std::max(s, t);
}

bool Engine::slot_busy(int slot) const {
  return std::any_of(m_in_flight.begin(), m_in_flight.end(), [slot](const InFlight& f) { return f.slot == slot; });
}

StepResult Engine::step() {
  for (std::int32_t r : m_release_next_step) {
    auto& seq = req(r).seq;
    if (seq.capacity() > k_seq_keep_capacity) seq = {};  // a long request's storage is not kept
    m_free_requests.push_back(r);
  }
  m_release_next_step.clear();
  m_events.clear();
  m_logs.clear();
  const VirtualTime start = m_now;
  run_iterations();
  // A decode server whose only work is KV on its way: its clock moves to the first arrival.
  const bool nothing_ran = m_now == start && m_events.empty() && m_logs.empty() && m_in_flight.empty();
  if (nothing_ran && advance_to_next_arrival()) run_iterations();
  return {m_now - start, m_events, m_logs};
}

void Engine::run_iterations() {
  const int slots = m_d.config.pp_size;
  // Launch micro-batches until the earliest one in flight completes; return with its tokens.
  for (int launches = 0; launches <= slots; ++launches) {
    const VirtualTime at = std::max(m_now, m_stage_free[0]);
    const auto first = std::min_element(m_in_flight.begin(), m_in_flight.end(),
                                         [](const InFlight& a, const InFlight& b) { return a.done < b.done; });
    if (first != m_in_flight.end() && first->done <= at) {
      complete(static_cast<std::size_t>(first - m_in_flight.begin()));
      break;
    }
    bool launched = false;
    for (int k = 0; k < slots && !launched; ++k) {
      const int s = (m_next_slot + k) % slots;
      if (slot_busy(s) || !launch(s, at)) continue;
      m_now = at;
      m_next_slot = (s + 1) % slots;
      launched = true;
    }
    if (launched) continue;
    if (first != m_in_flight.end()) complete(static_cast<std::size_t>(first - m_in_flight.begin()));
    break;
  }
}

// Inline in complete(), its caller for every token: the call (register saves and restores) cost a
// fifth as much as its body.
[[gnu::always_inline]] inline void Engine::emit(Request& q, std::int32_t r, int drawn) {
  const std::size_t from = q.seq.size();
  const bool verify = q.query_tokens > 0;
  FinishReason why = FinishReason::none;
  q.seq.push_back(q.plan->next(static_cast<std::int64_t>(from) - q.prompt_len, why));  // drawn >= 1
  for (int k = 1; k < drawn && why == FinishReason::none; ++k) {
    q.seq.push_back(q.plan->next(q.outputs(), why));
  }
  const auto n = static_cast<std::int64_t>(q.seq.size() - from);
  if (verify) {  // return the speculative slots that were not accepted
    const std::int64_t unused = std::max<std::int64_t>(q.query_tokens - n, 0);
    q.private_kv -= unused;
    m_private_tokens -= unused;
    q.query_tokens = 0;
    if (m_d.spec.enabled) {
      q.meta.spec_verify_ct += 1;
      m_counters.spec_verify_steps_total += 1;
      m_counters.spec_accepted_tokens_total += n - 1;
    }
  }
  m_counters.generation_tokens_total += n;
  m_generated_since_log += n;
  const bool first = from == static_cast<std::size_t>(q.prompt_len);
  if (first) q.meta.first_token = m_now;
  q.meta.completion_tokens = q.outputs();
  if (why != FinishReason::none) finish(q, r, why);
  m_events.push_back({q.id, std::span<const std::int32_t>(q.seq.data() + from, static_cast<std::size_t>(n)), first,
                      why, &q.meta, q.tag});
}

void Engine::complete(std::size_t index) {
  const InFlight f = m_in_flight[index];
  m_in_flight.erase(m_in_flight.begin() + static_cast<std::ptrdiff_t>(index));
  m_now = std::max(m_now, f.done);
  const auto& list = m_slots[static_cast<std::size_t>(f.slot)];
  m_members.assign(list.begin(), list.end());  // finishing edits `list`
  if (f.prefill) plan_outputs(m_members);
  for (std::int32_t r : m_members) {
    Request& q = req(r);
    if (q.chunk > 0) {
      q.filled += q.chunk;
      q.chunk = 0;
      if (q.filled == q.fill_target) finish_prefill(q, r);
    } else if (q.query_tokens > 0) {
      const int drawn = q.draft_steps > 0 ? tokens_per_verify(m_d.spec.accept_rates, q.draft_steps, q.spec_rng) : 1;
      emit(q, r, drawn);
    }
  }
}

// The output plan of every request whose prefill completes in this batch: their prompts are hashed
// together (hash_prompts), which is several times faster than one at a time.
void Engine::plan_outputs(std::span<const std::int32_t> members) {
  m_hash_inputs.clear();
  for (std::int32_t r : members) {
    const Request& q = req(r);
    if (q.chunk > 0 && !q.plan && q.filled + q.chunk == q.fill_target)
      m_hash_inputs.emplace_back(q.seq.data(), static_cast<std::size_t>(q.prompt_len));
  }
  if (m_hash_inputs.empty()) return;
  m_hashes.resize(m_hash_inputs.size());
  hash_prompts(m_hash_inputs, m_hashes);
  std::size_t k = 0;
  for (std::int32_t r : members) {
    Request& q = req(r);
    if (q.chunk > 0 && !q.plan && q.filled + q.chunk == q.fill_target)
      q.plan.emplace(m_tokenizer, m_hashes[k++], q.sampling, mix64(m_d.config.sim_seed, q.id),
                     m_d.config.sim_eos_probability);
  }
}

void Engine::finish_prefill(Request& q, std::int32_t r) {
  q.phase = Phase::decode;
  m_prefilling[static_cast<std::size_t>(q.slot)] -= 1;
  if (m_radix) {
    const auto ins = m_cache.insert(std::span(q.seq.data(), static_cast<std::size_t>(q.fill_target)));
    m_cache.lock(ins.node);
    if (q.node != 0) m_cache.unlock(q.node);
    q.node = ins.node;
    const std::int64_t keep = std::max<std::int64_t>(q.fill_target - ins.length, 0);
    m_private_tokens -= q.private_kv - keep;
    q.private_kv = keep;
  }
  emit(q, r, 1);
}

void Engine::finish(Request& q, std::int32_t r, FinishReason why) {
  q.meta.finish = why;
  q.meta.finished = m_now;
  if (m_radix && q.seq.size() > 1) {  // SGLang caches the finished sequence (the last token has no KV yet)
    const auto ins = m_cache.insert(std::span(q.seq.data(), q.seq.size() - 1));
    m_cache.lock(ins.node);
    if (q.node != 0) m_cache.unlock(q.node);
    q.node = ins.node;
  }
  release_kv(q);
  auto& list = m_slots[static_cast<std::size_t>(q.slot)];
  list.erase(std::find(list.begin(), list.end(), r));
  m_running -= 1;
  q.phase = Phase::done;
  m_counters.prompt_tokens_total += q.prompt_len;
  m_counters.cached_device_tokens_total += q.meta.cached_device;
  m_counters.cached_host_tokens_total += q.meta.cached_host;
  m_counters.cached_tokens_total += q.meta.cached_tokens();
  m_counters.requests_finished_total += 1;
  m_by_id.erase(q.id);
  m_release_next_step.push_back(r);
}

void Engine::release_kv(Request& q) {
  m_private_tokens -= q.private_kv;
  q.private_kv = 0;
  q.chunk = 0;
  q.query_tokens = 0;
  if (q.node != 0) m_cache.unlock(q.node);
  q.node = 0;
}

std::int64_t Engine::used_tokens() const { return m_cache.device_tokens() + m_private_tokens; }

std::int64_t Engine::available_tokens() const { return m_d.memory.max_total_num_tokens - used_tokens(); }

std::optional<RequestMeta> Engine::meta(RequestId id) const {
  const auto it = m_by_id.find(id);
  if (it == m_by_id.end()) return std::nullopt;
  return req(it->second).meta;
}

EngineCounters Engine::counters() const {
  EngineCounters c = m_counters;
  c.running = m_running;
  c.queued = static_cast<std::int64_t>(m_waiting.size());
  c.used_tokens = used_tokens();
  c.token_usage = static_cast<double>(c.used_tokens) / static_cast<double>(c.max_total_num_tokens);
  return c;
}

}  // namespace servebench::sim
