#pragma once
// EventLoop: one IO thread with its own event queue and timers. The load generator runs N of them
// (no locks on the hot path: everything of a loop runs on its thread) without seeing Asio.
#include <functional>
#include <memory>

#include "servebench/util/clock.hpp"

namespace servebench::http {

namespace detail {
struct EventLoopImpl;
}

using Task = std::move_only_function<void()>;

class EventLoop {
 public:
  EventLoop();
  ~EventLoop();  // stop()
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Starts the loop on a new thread. At most once.
  void start();
  // Stops the loop and joins its thread; tasks and timers not yet run are dropped. Idempotent;
  // never from the loop thread.
  void stop();
  // Runs `task` on the loop thread, after the tasks posted before it. Thread-safe.
  void post(Task task);
  // Runs `task` on the loop thread once the steady clock reaches `when` (at once if it is past);
  // tasks due at the same time run in posting order. Thread-safe; for open-loop send schedules.
  void post_at(util::TimePoint when, Task task);
  // True on the loop's own thread.
  bool in_loop_thread() const noexcept;
  // True between start() and stop().
  bool running() const noexcept;

  // The Asio side, for the http module's own clients only.
  detail::EventLoopImpl& impl() noexcept { return *m_impl; }

 private:
  std::unique_ptr<detail::EventLoopImpl> m_impl;
};

}  // namespace servebench::http
