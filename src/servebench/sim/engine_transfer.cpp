// Engine: a decode server's side of prefill/decode disaggregation. Its requests are admitted like
// any (running slot, pool space for the whole prompt: SGLang's pre-allocation), but their prompt is
// not computed: its KV arrives over the modelled link (kv_transfer.hpp), and the request joins the
// decode batches from the first launch after the arrival. Its first decode step gives its first token.
#include <algorithm>

#include "servebench/sim/engine.hpp"

namespace servebench::sim {

bool Engine::admit_remote(std::int32_t r, int slot, std::int64_t headroom) {
  Request& q = req(r);
  const std::int64_t need = q.fill_target;
  if (available_tokens() + m_cache.evictable_tokens() < need + headroom || !make_room(need)) return false;
  q.admitted_once = true;  // nothing comes from this server's prefix cache: the whole prompt arrives
  q.private_kv = need;
  m_private_tokens += need;
  q.filled = q.fill_target;
  q.phase = Phase::transfer;
  q.kv_ready = m_link->arrival(m_launch_at, need);
  m_counters.kv_transfers_total += 1;
  m_counters.kv_transfer_tokens_total += need;
  m_counters.kv_transfer_ns_total += (q.kv_ready - m_launch_at).count();
  m_transferring[static_cast<std::size_t>(slot)] += 1;
  join_slot(r, slot);
  return true;
}

void Engine::receive_arrived(int slot, VirtualTime at) {
  auto& waiting = m_transferring[static_cast<std::size_t>(slot)];
  if (waiting == 0) return;
  for (std::int32_t r : m_slots[static_cast<std::size_t>(slot)]) {
    Request& q = req(r);
    if (q.phase != Phase::transfer || q.kv_ready > at) continue;
    q.phase = Phase::decode;
    waiting -= 1;
    if (!q.plan) {
      const std::uint64_t hash = hash_prompt(std::span(q.seq.data(), static_cast<std::size_t>(q.prompt_len)));
      q.plan.emplace(m_tokenizer, hash, q.sampling, mix64(m_d.config.sim_seed, q.id), m_d.config.sim_eos_probability);
    }
  }
}

bool Engine::advance_to_next_arrival() {
  std::optional<VirtualTime> next;
  for (std::size_t s = 0; s < m_slots.size(); ++s) {
    if (m_transferring[s] == 0) continue;
    for (std::int32_t r : m_slots[s]) {
      const Request& q = req(r);
      if (q.phase == Phase::transfer && (!next || q.kv_ready < *next)) next = q.kv_ready;
    }
  }
  // A request still in the front (per_request) reaches the scheduler at its ready time.
  if (!m_waiting.empty() && req(m_waiting.front()).ready_at > m_now) {
    const VirtualTime ready = req(m_waiting.front()).ready_at;
    if (!next || ready < *next) next = ready;
  }
  if (!next) return false;
  advance_to(*next);
  return true;
}

}  // namespace servebench::sim
