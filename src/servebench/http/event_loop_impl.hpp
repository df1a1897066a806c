#pragma once
// Private to the http module (event_loop.cpp, stream_client.cpp, stream_connection.cpp): pulls in Asio.
#include <atomic>
#include <cstdint>
#include <optional>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "servebench/http/event_loop.hpp"
#include "servebench/http/read_poller.hpp"

namespace servebench::http::detail {

// The loop thread sleeps in its ReadPoller, which watches the clients' sockets (edge-triggered),
// Asio's own epoll (level-triggered: timers, connects, request writes, posts) and an eventfd that
// other threads write to wake it. Asio runs (poll()) only when its epoll or the eventfd was ready,
// or when the loop's own code gave it work (`asio_due`): a wake-up that only brings token bytes
// costs one epoll_wait and one recvmsg per readable socket, nothing of Asio. Should Asio's epoll
// not be found (no /proc), Asio's run() is the loop and waits on the poller's descriptor instead
// (one more re-arm per wake-up, and a nested wake-up per arrival).
struct EventLoopImpl final : ReadyHandler {
  EventLoopImpl();
  ~EventLoopImpl();

  // The loop thread's body, until stop().
  void run();
  // Any thread: the sleeping loop wakes and runs what was posted to Asio.
  void wake() noexcept;
  // Loop thread: Asio has work the loop's own code gave it (a post, a timer, an operation begun).
  void asio_due() noexcept { asio_has_work = true; }
  // Asio's epoll or the eventfd is ready: Asio runs next.
  void on_ready(std::uint32_t) override { asio_due(); }

  // Loop thread: watches a client socket for reads (ReadPoller); unwatch() before it closes.
  util::Result<ReadPoller::Token> watch(int socket, ReadyHandler& handler);
  void unwatch(ReadPoller::Token token, int socket) noexcept { poller.remove(token, socket); }
  // Asio's run() is the loop: one Asio wait on the poller's descriptor at a time.
  void wait_for_reads();

  // Loop thread: file a timed task and re-arm the timer if it is now the earliest.
  void schedule(util::TimePoint when, Task task);
  void arm();
  void run_due();

  struct Timed {
    util::TimePoint when;
    std::uint64_t seq;  // posting order breaks ties
    Task task;
  };
  ReadPoller poller;  // before ioc: handlers destroyed with ioc may still unwatch their sockets
  boost::asio::io_context ioc;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work;
  boost::asio::steady_timer timer;
  std::vector<Timed> timed;  // a min-heap on (when, seq)
  std::uint64_t next_seq = 0;
  std::uint64_t timer_generation = 0;  // a re-armed timer ignores the older wait's completion
  std::optional<util::TimePoint> armed_at;
  boost::asio::posix::stream_descriptor poller_wait;  // the poller's descriptor, not owned (released)
  int asio_fd = -1;    // Asio's epoll, watched by the poller; -1: Asio's run() is the loop instead
  int wake_fd = -1;    // an eventfd, watched by the poller (edge-triggered, never read)
  bool asio_has_work = true;
  bool poller_waiting = false;  // Asio's run() is the loop: a wait on the poller's descriptor is queued
  std::thread thread;
  std::atomic<std::thread::id> loop_thread_id{};
  std::atomic<bool> running{false};
};

}  // namespace servebench::http::detail
