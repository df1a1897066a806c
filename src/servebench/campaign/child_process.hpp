#pragma once
// A child process in its own process group (servers and hooks), its stdout and stderr appended to
// a log file through a LogPump (redacted, line by line). The group is what gets stopped: SIGTERM,
// a grace period, then SIGKILL, so a server's workers go with it — also the members that outlived
// the leader (a shell's children). The child also gets SIGTERM if the campaign dies
// (PR_SET_PDEATHSIG); a grandchild does not, which is why an arm records its group in server.pid
// (process_table.hpp) and a resume stops what survived.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "servebench/campaign/log_pump.hpp"
#include "servebench/util/result.hpp"

namespace servebench::campaign {

struct SpawnSpec {
  std::filesystem::path program;   // resolved executable
  std::vector<std::string> argv;   // argv[0] as the command wrote it
  std::vector<std::string> env;    // "NAME=value" overriding the campaign's environment
  std::filesystem::path log;       // stdout + stderr, appended
};

class ChildProcess {
 public:
  // Forks and execs `spec` (from the main thread: the death signal follows the forking thread).
  // Fails (io) when the log cannot be opened or fork fails; an exec failure shows as exit 127.
  static util::Result<ChildProcess> spawn(const SpawnSpec& spec);
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // Stops the group (short grace) if the leader still runs.
  ~ChildProcess();

  pid_t pid() const { return m_pid; }  // also the process group id
  // Byte offset of the log when the child started: its own output begins there.
  std::uintmax_t log_start() const { return m_log_start; }
  // False once the child has exited (reaped here).
  bool running();
  // Waits until the child exits or `timeout` passes; true when it exited.
  bool wait_exit(std::chrono::milliseconds timeout);
  // "exited with status 1", "killed by signal 9", or "running".
  std::string exit_description() const;
  std::optional<int> exit_status() const { return m_status; }  // exit code; signal deaths give 128 + signal
  // SIGTERM to the group, wait up to `grace` for the leader and every member, then SIGKILL what is
  // left of the group, reap, and let the log pump drain.
  void stop(std::chrono::milliseconds grace);

 private:
  ChildProcess(pid_t pid, std::uintmax_t log_start, std::unique_ptr<LogPump> pump)
      : m_pid(pid), m_log_start(log_start), m_pump(std::move(pump)) {}
  void reap(int wait_status);
  void release();  // destructor: stop() a running leader; otherwise only drain the log
  pid_t m_pid = -1;
  std::uintmax_t m_log_start = 0;
  std::optional<int> m_status;
  std::string m_description = "running";
  std::unique_ptr<LogPump> m_pump;
  bool m_stopped = false;
};

// The last `count` lines of `log` from byte `from` on (for failure messages).
std::vector<std::string> log_tail(const std::filesystem::path& log, std::size_t count, std::uintmax_t from = 0);

}  // namespace servebench::campaign
