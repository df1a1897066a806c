#include "servebench/http/event_loop.hpp"

#include <algorithm>

#include <boost/asio/post.hpp>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "servebench/http/event_loop_impl.hpp"
#include "servebench/util/result.hpp"

namespace servebench::http {
namespace detail {
namespace {

// Heap order: the earliest (then first posted) task on top.
bool later(const EventLoopImpl::Timed& a, const EventLoopImpl::Timed& b) {
  return a.when != b.when ? a.when > b.when : a.seq > b.seq;
}

}  // namespace

EventLoopImpl::EventLoopImpl() : ioc(1), timer(ioc) {}

void EventLoopImpl::schedule(util::TimePoint when, Task task) {
  timed.push_back(Timed{when, next_seq++, std::move(task)});
  std::push_heap(timed.begin(), timed.end(), later);
  arm();
}

void EventLoopImpl::arm() {
  if (timed.empty()) return;
  const util::TimePoint when = timed.front().when;
  if (armed_at && *armed_at <= when) return;  // the pending wait fires early enough
  armed_at = when;
  const std::uint64_t generation = ++timer_generation;
  timer.expires_at(when);
  timer.async_wait([this, generation](const boost::system::error_code& ec) {
    if (ec || generation != timer_generation) return;
    armed_at.reset();
    run_due();
  });
}

void EventLoopImpl::run_due() {
  const auto now = std::chrono::steady_clock::now();
  while (!timed.empty() && timed.front().when <= now) {
    std::pop_heap(timed.begin(), timed.end(), later);
    Task task = std::move(timed.back().task);
    timed.pop_back();
    task();
  }
  arm();
}

}  // namespace detail

EventLoop::EventLoop() : m_impl(std::make_unique<detail::EventLoopImpl>()) {}

EventLoop::~EventLoop() { stop(); }

void EventLoop::start() {
  detail::EventLoopImpl& impl = *m_impl;
  SB_CHECK(!impl.thread.joinable() && !impl.ioc.stopped());  // at most once
  impl.work.emplace(impl.ioc.get_executor());
  impl.running = true;
  impl.thread = std::thread([&impl] {
    impl.loop_thread_id = std::this_thread::get_id();
#if defined(__linux__)
    prctl(PR_SET_TIMERSLACK, 1UL);  // timers fire within µs, not the default 50 µs slack
#endif
    impl.ioc.run();
  });
}

void EventLoop::stop() {
  detail::EventLoopImpl& impl = *m_impl;
  SB_CHECK(!in_loop_thread());
  impl.work.reset();
  impl.ioc.stop();
  if (impl.thread.joinable()) impl.thread.join();
  impl.running = false;
}

void EventLoop::post(Task task) { boost::asio::post(m_impl->ioc, std::move(task)); }

void EventLoop::post_at(util::TimePoint when, Task task) {
  if (in_loop_thread()) return m_impl->schedule(when, std::move(task));
  boost::asio::post(m_impl->ioc, [impl = m_impl.get(), when, task = std::move(task)]() mutable {
    impl->schedule(when, std::move(task));
  });
}

bool EventLoop::in_loop_thread() const noexcept { return m_impl->loop_thread_id.load() == std::this_thread::get_id(); }

bool EventLoop::running() const noexcept { return m_impl->running.load(); }

}  // namespace servebench::http
