#pragma once
// Private to the http module. ReadPoller: the readiness of the sockets an event loop's clients
// read themselves — one epoll, edge-triggered, each socket registered once for its whole life.
// A reactor that re-arms the descriptor for every wait it queues costs one epoll_ctl per socket
// read; here a socket costs one epoll_ctl to add and one to remove, and a wake-up of the loop
// costs one epoll_wait for all the sockets that became readable. The loop thread sleeps in
// dispatch() (Asio's own epoll is one of the descriptors it watches, level-triggered).
//
// Edge-triggered: a handler hears of an arrival once. It must read until it knows the socket is
// drained — a stream socket's read that returned less than it asked for has emptied the receive
// queue, unless the peer also hung up (EPOLLRDHUP/EPOLLHUP/EPOLLERR), in which case it reads on
// until end of file or the error — or the bytes left will never be announced. Loop thread only.
#include <sys/epoll.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <optional>
#include <cstdint>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::http::detail {

class ReadyHandler {
 public:
  // `events`: EPOLLIN, EPOLLRDHUP, EPOLLHUP, EPOLLERR as epoll reported them.
  virtual void on_ready(std::uint32_t events) = 0;

 protected:
  ~ReadyHandler() = default;
};

class ReadPoller {
 public:
  using Token = std::uint64_t;  // names one registration; 0 is none
  static constexpr std::uint32_t k_hangup = EPOLLRDHUP | EPOLLHUP | EPOLLERR;
  enum class Trigger { edge, level };  // level: reported while readable (another epoll's descriptor)

  // Aborts (SB_CHECK) when the kernel refuses an epoll descriptor: nothing can be read without it.
  ReadPoller();
  ~ReadPoller();
  ReadPoller(const ReadPoller&) = delete;
  ReadPoller& operator=(const ReadPoller&) = delete;

  int fd() const noexcept { return m_fd; }
  // Watches `socket` for reads until remove(); `handler` must stay valid until then. Fails when
  // the kernel refuses (out of memory, the per-user watch limit).
  util::Result<Token> add(int socket, ReadyHandler& handler, Trigger trigger = Trigger::edge);
  // Stops watching: `socket` must still be open. Events already fetched for it are dropped.
  void remove(Token token, int socket) noexcept;
  // Hands every ready socket's events to its handler (handlers may add and remove sockets),
  // waiting up to `wait` for the first (nullopt: until one is ready; zero: never blocks; to the
  // nanosecond, so a loop's timers need no timer descriptor). Returns the events handed out.
  std::size_t dispatch(std::optional<std::chrono::nanoseconds> wait = std::chrono::nanoseconds{0});
  std::size_t watched() const noexcept { return m_slots.size() - m_free.size(); }

 private:
  int fetch(std::optional<std::chrono::nanoseconds> wait);

  struct Slot {
    ReadyHandler* handler = nullptr;
    std::uint32_t generation = 1;  // bumped on removal: a token of an earlier registration is stale
  };
  int m_fd = -1;
  std::vector<Slot> m_slots;
  std::vector<std::uint32_t> m_free;
  std::array<epoll_event, 256> m_events{};
};

// The epoll descriptor of this process, other than `except`, that watches `target` (from
// /proc/self/fdinfo); -1 when none is found (no /proc). How the loop finds Asio's reactor.
int epoll_watching(int target, int except);

}  // namespace servebench::http::detail
