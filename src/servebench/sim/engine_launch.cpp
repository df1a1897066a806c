// Engine: forming one micro-batch (SGLang's get_next_batch_to_run) and launching it into the pipeline.
#include <algorithm>

#include "servebench/sim/engine.hpp"
#include "servebench/sim/speculative.hpp"

namespace servebench::sim {
namespace {

constexpr std::int64_t k_clip_max_new_tokens = 4096;  // SGLang CLIP_MAX_NEW_TOKENS for the admission estimate
constexpr double k_min_ratio_factor = 0.14;           // SGLang min_new_token_ratio = init * 0.14
constexpr double k_ratio_decay_steps = 600;           // ... reached after 600 decode batches

double remaining_estimate(std::int64_t max_tokens, std::int64_t outputs) {
  return static_cast<double>(std::min(max_tokens - outputs, k_clip_max_new_tokens));
}

}  // namespace

bool Engine::launch(int slot, VirtualTime at) {
  BatchShape shape;
  StepLog log;
  log.micro_batch = slot;
  std::int64_t budget = m_d.chunked_prefill_size;
  m_launch_at = at;
  receive_arrived(slot, at);
  // A mixed batch's decodes take their share of the prefill budget (SGLang's PrefillAdder subtracts
  // the running batch; vLLM schedules the decodes first).
  const auto s = static_cast<std::size_t>(slot);
  if (m_d.mixed_chunk) budget -= static_cast<std::int64_t>(m_slots[s].size()) - m_prefilling[s];
  continue_prefill(slot, shape, log, budget);
  admit(slot, shape, log, budget);
  receive_arrived(slot, at);  // KV that arrives at once (a `fake` transfer) decodes in this batch
  const bool prefill = shape.prefill_chunks > 0;
  if (!prefill || m_d.mixed_chunk) add_decodes(slot, shape, log);
  if (shape.tokens() == 0) return false;
  shape.cuda_graph = !prefill && shape.decode_requests <= m_d.cuda_graph_max_bs;
  const StepCost cost = m_perf.stage_time(shape);
  VirtualTime t = at;
  for (auto& free : m_stage_free) {  // the micro-batch passes every stage in order
    t = std::max(t, free) + cost.total;
    free = t;
  }
  m_in_flight.push_back({slot, t, prefill});
  log.kind = prefill ? BatchKind::prefill : BatchKind::decode;
  log.at = at - VirtualTime{};
  log.duration = cost.total;
  log.running_req = m_running;
  log.queue_req = static_cast<std::int64_t>(m_waiting.size());
  log.token_count = used_tokens();
  log.token_usage = static_cast<double>(log.token_count) / static_cast<double>(m_d.memory.max_total_num_tokens);
  log.cuda_graph = shape.cuda_graph;
  log.new_token_ratio = m_new_token_ratio;
  if (!prefill) {
    const auto elapsed = std::chrono::duration<double>(at - m_last_decode_log).count();
    log.gen_throughput = elapsed > 0 ? static_cast<double>(m_generated_since_log) / elapsed : 0;
    const auto verify = m_counters.spec_verify_steps_total;
    log.accept_length = m_d.spec.enabled && verify > 0
                            ? 1.0 + static_cast<double>(m_counters.spec_accepted_tokens_total) / static_cast<double>(verify)
                            : 0;
    m_last_decode_log = at;
    m_generated_since_log = 0;
  }
  m_logs.push_back(log);
  return true;
}

void Engine::continue_prefill(int slot, BatchShape& shape, StepLog& log, std::int64_t& budget) {
  // The chunked request counts as a sequence of this prefill batch, as in SGLang's log.
  if (m_prefilling[static_cast<std::size_t>(slot)] == 0) return;
  for (std::int32_t r : m_slots[static_cast<std::size_t>(slot)]) {
    Request& q = req(r);
    if (q.phase != Phase::prefill || budget <= 0) continue;
    q.chunk = std::min(budget, q.fill_target - q.filled);
    m_perf.add_prefill(shape, q.filled, q.chunk);
    budget -= q.chunk;
    log.new_seq += 1;
    log.new_tokens += q.chunk;
  }
}

std::int64_t Engine::reserved_decode_tokens() const {
  double reserved = 0;
  for (const auto& list : m_slots) {
    for (std::int32_t r : list) {
      const Request& q = req(r);
      reserved += remaining_estimate(q.sampling.max_tokens, q.outputs());
    }
  }
  return static_cast<std::int64_t>(reserved * m_new_token_ratio);
}

void Engine::admit(int slot, BatchShape& shape, StepLog& log, std::int64_t& budget) {
  // With PP each micro-batch holds at most max_running_requests / pp_size (SGLang pp_max_micro_batch_size),
  // and requests are spread evenly over the micro-batches so the pipeline fills.
  const auto& members = m_slots[static_cast<std::size_t>(slot)];
  const int pp = m_d.config.pp_size;
  const auto per_slot = static_cast<std::size_t>(std::max(1, m_d.max_running_requests / pp));
  const auto fair = [&] {
    const auto total = static_cast<std::size_t>(m_running) + m_waiting.size();
    return members.size() < (total + static_cast<std::size_t>(pp) - 1) / static_cast<std::size_t>(pp);
  };
  const auto room = [&] {
    // The queue is FIFO and every request spends the same time in the front, so the head is the first ready.
    return budget > 0 && !m_waiting.empty() && req(m_waiting.front()).ready_at <= m_launch_at &&
           m_running < m_d.max_running_requests && members.size() < per_slot && fair();
  };
  if (!room()) return;
  std::int64_t reserved = reserved_decode_tokens();
  while (room()) {
    const std::int32_t r = m_waiting.front();
    Request& q = req(r);
    const auto own = static_cast<std::int64_t>(remaining_estimate(q.sampling.max_tokens, q.outputs()) * m_new_token_ratio);
    // SGLang keeps room for the running requests' future tokens; with nothing running, admit if it fits.
    const std::int64_t headroom = m_running == 0 ? 0 : reserved + own;
    const bool remote = q.kv_remote;
    if (!(remote ? admit_remote(r, slot, headroom) : try_admit(r, slot, headroom, shape.host_load_tokens))) break;
    m_waiting.pop_front();
    reserved += own;
    if (remote) continue;  // nothing to compute: its KV arrives (receive_arrived)
    shape.new_requests += 1;
    q.chunk = std::min(budget, q.fill_target - q.filled);
    m_perf.add_prefill(shape, q.filled, q.chunk);
    budget -= q.chunk;
    log.new_seq += 1;
    log.new_tokens += q.chunk;
    log.cached_tokens += q.filled;
  }
}

bool Engine::try_admit(std::int32_t r, int slot, std::int64_t headroom, std::int64_t& host_load) {
  Request& q = req(r);
  PrefixMatch m;
  if (m_radix) m = m_cache.match(std::span(q.seq.data(), static_cast<std::size_t>(q.fill_target)));
  const std::int64_t device_hit = m.device_tokens;
  // At least the last token is recomputed: its logits give the next token.
  const std::int64_t filled = std::min(m.device_tokens + m.host_tokens, q.fill_target - 1);
  const std::int64_t private_kv = q.fill_target - filled;
  const std::int64_t need = private_kv + m.host_tokens;
  m_cache.lock(m.node);
  if (available_tokens() + m_cache.evictable_tokens() < need + headroom || !make_room(need)) {
    m_cache.unlock(m.node);
    return false;
  }
  if (m.host_tokens > 0) {
    host_load += m.host_tokens;
    m_cache.load_host(m);
  }
  if (!q.admitted_once) {
    q.admitted_once = true;
    q.meta.cached_device = std::min(device_hit, filled);
    q.meta.cached_host = filled - q.meta.cached_device;
  }
  q.node = m.node;
  q.private_kv = private_kv;
  m_private_tokens += private_kv;
  q.filled = filled;
  q.phase = Phase::prefill;
  m_prefilling[static_cast<std::size_t>(slot)] += 1;
  join_slot(r, slot);
  return true;
}

void Engine::join_slot(std::int32_t r, int slot) {
  Request& q = req(r);
  q.slot = slot;
  q.admission = ++m_admissions;
  m_slots[static_cast<std::size_t>(slot)].push_back(r);
  m_running += 1;
}

bool Engine::make_room(std::int64_t tokens) {
  const std::int64_t short_by = tokens - available_tokens();
  if (short_by > 0) m_cache.evict(short_by);
  return available_tokens() >= tokens;
}

void Engine::add_decodes(int slot, BatchShape& shape, StepLog& log) {
  auto& list = m_slots[static_cast<std::size_t>(slot)];
  // A running request is prefilling or decoding.
  const auto decoding = [&] {
    const auto s = static_cast<std::size_t>(slot);
    return static_cast<std::int64_t>(list.size()) - m_prefilling[s] - m_transferring[s];
  };
  int batch = static_cast<int>(decoding());
  if (batch == 0) return;
  int steps = draft_steps(m_d.spec, batch);
  int query = steps > 0 ? (m_d.spec.topk == 1 ? steps + 1 : m_d.spec.num_draft_tokens) : 1;
  while (batch > 0 && !make_room(static_cast<std::int64_t>(batch) * query)) {
    // Retract the newest decoding request of this micro-batch (SGLang retract_decode) and re-plan.
    const auto newest = std::find_if(list.rbegin(), list.rend(), [&](std::int32_t r) {
      return req(r).phase == Phase::decode;
    });
    retract(*newest);
    log.retracted += 1;
    batch = static_cast<int>(decoding());
    steps = draft_steps(m_d.spec, batch);
    query = steps > 0 ? (m_d.spec.topk == 1 ? steps + 1 : m_d.spec.num_draft_tokens) : 1;
  }
  // The sums build in a local copy the compiler keeps in registers (`shape` may alias what the loop
  // writes, so it would store them every iteration); same order of additions, same result.
  BatchShape sums = shape;
  std::int64_t private_tokens = m_private_tokens;
  for (std::int32_t r : list) {
    Request& q = req(r);
    if (q.phase != Phase::decode) continue;
    q.query_tokens = query;
    q.draft_steps = steps;
    q.private_kv += query;
    private_tokens += query;
    m_perf.add_decode(sums, static_cast<std::int64_t>(q.seq.size()), query);
  }
  shape = sums;
  m_private_tokens = private_tokens;
  shape.draft_steps = steps;
  const double floor = m_d.config.init_new_token_ratio * k_min_ratio_factor;
  const double decay = (m_d.config.init_new_token_ratio - floor) / k_ratio_decay_steps;
  m_new_token_ratio = std::max(floor, m_new_token_ratio - decay);
}

void Engine::retract(std::int32_t r) {
  Request& q = req(r);
  auto& list = m_slots[static_cast<std::size_t>(q.slot)];
  list.erase(std::find(list.begin(), list.end(), r));
  release_kv(q);
  m_running -= 1;
  q.phase = Phase::waiting;
  q.fill_target = static_cast<std::int64_t>(q.seq.size());  // recompute prompt and output so far
  q.filled = 0;
  q.slot = -1;
  q.kv_remote = false;  // its KV is gone: recomputed here like any retracted request
  q.meta.retractions += 1;
  m_counters.retractions_total += 1;
  m_waiting.push_front(r);
  m_new_token_ratio = m_d.config.init_new_token_ratio;
}

}  // namespace servebench::sim
