#include "servebench/plan/virtual_load.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <queue>

#include <fmt/format.h>

namespace servebench::plan {
namespace {

using util::Nanos;

std::vector<std::int32_t> prompt_ids(const load::Prompt& p, const sim::Tokenizer& tokenizer) {
  if (!p.ids.empty()) return p.ids;
  std::vector<std::int32_t> ids;
  if (tokenizer.specials().bos >= 0) ids.push_back(tokenizer.specials().bos);
  const auto body = tokenizer.encode(load::prompt_text(p));
  ids.insert(ids.end(), body.begin(), body.end());
  return ids;
}

// One request in flight: its record so far and, when records are kept or streamed, its chunks.
// Kept in a pool and reused, so the chunk storage of one request serves the next.
struct Live {
  load::RequestRecord record;
  std::vector<load::ChunkMark> chunks;
  std::uint32_t replica = 0;
};

// Sent, not yet seen by its engine, with the router's decision.
struct Pending {
  std::uint32_t index = 0;
  Nanos due{0}, sent{0};
  std::string_view route;
  std::int64_t matched = 0;
};

// One engine of the fleet: the requests sent to it that it has not seen yet, the requests it runs,
// and the step it took whose events wait for the global clock to reach the step's end.
struct Replica {
  sim::Engine* engine = nullptr;
  std::deque<Pending> pending;  // sent, not yet seen by the engine; in send order
  std::span<const sim::TokenEvent> events;
  Nanos end{0};
  bool stepped = false;  // a step was taken; its events apply at `end`
  bool blocked = false;  // the engine can run nothing until another request reaches it
};

class Driver {
 public:
  Driver(const Fleet& fleet, const VirtualLoad& load, RequestSink* sink)
      : m_load(load), m_sink(sink), m_router(fleet.router),
        m_cap(load.max_concurrency.value_or(std::numeric_limits<std::int64_t>::max())) {
    for (sim::Engine* e : fleet.engines) m_origin = std::max(m_origin, e->now());
    m_replicas.resize(fleet.engines.size());
    m_outstanding.assign(fleet.engines.size(), 0);
    for (std::size_t r = 0; r < m_replicas.size(); ++r) {
      m_replicas[r].engine = fleet.engines[r];
      fleet.engines[r]->advance_to(m_origin);
    }
    if (!sink) m_phase.records.resize(load.size());
    link_turns();
  }

  util::Result<VirtualPhase> run() {
    const auto n = static_cast<std::int64_t>(m_load.size());
    while (m_phase.requests < n) {
      release_at(m_now);
      for (Replica& r : m_replicas) {
        if (auto ok = prepare(r); !ok) return std::unexpected(ok.error());
      }
      Nanos step_end = k_never;
      for (const Replica& r : m_replicas) {
        if (r.stepped) step_end = std::min(step_end, r.end);
      }
      const Nanos arrival = next_arrival();
      if (arrival < step_end) {  // a request goes out before any step ends: route it at its time
        m_now = arrival;
        continue;
      }
      if (step_end == k_never) return util::fail(util::ErrorKind::failed, "the simulated engine stalled with requests waiting");
      m_now = step_end;
      for (Replica& r : m_replicas) {
        if (!r.stepped || r.end != m_now) continue;
        r.stepped = false;
        for (const sim::TokenEvent& e : r.events) on_event(r, e);
      }
      release_at(m_now);
      // Sent while a step ran: seen by its engine before the next step. Sent at its end (a closed-loop
      // follow-up): the server has already launched the next step, so it waits for the one after.
      for (Replica& r : m_replicas) {
        if (r.end != m_now) continue;
        while (!r.pending.empty() && r.pending.front().sent < m_now) submit_front(r);
      }
    }
    // Chunks were appended a whole request at a time, so they are grouped by request already.
    return std::move(m_phase);
  }

 private:
  static constexpr Nanos k_never = Nanos::max();
  static constexpr std::uint32_t k_no_turn = ~0u;

  bool open_loop() const { return !m_load.offsets.empty(); }

  // Multi-turn prompts: which prompt follows which, and which wait for the one before them.
  void link_turns() {
    for (std::size_t i = 0; i < m_load.prompts.size(); ++i) {
      const auto& after = m_load.prompts[i].after;
      if (!after) continue;
      if (m_next_turn.empty()) m_next_turn.assign(m_load.prompts.size(), k_no_turn);
      m_next_turn[*after] = static_cast<std::uint32_t>(i);
    }
  }
  bool waits(std::size_t i) const { return !m_next_turn.empty() && m_load.prompts[i].after.has_value(); }
  bool can_release() {
    while (m_next < m_load.size() && waits(m_next)) ++m_next;
    return m_next < m_load.size() && m_in_flight < m_cap;
  }

