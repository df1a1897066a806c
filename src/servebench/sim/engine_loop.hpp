#pragma once
// EngineLoop: the one thread that owns the simulator's Engine. HTTP threads only post tasks
// (submit a generation, cancel one, flush); the loop drains them, runs Engine::step(), waits until
// the real time reaches the step's virtual end, then feeds each request's tokens to its
// Generation, which writes the chunks. Idle, it blocks on the task queue.
//
// Time mapping (docs/sim.md "Real time"): virtual instant v is due at origin + v * time_scale,
// where origin is the real start — an absolute schedule, so waits never accumulate drift; a loop
// that falls behind sends at once. time_scale 1 = real time, 0.1 = ten times faster, 0 = as fast
// as possible (no waits). While idle, virtual time follows real time so arrivals keep their gaps.
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "servebench/sim/engine.hpp"
#include "servebench/sim/generation.hpp"
#include "servebench/sim/server_stats.hpp"
#include "servebench/sim/step_printer.hpp"

namespace servebench::sim {

struct LoopOptions {
  double time_scale = 1;         // real seconds per virtual second; 0 = as fast as possible
  std::FILE* log = nullptr;      // SGLang step lines (info level); nullptr = none
  int decode_log_interval = 40;  // SGLang's --decode-log-interval
  // Stamps the time mapping; waits use the steady clock, so with time_scale > 0 this must be it.
  const util::Clock* clock = &util::steady_clock();
  // A planted fault (--sim-fault slow-steps:MS, tests of the client-health gate): every step's
  // chunks go out this much after the step was due, as from an engine loop that runs late.
  util::Nanos step_delay{0};
};

class EngineLoop {
 public:
  EngineLoop(Deployment deployment, LoopOptions options);
  ~EngineLoop();  // stop()
  EngineLoop(const EngineLoop&) = delete;
  EngineLoop& operator=(const EngineLoop&) = delete;

  // Starts the engine thread (once). Stats report ready from here on.
  void start();
  // Stops and joins the thread; generations still open are dropped (their exchanges close).
  void stop();

  // Thread-safe. Queues `generation`; its requests are submitted at the next iteration.
  void submit(std::shared_ptr<Generation> generation);
  // Thread-safe. The exchange ended early (client gone): its engine requests are cancelled, which
  // frees their slots and KV at once. A no-op for a generation that already finished.
  void cancel(std::weak_ptr<Generation> generation);
  // Thread-safe. SGLang's /flush_cache: `done(true)` once the engine is idle and flushed,
  // `done(false)` when still busy at `deadline` (called on the engine thread).
  void flush(util::TimePoint deadline, std::move_only_function<void(bool)> done);
  // Thread-safe copy of what the engine published after its last iteration.
  ServerStats stats() const;

  const Deployment& deployment() const { return m_engine.deployment(); }

 private:
  using Task = std::move_only_function<void()>;
  struct Live {
    std::shared_ptr<Generation> generation;
    std::size_t item = 0;
  };
  struct PendingFlush {
    util::TimePoint deadline;
    std::move_only_function<void(bool)> done;
  };

  void run();
  bool take_tasks(std::vector<Task>& into, bool block);
  void post(Task task);
  void admit(const std::shared_ptr<Generation>& generation);
  void drop(const std::shared_ptr<Generation>& generation);
  void iterate();
  void dispatch(const StepResult& step);
  void answer_flushes();
  void publish();
  void follow_real_time();
  void wait_until_due(VirtualTime v);
  void record_lateness(VirtualTime v);

  Engine m_engine;
  LoopOptions m_options;
  StepPrinter m_printer;
  ChunkBuffers m_buffers;
  std::unordered_map<RequestId, Live> m_live;
  std::vector<RequestId> m_stopped;  // stop strings matched this step: ended after dispatch
  std::vector<std::shared_ptr<Generation>> m_to_flush;  // several-item generations written this step
  std::vector<PendingFlush> m_flushes;
  util::TimePoint m_origin{};
  bool m_stalled = false;  // the last step made no progress: wait for a task before stepping again

  mutable std::mutex m_mutex;  // guards the task queue, m_stopping and m_stats
  std::condition_variable m_wake;
  std::vector<Task> m_tasks;
  bool m_stopping = false;
  ServerStats m_stats;
  StepLateness m_lateness;  // engine thread; copied into m_stats by publish()
  std::thread m_thread;
};

}  // namespace servebench::sim
