#include "servebench/plan/virtual_load.hpp"

#include <algorithm>
#include <deque>
#include <limits>

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
};

// Engine request id -> index of its Live in the pool: open addressing with linear probing on the id's
// low bits (ids are handed out in sequence, so the ids in flight rarely collide), backward-shift
// deletion. Id 0 (never an engine id) marks an empty cell.
class LiveIndex {
 public:
  static constexpr std::uint32_t k_none = ~0u;

  std::uint32_t find(sim::RequestId id) const {
    if (m_cells.empty()) return k_none;
    for (std::size_t i = id & m_mask;; i = (i + 1) & m_mask) {
      if (m_cells[i].id == id) return m_cells[i].value;
      if (m_cells[i].id == 0) return k_none;
    }
  }
  void insert(sim::RequestId id, std::uint32_t value) {
    if ((m_size + 1) * 2 > m_cells.size()) grow();
    std::size_t i = id & m_mask;
    while (m_cells[i].id != 0) i = (i + 1) & m_mask;
    m_cells[i] = {id, value};
    ++m_size;
  }
  void erase(sim::RequestId id) {
    std::size_t i = id & m_mask;
    while (m_cells[i].id != id) i = (i + 1) & m_mask;
    // Move later cells of the probe run back into the hole when their home is at or before it.
    for (std::size_t j = (i + 1) & m_mask; m_cells[j].id != 0; j = (j + 1) & m_mask) {
      const std::size_t home = m_cells[j].id & m_mask;
      if (((j - home) & m_mask) >= ((j - i) & m_mask)) {
        m_cells[i] = m_cells[j];
        i = j;
      }
    }
    m_cells[i] = {};
    --m_size;
  }

 private:
  struct Cell {
    sim::RequestId id = 0;
    std::uint32_t value = 0;
  };
  void grow() {
    std::vector<Cell> old = std::move(m_cells);
    m_cells.assign(std::max<std::size_t>(64, old.size() * 2), Cell{});
    m_mask = m_cells.size() - 1;
    m_size = 0;
    for (const Cell& c : old) {
      if (c.id != 0) insert(c.id, c.value);
    }
  }
  std::vector<Cell> m_cells;
  std::size_t m_mask = 0, m_size = 0;
};

class Driver {
 public:
  Driver(sim::Engine& engine, const VirtualLoad& load, RequestSink* sink)
      : m_engine(engine), m_load(load), m_sink(sink), m_origin(engine.now()),
        m_cap(load.max_concurrency.value_or(std::numeric_limits<std::int64_t>::max())) {
    if (!sink) m_phase.records.resize(load.size());
  }

  util::Result<VirtualPhase> run() {
    const auto n = static_cast<std::int64_t>(m_load.size());
    while (m_phase.requests < n) {
      release_at_now();
      if (m_engine.idle()) {
        if (auto ok = start_next(); !ok) return std::unexpected(ok.error());
        continue;
      }
      if (m_phase.steps >= m_load.step_limit) {
        return util::failf(util::ErrorKind::failed, "the simulation did not finish within {} engine steps",
                           m_load.step_limit);
      }
      const sim::StepResult step = m_engine.step();
      m_phase.steps += 1;
      if (step.duration.count() == 0 && step.events.empty()) {
        // Nothing the engine can run moves on until another request arrives (serve-sim waits the same way).
        if (auto ok = start_next(); !ok) return std::unexpected(ok.error());
        continue;
      }
      release_during(now());  // the slots in use while the step ran
      for (const sim::TokenEvent& e : step.events) on_event(e);
      release_at_now();
      // Sent while the step ran: seen by the engine before its next step. Sent at its end (a closed-loop
      // follow-up): the server has already launched the next step, so it waits for the one after.
      while (!m_pending.empty() && m_pending.front().sent < now()) submit_front();
    }
    // Chunks were appended a whole request at a time, so they are grouped by request already.
    return std::move(m_phase);
  }

 private:
  Nanos now() const { return m_engine.now() - m_origin; }
  bool open_loop() const { return !m_load.offsets.empty(); }
  bool can_release() const { return m_next < m_load.size() && m_in_flight < m_cap; }