  // When the next request goes out without a request ending first: an open-loop due time while a slot
  // is free, or a conversation's next turn after its think time.
  Nanos next_arrival() {
    Nanos t = m_turns.empty() ? k_never : m_turns.top().due;
    if (open_loop() && can_release()) t = std::min(t, m_load.offsets[m_next]);
    return t;
  }

  // Requests whose turn is `t`: turns whose think time is over, every closed-loop request under the
  // cap, and open-loop requests that are due (those held back by the cap go out as a slot frees).
  void release_at(Nanos t) {
    while (!m_turns.empty() && m_turns.top().due <= t) {
      const Turn turn = m_turns.top();
      m_turns.pop();
      send(turn.index, turn.due, turn.due);
    }
    while (can_release() && (!open_loop() || m_load.offsets[m_next] <= t)) {
      ++m_in_flight;
      send(m_next, open_loop() ? m_load.offsets[m_next] : t, t);
      ++m_next;
    }
  }

  // The router picks the replica when the request is sent.
  void send(std::size_t index, Nanos due, Nanos sent) {
    Pending p{static_cast<std::uint32_t>(index), due, sent, {}, 0};
    std::size_t r = 0;
    if (m_router != nullptr) {
      const std::span<const std::int32_t> ids =
          m_load.generate ? std::span<const std::int32_t>() : std::span<const std::int32_t>(m_load.prompts[index].ids);
      const RouteDecision d = m_router->route(ids, m_outstanding);
      r = static_cast<std::size_t>(d.replica);
      p.route = d.reason;
      p.matched = d.matched_tokens;
    }
    m_outstanding[r] += 1;
    m_replicas[r].pending.push_back(p);
  }

  // A replica with work and no step under way takes its next step; an idle (or blocked) one first takes
  // the requests that reached it, virtual time jumping to when the first was sent.
  util::Result<void> prepare(Replica& r) {
    if (r.stepped) return {};
    if (r.engine->idle() || r.blocked) {
      if (r.pending.empty()) return {};
      const Nanos t = r.pending.front().sent;
      r.engine->advance_to(m_origin + t);
      while (!r.pending.empty() && r.pending.front().sent <= t) submit_front(r);
      r.blocked = false;
      if (r.engine->idle()) return {};  // every request was refused
    }
    if (m_phase.steps >= m_load.step_limit) {
      return util::failf(util::ErrorKind::failed, "the simulation did not finish within {} engine steps",
                         m_load.step_limit);
    }
    const sim::StepResult step = r.engine->step();
    m_phase.steps += 1;
    if (step.duration.count() == 0 && step.events.empty()) {
      r.blocked = true;  // nothing it can run moves on until another request arrives (serve-sim waits the same way)
      return {};
    }
    r.stepped = true;
    r.end = r.engine->now() - m_origin;
    r.events = step.events;
    return {};
  }

  bool submit_front(Replica& r) {
    const Pending p = r.pending.front();
    r.pending.pop_front();
    if (m_load.generate) m_load.generate(p.index, m_made);
    const load::Prompt& prompt = m_load.generate ? m_made : m_load.prompts[p.index];
    std::vector<std::int32_t> encoded;  // only for a text prompt
    if (prompt.ids.empty()) encoded = prompt_ids(prompt, r.engine->tokenizer());
    const std::span<const std::int32_t> ids = prompt.ids.empty() ? std::span<const std::int32_t>(encoded) : prompt.ids;
    const std::int64_t max_tokens =
        m_load.max_tokens_cap ? std::min(prompt.output_tokens, *m_load.max_tokens_cap) : prompt.output_tokens;
    sim::SamplingParams sampling;
    sampling.max_tokens = max_tokens;
    sampling.ignore_eos = m_load.ignore_eos;
    if (m_load.ignore_eos) sampling.min_tokens = max_tokens;
    sampling.temperature = m_load.temperature;
    sampling.seed = m_load.seed;
    const std::uint32_t slot = take_live();
    Live& live = m_pool[slot];
    live.replica = static_cast<std::uint32_t>(&r - m_replicas.data());
    auto& rec = live.record;
    rec.index = p.index;
    rec.intended = p.due;
    rec.released = p.sent;
    rec.sent = rec.written = p.sent;
    rec.input_tokens_planned = prompt.input_tokens;
    rec.output_tokens_requested = max_tokens;
    if (m_router != nullptr) {
      rec.replica = static_cast<std::int32_t>(live.replica);
      rec.route = p.route;
      rec.route_matched_tokens = p.matched;
    }
    auto id = r.engine->submit(ids, std::move(sampling), slot);  // its events carry the pool slot
    if (!id) {
      rec.error = load::RequestError::http_status;
      rec.http_status = 400;
      rec.error_message = id.error().message;
      rec.done = p.sent;
      end(slot);
      return false;
    }
    return true;
  }

