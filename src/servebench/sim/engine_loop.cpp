#include "servebench/sim/engine_loop.hpp"

#include <algorithm>
#include <cmath>

namespace servebench::sim {
namespace {

std::chrono::nanoseconds scaled(std::chrono::nanoseconds d, double scale) {
  return std::chrono::nanoseconds(std::llround(static_cast<double>(d.count()) * scale));
}

}  // namespace

EngineLoop::EngineLoop(Deployment deployment, LoopOptions options)
    : m_engine(std::move(deployment)), m_options(options), m_printer(options.log, options.decode_log_interval) {
  publish();
}

EngineLoop::~EngineLoop() { stop(); }

void EngineLoop::start() {
  SB_CHECK(!m_thread.joinable());
  m_origin = m_options.clock->now();
  {
    std::lock_guard lock(m_mutex);
    m_stats.ready = true;
  }
  m_thread = std::thread([this] { run(); });
}

void EngineLoop::stop() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    m_stats.ready = false;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) m_thread.join();
  m_live.clear();
  m_flushes.clear();
}

void EngineLoop::submit(std::shared_ptr<Generation> generation) {
  post([this, g = std::move(generation)] { admit(g); });
}

void EngineLoop::cancel(std::weak_ptr<Generation> generation) {
  post([this, weak = std::move(generation)] {
    if (auto g = weak.lock()) drop(g);
  });
}

void EngineLoop::flush(util::TimePoint deadline, std::move_only_function<void(bool)> done) {
  post([this, deadline, done = std::move(done)]() mutable { m_flushes.push_back({deadline, std::move(done)}); });
}

ServerStats EngineLoop::stats() const {
  std::lock_guard lock(m_mutex);
  return m_stats;
}

void EngineLoop::post(Task task) {
  {
    std::lock_guard lock(m_mutex);
    m_tasks.push_back(std::move(task));
  }
  m_wake.notify_one();
}

bool EngineLoop::take_tasks(std::vector<Task>& into, bool block) {
  std::unique_lock lock(m_mutex);
  if (block) m_wake.wait(lock, [&] { return m_stopping || !m_tasks.empty(); });
  if (m_stopping) return false;
  into.swap(m_tasks);
  return true;
}

void EngineLoop::run() {
  std::vector<Task> tasks;
  while (take_tasks(tasks, m_engine.idle() || m_stalled)) {
    const bool had_tasks = !tasks.empty();
    if (had_tasks) m_stalled = false;
    for (auto& task : tasks) task();
    tasks.clear();
    answer_flushes();
    // Admissions and cancellations show in /metrics before the next step's chunks go out.
    if (had_tasks || m_engine.idle()) publish();
    if (!m_engine.idle() && !m_stalled) iterate();
  }
}

// Submits every item of a generation, or none: a refused item cancels the accepted ones.
void EngineLoop::admit(const std::shared_ptr<Generation>& generation) {
  if (generation->closed()) return;  // the client left while queued
  follow_real_time();
  std::vector<RequestId> ids;
  for (auto& request : generation->take_requests()) {
    auto id = m_engine.submit(std::move(request));
    if (!id) {
      for (RequestId accepted : ids) m_engine.cancel(accepted);
      generation->rejected(id.error().message);
      return;
    }
    ids.push_back(*id);
  }
  generation->accepted(ids, m_buffers);
  for (std::size_t i = 0; i < ids.size(); ++i) m_live.emplace(ids[i], Live{generation, i});
}

void EngineLoop::drop(const std::shared_ptr<Generation>& generation) {
  for (RequestId id : generation->ids()) {
    if (m_live.erase(id) > 0) m_engine.cancel(id);
  }
}

void EngineLoop::iterate() {
  const StepResult step = m_engine.step();
  m_stalled = step.duration.count() == 0 && step.events.empty();
  wait_until_due(m_engine.now());
  record_lateness(m_engine.now());
  dispatch(step);
  m_printer.observe(step.logs, m_engine.counters().generation_tokens_total);
  for (RequestId id : m_stopped) m_engine.stop_early(id);  // after the step's spans are used up
  m_stopped.clear();
  publish();
}

void EngineLoop::dispatch(const StepResult& step) {
  const VirtualTime now = m_engine.now();
  for (const TokenEvent& event : step.events) {
    const auto it = m_live.find(event.id);
    if (it == m_live.end()) continue;  // cancelled meanwhile
    const Live& live = it->second;     // erased below, after its last use
    const bool stopped = live.generation->on_event(live.item, event, now, m_buffers);
    if (live.generation->pending() && (m_to_flush.empty() || m_to_flush.back() != live.generation)) {
      m_to_flush.push_back(live.generation);
    }
    if (stopped) m_stopped.push_back(event.id);
    if (stopped || event.finish != FinishReason::none) m_live.erase(it);
  }
  for (const auto& generation : m_to_flush) generation->flush();  // one write per connection per step
  m_to_flush.clear();
}

void EngineLoop::answer_flushes() {
  if (m_flushes.empty()) return;
  const bool flushed = m_engine.flush_cache();
  const auto now = m_options.clock->now();
  std::erase_if(m_flushes, [&](PendingFlush& f) {
    if (!flushed && now < f.deadline) return false;
    f.done(flushed);
    return true;
  });
}

void EngineLoop::publish() {
  const EngineCounters c = m_engine.counters();
  std::lock_guard lock(m_mutex);
  m_stats.counters = c;
  m_stats.step_lateness = m_lateness;
  m_stats.gen_throughput = m_printer.gen_throughput();
  m_stats.accept_length = c.spec_verify_steps_total > 0 ? 1.0 + static_cast<double>(c.spec_accepted_tokens_total) /
                                                                    static_cast<double>(c.spec_verify_steps_total)
                                                        : 0.0;
}

// An idle engine's clock catches up with real time, so the next arrival lands when it really came.
void EngineLoop::follow_real_time() {
  if (m_options.time_scale <= 0 || !m_engine.idle()) return;
  const auto real = m_options.clock->now() - m_origin;
  const auto v = std::chrono::nanoseconds(std::llround(static_cast<double>(real.count()) / m_options.time_scale));
  m_engine.advance_to(VirtualTime{v});
}

void EngineLoop::wait_until_due(VirtualTime v) {
  if (m_options.time_scale <= 0) return;
  const util::TimePoint due = m_origin + scaled(v.time_since_epoch(), m_options.time_scale);
  std::unique_lock lock(m_mutex);
  m_wake.wait_until(lock, due + m_options.step_delay, [&] { return m_stopping; });
}

// Measured right before the step's chunks are handed out: how late they leave against the schedule.
void EngineLoop::record_lateness(VirtualTime v) {
  if (m_options.time_scale <= 0) return;
  const util::TimePoint due = m_origin + scaled(v.time_since_epoch(), m_options.time_scale);
  m_lateness.record(std::max(util::Nanos{0}, m_options.clock->now() - due));
}

}  // namespace servebench::sim
