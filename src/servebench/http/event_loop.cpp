#include "servebench/http/event_loop.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

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

EventLoopImpl::EventLoopImpl() : ioc(1), timer(ioc), poller_wait(ioc, poller.fd()) {
  // Registering the poller's descriptor with Asio made Asio's epoll watch it: that is how Asio's
  // epoll is found. Then the nesting is turned around (an epoll cannot watch one that watches it).
  asio_fd = epoll_watching(poller.fd(), poller.fd());
  wake_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  SB_CHECK(wake_fd >= 0);
  SB_CHECK(poller.add(wake_fd, *this).has_value());
  if (asio_fd < 0) return;
  (void)poller_wait.release();
  if (!poller.add(asio_fd, *this, ReadPoller::Trigger::level)) {
    asio_fd = -1;  // Asio's run() stays the loop
    poller_wait.assign(poller.fd());
  }
}

EventLoopImpl::~EventLoopImpl() {
  boost::system::error_code ignored;
  if (poller_wait.is_open()) {
    poller_wait.cancel(ignored);
    (void)poller_wait.release();  // the poller closes its own descriptor
  }
  ::close(wake_fd);
}

void EventLoopImpl::run() {
  if (asio_fd < 0) {
    wait_for_reads();
    ioc.run();
    return;
  }
  for (;;) {
    if (asio_has_work) {
      asio_has_work = false;
      ioc.poll();
      if (ioc.stopped()) return;
    }
    // The timer heap is the poller's wait, so a periodic task (the loop-lag meter) or an open-loop
    // send costs no timer descriptor and no Asio run: due tasks first, then one wait until the next
    // is due, which also hands out the ready sockets (at once while Asio has work).
    std::optional<std::chrono::nanoseconds> wait;
    if (!timed.empty()) {
      auto now = std::chrono::steady_clock::now();
      if (timed.front().when <= now) {
        run_due();
        now = std::chrono::steady_clock::now();
      }
      if (!timed.empty()) wait = std::max(std::chrono::nanoseconds{0}, timed.front().when - now);
    }
    if (asio_has_work) wait = std::chrono::nanoseconds{0};
    poller.dispatch(wait);
  }
}

void EventLoopImpl::wake() noexcept {
  const std::uint64_t one = 1;
  (void)!::write(wake_fd, &one, sizeof one);  // the counter saturating would still leave it readable
}

util::Result<ReadPoller::Token> EventLoopImpl::watch(int socket, ReadyHandler& handler) {
  return poller.add(socket, handler);
}

// Only when Asio's run() is the loop: one Asio wait on the poller's descriptor at a time, re-armed
// once per wake-up of the loop, however many sockets became readable meanwhile.
void EventLoopImpl::wait_for_reads() {
  if (poller_waiting || ioc.stopped()) return;
  poller_waiting = true;
  poller_wait.async_wait(boost::asio::posix::descriptor_base::wait_read, [this](const boost::system::error_code& ec) {
    poller_waiting = false;
    if (ec) return;
    poller.dispatch();
    wait_for_reads();
  });
}

void EventLoopImpl::schedule(util::TimePoint when, Task task) {
  timed.push_back(Timed{when, next_seq++, std::move(task)});
  std::push_heap(timed.begin(), timed.end(), later);
  arm();
}

void EventLoopImpl::arm() {
  if (timed.empty() || asio_fd >= 0) return;  // the own loop waits for the heap's top itself
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
    impl.run();
  });
}

void EventLoop::stop() {
  detail::EventLoopImpl& impl = *m_impl;
  SB_CHECK(!in_loop_thread());
  impl.work.reset();
  impl.ioc.stop();
  impl.wake();
  if (impl.thread.joinable()) impl.thread.join();
  impl.running = false;
}

void EventLoop::post(Task task) {
  boost::asio::post(m_impl->ioc, std::move(task));
  in_loop_thread() ? m_impl->asio_due() : m_impl->wake();
}

void EventLoop::post_at(util::TimePoint when, Task task) {
  if (in_loop_thread()) return m_impl->schedule(when, std::move(task));
  boost::asio::post(m_impl->ioc, [impl = m_impl.get(), when, task = std::move(task)]() mutable {
    impl->schedule(when, std::move(task));
  });
  m_impl->wake();
}

bool EventLoop::in_loop_thread() const noexcept { return m_impl->loop_thread_id.load() == std::this_thread::get_id(); }

bool EventLoop::running() const noexcept { return m_impl->running.load(); }

}  // namespace servebench::http