  std::uint32_t take_live() {
    if (m_free_live.empty()) {
      m_pool.emplace_back();
      return static_cast<std::uint32_t>(m_pool.size() - 1);
    }
    const std::uint32_t slot = m_free_live.back();
    m_free_live.pop_back();
    return slot;
  }

  void on_event(Replica& replica, const sim::TokenEvent& e) {
    const auto slot = static_cast<std::uint32_t>(e.tag);
    Live& live = m_pool[slot];
    auto& rec = live.record;
    const Nanos t = m_now;
    if (!e.tokens.empty()) {
      if (!rec.first_token) rec.first_token = t;
      rec.last_token = t;
      rec.token_chunks += 1;
      rec.chunk_tokens += static_cast<std::uint32_t>(e.tokens.size());
      live.chunks.push_back({t.count(), rec.index, static_cast<std::uint32_t>(e.tokens.size())});
    }
    rec.chunks += 1;
    if (e.finish == sim::FinishReason::none) return;
    rec.done = t;
    rec.input_tokens_served = e.meta->prompt_tokens;
    rec.output_tokens_served = e.meta->completion_tokens;
    rec.cached_tokens = e.meta->cached_tokens();
    if (replica.engine->deployment().spec.enabled) rec.spec_verify_ct = e.meta->spec_verify_ct;
    rec.finish_reason = sim::to_string(e.finish);
    if (rec.token_chunks == 0) rec.error = load::RequestError::no_tokens;
    end(slot);
  }

  // The request ended: its record goes to the sink (or the phase) and its Live back to the pool. A
  // conversation keeps its slot: its next turn goes out after the think time.
  void end(std::uint32_t slot) {
    Live& live = m_pool[slot];
    m_phase.requests += 1;
    m_phase.span = std::max(m_phase.span, live.record.done);
    m_outstanding[live.replica] -= 1;
    const std::uint32_t turn = m_next_turn.empty() ? k_no_turn : m_next_turn[live.record.index];
    if (turn != k_no_turn) {
      m_turns.push({live.record.done + m_load.prompts[turn].think, turn});
    } else {
      --m_in_flight;
    }
    if (m_sink) {
      m_sink->on_request(live.record, live.chunks);
    } else {
      m_phase.chunks.insert(m_phase.chunks.end(), live.chunks.begin(), live.chunks.end());
      m_phase.records[live.record.index] = std::move(live.record);
    }
    live.record = load::RequestRecord{};
    live.chunks.clear();
    m_free_live.push_back(slot);
  }

  struct Turn {
    Nanos due{0};
    std::uint32_t index = 0;
    bool operator>(const Turn& o) const { return due != o.due ? due > o.due : index > o.index; }
  };

  const VirtualLoad& m_load;
  RequestSink* m_sink;
  Router* m_router;
  util::TimePoint m_origin{};
  Nanos m_now{0};  // the fleet's clock, from m_origin
  std::int64_t m_cap;
  std::size_t m_next = 0;
  std::int64_t m_in_flight = 0;
  std::vector<Replica> m_replicas;
  std::vector<std::int64_t> m_outstanding;  // per replica: routed and not ended
  std::vector<std::uint32_t> m_next_turn;   // multi-turn: the prompt after prompt i (empty: none is)
  std::priority_queue<Turn, std::vector<Turn>, std::greater<>> m_turns;  // turns waiting out their think time
  load::Prompt m_made;                      // the prompt generate() made last
  std::vector<Live> m_pool;                 // requests in flight, and free ones for reuse
  std::vector<std::uint32_t> m_free_live;
  VirtualPhase m_phase;
};

}  // namespace

util::Result<VirtualPhase> run_virtual(const Fleet& fleet, const VirtualLoad& load, RequestSink* sink) {
  if (!load.offsets.empty() && load.offsets.size() != load.size()) {
    return util::fail(util::ErrorKind::bad_input, "an open-loop schedule needs one offset per prompt");
  }
  SB_CHECK(!fleet.engines.empty());
  SB_CHECK(fleet.engines.size() == 1 || (fleet.router != nullptr &&
                                         fleet.router->replicas() == static_cast<int>(fleet.engines.size())));
  if (!load.offsets.empty() && !load.generate &&
      std::any_of(load.prompts.begin(), load.prompts.end(), [](const load::Prompt& p) { return p.after.has_value(); })) {
    return util::fail(util::ErrorKind::bad_input, "multi-turn conversations run closed loop; drop the schedule");
  }
  return Driver(fleet, load, sink).run();
}

util::Result<VirtualPhase> run_virtual(sim::Engine& engine, const VirtualLoad& load, RequestSink* sink) {
  sim::Engine* const one[] = {&engine};
  return run_virtual(Fleet{one, nullptr}, load, sink);
}

}  // namespace servebench::plan
