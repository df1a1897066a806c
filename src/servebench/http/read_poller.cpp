#include "servebench/http/read_poller.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <string>

namespace servebench::http::detail {
namespace {

ReadPoller::Token make_token(std::uint32_t slot, std::uint32_t generation) {
  return (static_cast<std::uint64_t>(generation) << 32) | slot;
}

}  // namespace

ReadPoller::ReadPoller() : m_fd(::epoll_create1(EPOLL_CLOEXEC)) { SB_CHECK(m_fd >= 0); }

ReadPoller::~ReadPoller() { ::close(m_fd); }

util::Result<ReadPoller::Token> ReadPoller::add(int socket, ReadyHandler& handler, Trigger trigger) {
  std::uint32_t slot = 0;
  if (m_free.empty()) {
    slot = static_cast<std::uint32_t>(m_slots.size());
    m_slots.emplace_back();
  } else {
    slot = m_free.back();
    m_free.pop_back();
  }
  const Token token = make_token(slot, m_slots[slot].generation);
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP | (trigger == Trigger::edge ? EPOLLET : 0U);
  event.data.u64 = token;
  if (::epoll_ctl(m_fd, EPOLL_CTL_ADD, socket, &event) != 0) {
    const int err = errno;
    m_free.push_back(slot);
    return util::failf(util::ErrorKind::io, "cannot watch a socket for reads: {}", std::strerror(err));
  }
  m_slots[slot].handler = &handler;
  return token;
}

void ReadPoller::remove(Token token, int socket) noexcept {
  const auto slot = static_cast<std::uint32_t>(token & 0xffffffffU);
  if (token == 0 || slot >= m_slots.size() || m_slots[slot].generation != token >> 32) return;
  ::epoll_ctl(m_fd, EPOLL_CTL_DEL, socket, nullptr);  // a forked child's copy of the fd must not keep it
  m_slots[slot].handler = nullptr;
  ++m_slots[slot].generation;
  if (m_slots[slot].generation == 0) m_slots[slot].generation = 1;  // 0 would make token 0 valid
  m_free.push_back(slot);
}

int ReadPoller::fetch(std::optional<std::chrono::nanoseconds> wait) {
  const int capacity = static_cast<int>(m_events.size());
  if (!wait) return ::epoll_wait(m_fd, m_events.data(), capacity, -1);
  if (wait->count() <= 0) return ::epoll_wait(m_fd, m_events.data(), capacity, 0);
  const timespec timeout{static_cast<time_t>(wait->count() / 1'000'000'000),
                         static_cast<long>(wait->count() % 1'000'000'000)};
  const int n = ::epoll_pwait2(m_fd, m_events.data(), capacity, &timeout, nullptr);
  if (n >= 0 || errno != ENOSYS) return n;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(*wait).count();  // a kernel before 5.11
  return ::epoll_wait(m_fd, m_events.data(), capacity, static_cast<int>(std::min<std::int64_t>(ms, 1'000'000)));
}

// A full batch may leave ready sockets behind: fetch again until a batch comes back short. A
// handler removing a socket whose event is later in the same batch makes that event stale.
std::size_t ReadPoller::dispatch(std::optional<std::chrono::nanoseconds> wait) {
  std::size_t handled = 0;
  for (;;) {
    const int n = fetch(wait);
    if (n <= 0) return handled;  // nothing, or interrupted: the caller's loop comes back
    wait = std::chrono::nanoseconds{0};  // only the first fetch waits
    for (int i = 0; i < n; ++i) {
      const Token token = m_events[static_cast<std::size_t>(i)].data.u64;
      const auto slot = static_cast<std::uint32_t>(token & 0xffffffffU);
      if (slot >= m_slots.size() || m_slots[slot].generation != token >> 32) continue;
      if (ReadyHandler* handler = m_slots[slot].handler) {
        handler->on_ready(m_events[static_cast<std::size_t>(i)].events);
        ++handled;
      }
    }
    if (static_cast<std::size_t>(n) < m_events.size()) return handled;
  }
}

namespace {

bool is_epoll(int fd) {
  const std::string link = "/proc/self/fd/" + std::to_string(fd);
  std::array<char, 64> target{};
  const ssize_t n = ::readlink(link.c_str(), target.data(), target.size() - 1);
  return n > 0 && std::string_view(target.data(), static_cast<std::size_t>(n)) == "anon_inode:[eventpoll]";
}

// fdinfo of an epoll lists one "tfd: N events: … data: …" line per watched descriptor.
bool watches(int epoll_fd, int target) {
  std::ifstream info("/proc/self/fdinfo/" + std::to_string(epoll_fd));
  std::string line;
  while (std::getline(info, line)) {
    if (!line.starts_with("tfd:")) continue;
    const std::size_t at = line.find_first_not_of(" \t", 4);
    if (at == std::string::npos) continue;
    int fd = -1;
    std::from_chars(line.data() + at, line.data() + line.size(), fd);
    if (fd == target) return true;
  }
  return false;
}

}  // namespace

int epoll_watching(int target, int except) {
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return -1;
  int found = -1;
  while (const dirent* entry = ::readdir(dir)) {
    int fd = -1;
    const std::string_view name = entry->d_name;
    if (std::from_chars(name.data(), name.data() + name.size(), fd).ec != std::errc{}) continue;
    if (fd == except || fd == ::dirfd(dir) || !is_epoll(fd) || !watches(fd, target)) continue;
    found = fd;
    break;
  }
  ::closedir(dir);
  return found;
}

}  // namespace servebench::http::detail
