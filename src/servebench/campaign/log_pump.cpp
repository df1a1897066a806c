#include "servebench/campaign/log_pump.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "servebench/util/redact.hpp"

namespace servebench::campaign {
namespace {

constexpr std::size_t k_max_line = 64 * 1024;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const auto n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a full disk loses log lines, not the campaign
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

LogPump::LogPump(int read_fd, int log_fd) : m_read_fd(read_fd), m_log_fd(log_fd), m_thread([this] { run(); }) {}

LogPump::~LogPump() {
  finish(std::chrono::seconds(1));
  ::close(m_read_fd);
  ::close(m_log_fd);
}

void LogPump::finish(std::chrono::milliseconds grace) {
  if (!m_thread.joinable()) return;
  m_deadline_ns.store(now_ns() + std::chrono::duration_cast<std::chrono::nanoseconds>(grace).count());
  m_finishing.store(true);
  m_thread.join();
}

void LogPump::run() {
  std::string pending;
  char buf[16384];
  const auto flush_lines = [&](bool all) {
    std::size_t start = 0;
    for (;;) {
      const auto nl = pending.find('\n', start);
      if (nl == std::string::npos) break;
      write_all(m_log_fd, util::redact(std::string_view(pending).substr(start, nl + 1 - start)));
      start = nl + 1;
    }
    pending.erase(0, start);
    if (pending.size() > k_max_line || (all && !pending.empty())) {
      auto cut = all ? pending.size() : pending.find_last_of(" \t", k_max_line);
      if (cut == std::string::npos || cut == 0) cut = std::min(pending.size(), k_max_line);
      write_all(m_log_fd, util::redact(std::string_view(pending).substr(0, cut)));
      pending.erase(0, cut);
    }
  };
  for (;;) {
    const bool finishing = m_finishing.load();
    if (finishing && now_ns() >= m_deadline_ns.load()) break;
    pollfd p{m_read_fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, finishing ? 20 : 200);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    const auto n = ::read(m_read_fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;  // every writer closed its end
    pending.append(buf, static_cast<std::size_t>(n));
    flush_lines(false);
  }
  flush_lines(true);
}

}  // namespace servebench::campaign
