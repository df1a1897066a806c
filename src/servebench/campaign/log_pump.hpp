#pragma once
// The only way a child's output reaches its log: the child writes into a pipe, a thread here
// appends it to the log line by line through util::redact, so a server that echoes its
// arguments (`--api-key`, `api_key='…'`) or a hook that prints a token never stores one. A line
// longer than 64 KiB is written in pieces, cut at whitespace where it can be.
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

namespace servebench::campaign {

class LogPump {
 public:
  // Takes ownership of both descriptors: `read_fd` (the pipe's read end) and `log_fd` (the log,
  // opened for appending).
  LogPump(int read_fd, int log_fd);
  ~LogPump();  // finish(1 s)
  LogPump(const LogPump&) = delete;
  LogPump& operator=(const LogPump&) = delete;

  // Copies what the pipe still holds until every writer has closed it or `grace` has passed
  // (a process that escaped the group may keep it open), then stops. Idempotent.
  void finish(std::chrono::milliseconds grace);

 private:
  void run();
  int m_read_fd, m_log_fd;
  std::atomic<bool> m_finishing{false};
  std::atomic<std::int64_t> m_deadline_ns{0};
  std::thread m_thread;
};

}  // namespace servebench::campaign