  void push(Nanos due, Nanos sent) {
    m_pending.push_back({static_cast<std::uint32_t>(m_next), due, sent});
    ++m_next;
    ++m_in_flight;
  }
  // Open loop: requests due before `until` while a slot was free went out at their due time.
  void release_during(Nanos until) {
    while (open_loop() && can_release() && m_load.offsets[m_next] < until) push(m_load.offsets[m_next], m_load.offsets[m_next]);
  }
  // Requests whose turn is now: every closed-loop request under the cap, and open-loop requests that
  // are due (those held back by the cap go out as a slot frees, i.e. now).
  void release_at_now() {
    while (can_release() && (!open_loop() || m_load.offsets[m_next] <= now())) {
      push(open_loop() ? m_load.offsets[m_next] : now(), now());
    }
  }
  // The engine has nothing to do: the next request to be sent starts it, virtual time jumping to its send time.
  util::Result<void> start_next() {
    if (m_pending.empty() && open_loop() && can_release()) push(m_load.offsets[m_next], m_load.offsets[m_next]);
    if (m_pending.empty()) return util::fail(util::ErrorKind::failed, "the simulated engine stalled with requests waiting");
    const Nanos t = m_pending.front().sent;
    m_engine.advance_to(m_origin + t);
    while (!m_pending.empty() && m_pending.front().sent <= t) submit_front();
    return {};
  }

  bool submit_front() {
    const Pending p = m_pending.front();
    m_pending.pop_front();
    if (m_load.generate) m_load.generate(p.index, m_made);
    const load::Prompt& prompt = m_load.generate ? m_made : m_load.prompts[p.index];
    std::vector<std::int32_t> encoded;  // only for a text prompt
    if (prompt.ids.empty()) encoded = prompt_ids(prompt, m_engine.tokenizer());
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
    auto& rec = m_pool[slot].record;
    rec.index = p.index;
    rec.intended = p.due;
    rec.released = p.sent;
    rec.sent = rec.written = p.sent;
    rec.input_tokens_planned = prompt.input_tokens;
    rec.output_tokens_requested = max_tokens;
    auto id = m_engine.submit(ids, std::move(sampling));
    if (!id) {
      rec.error = load::RequestError::http_status;
      rec.http_status = 400;
      rec.error_message = id.error().message;
      rec.done = p.sent;
      end(slot);
      return false;
    }
    m_live.insert(*id, slot);
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

  void on_event(const sim::TokenEvent& e) {
    const std::uint32_t slot = m_live.find(e.id);
    if (slot == LiveIndex::k_none) return;
    Live& live = m_pool[slot];
    auto& rec = live.record;
    const Nanos t = now();
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
    rec.input_tokens_served = e.meta.prompt_tokens;
    rec.output_tokens_served = e.meta.completion_tokens;
    rec.cached_tokens = e.meta.cached_tokens();
    if (m_engine.deployment().spec.enabled) rec.spec_verify_ct = e.meta.spec_verify_ct;
    rec.finish_reason = sim::to_string(e.finish);
    if (rec.token_chunks == 0) rec.error = load::RequestError::no_tokens;
    m_live.erase(e.id);
    end(slot);
  }

  // The request ended: its record goes to the sink (or the phase) and its Live back to the pool.
  void end(std::uint32_t slot) {
    Live& live = m_pool[slot];
    m_phase.requests += 1;
    m_phase.span = std::max(m_phase.span, live.record.done);
    --m_in_flight;
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

  struct Pending {
    std::uint32_t index = 0;
    Nanos due{0}, sent{0};
  };

  sim::Engine& m_engine;
  const VirtualLoad& m_load;
  RequestSink* m_sink;
  util::TimePoint m_origin;
  std::int64_t m_cap;
  std::size_t m_next = 0;
  std::int64_t m_in_flight = 0;
  std::deque<Pending> m_pending;  // sent, not yet seen by the engine; in send order
  load::Prompt m_made;             // the prompt generate() made last
  std::vector<Live> m_pool;        // requests in flight, and free ones for reuse
  std::vector<std::uint32_t> m_free_live;
  LiveIndex m_live;                // engine id -> m_pool index of the requests in flight
  VirtualPhase m_phase;
};

}  // namespace

util::Result<VirtualPhase> run_virtual(sim::Engine& engine, const VirtualLoad& load, RequestSink* sink) {
  if (!load.offsets.empty() && load.offsets.size() != load.size()) {
    return util::fail(util::ErrorKind::bad_input, "an open-loop schedule needs one offset per prompt");
  }
  return Driver(engine, load, sink).run();
}

}  // namespace servebench::plan
