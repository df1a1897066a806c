#pragma once
// Private to the http module (event_loop.cpp, stream_client.cpp): pulls in Asio.
#include <atomic>
#include <cstdint>
#include <optional>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "servebench/http/event_loop.hpp"

namespace servebench::http::detail {

struct EventLoopImpl {
  EventLoopImpl();

  // Loop thread: file a timed task and re-arm the timer if it is now the earliest.
  void schedule(util::TimePoint when, Task task);
  void arm();
  void run_due();

  struct Timed {
    util::TimePoint when;
    std::uint64_t seq;  // posting order breaks ties
    Task task;
  };
  boost::asio::io_context ioc;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work;
  boost::asio::steady_timer timer;
  std::vector<Timed> timed;  // a min-heap on (when, seq)
  std::uint64_t next_seq = 0;
  std::uint64_t timer_generation = 0;  // a re-armed timer ignores the older wait's completion
  std::optional<util::TimePoint> armed_at;
  std::thread thread;
  std::atomic<std::thread::id> loop_thread_id{};
  std::atomic<bool> running{false};
};

}  // namespace servebench::http::detail
