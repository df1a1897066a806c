#pragma once
// The one child-process helper of the tests: a program (usually the real `servebench` binary)
// with stdin from /dev/null, stdout either through a pipe (read line by line against a deadline)
// or into a file, stderr into a file. Exit is waited on through a pidfd against a deadline (no
// sleeps); a child still running when the helper is destroyed is killed (SIGKILL) and reaped.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "servebench/util/file_io.hpp"
#include "support/wait_for.hpp"

namespace servebench::testing {

struct ChildIo {
  std::filesystem::path cwd;          // empty: the test's working directory
  std::filesystem::path stdout_file;  // empty: a pipe, read with read_line / read_rest
  std::filesystem::path stderr_file;  // empty: /dev/null
};

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  ChildProcess(std::vector<std::string> argv, ChildIo io) : m_io(std::move(io)) {
    int out[2] = {-1, -1};
    if (m_io.stdout_file.empty() && pipe2(out, O_CLOEXEC) != 0) return;
    m_pid = fork();
    if (m_pid == 0) exec_child(argv, out[1]);
    if (out[1] >= 0) close(out[1]);
    m_out = out[0];
    m_pidfd = static_cast<int>(syscall(SYS_pidfd_open, m_pid, 0));
  }
  ~ChildProcess() {
    if (m_pid > 0 && !m_exit) {
      kill(m_pid, SIGKILL);
      waitpid(m_pid, nullptr, 0);
    }
    if (m_out >= 0) close(m_out);
    if (m_pidfd >= 0) close(m_pidfd);
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return m_pid; }
  void signal(int sig) const { kill(m_pid, sig); }

  // The next stdout line (without '\n'); nullopt at EOF or after `within`. Pipe mode only.
  std::optional<std::string> read_line(std::chrono::milliseconds within = std::chrono::seconds(60)) {
    const auto deadline = Clock::now() + within;
    for (;;) {
      if (const auto nl = m_buffer.find('\n'); nl != std::string::npos) {
        std::string line = m_buffer.substr(0, nl);
        m_buffer.erase(0, nl + 1);
        return line;
      }
      if (!read_some(deadline)) return std::nullopt;
    }
  }
  // Everything stdout still says until EOF (or `within`). Pipe mode only.
  std::string read_rest(std::chrono::milliseconds within = std::chrono::seconds(60)) {
    const auto deadline = Clock::now() + within;
    while (read_some(deadline)) {
    }
    return std::exchange(m_buffer, {});
  }
  // The rest of the first stdout line starting with `prefix`; nullopt when it does not come within
  // `within` (or the child exits first). Works in both stdout modes.
  std::optional<std::string> wait_for_line(std::string_view prefix, std::chrono::milliseconds within) {
    if (m_io.stdout_file.empty()) {
      const auto deadline = Clock::now() + within;
      while (auto line = read_line(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()))) {
        if (line->starts_with(prefix)) return line->substr(prefix.size());
      }
      return std::nullopt;
    }
    std::optional<std::string> found;
    wait_until([&] { return (found = line_in_file(prefix)).has_value() || exited(); }, within,
               std::chrono::milliseconds(20));
    return found ? found : line_in_file(prefix);
  }
  // The exit code (128 + signal when killed); nullopt when still running after `within`.
  std::optional<int> wait_exit(std::chrono::milliseconds within = std::chrono::seconds(10)) {
    if (m_exit) return m_exit;
    pollfd p{m_pidfd, POLLIN, 0};
    if (m_pidfd < 0 || poll(&p, 1, static_cast<int>(within.count())) != 1) return std::nullopt;
    int status = 0;
    if (waitpid(m_pid, &status, 0) != m_pid) return std::nullopt;
    m_exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return m_exit;
  }
  std::string stdout_text() const { return util::read_file(m_io.stdout_file).value_or(""); }
  std::string stderr_text() const { return util::read_file(m_io.stderr_file).value_or(""); }

 private:
  [[noreturn]] void exec_child(std::vector<std::string>& argv, int out_pipe) const {
    if (!m_io.cwd.empty() && chdir(m_io.cwd.c_str()) != 0) _exit(126);
    const auto open_out = [](const std::filesystem::path& p) {
      return open(p.empty() ? "/dev/null" : p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    };
    dup2(open("/dev/null", O_RDONLY), 0);
    dup2(m_io.stdout_file.empty() ? out_pipe : open_out(m_io.stdout_file), 1);
    dup2(open_out(m_io.stderr_file), 2);
    std::vector<char*> args;
    for (auto& w : argv) args.push_back(w.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  bool exited() { return wait_exit(std::chrono::milliseconds(0)).has_value(); }
  std::optional<std::string> line_in_file(std::string_view prefix) const {
    const std::string text = stdout_text();
    for (std::size_t start = 0; start < text.size();) {
      const std::size_t nl = text.find('\n', start);
      if (nl == std::string::npos) break;  // a line still being written
      const std::string_view line(text.data() + start, nl - start);
      if (line.starts_with(prefix)) return std::string(line.substr(prefix.size()));
      start = nl + 1;
    }
    return std::nullopt;
  }
  bool read_some(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{m_out, POLLIN, 0};
    if (m_out < 0 || left <= 0 || poll(&p, 1, static_cast<int>(left)) != 1) return false;
    char buf[4096];
    const ssize_t n = read(m_out, buf, sizeof buf);
    if (n <= 0) return false;
    m_buffer.append(buf, static_cast<std::size_t>(n));
    return true;
  }

  ChildIo m_io;
  pid_t m_pid = -1;
  int m_out = -1, m_pidfd = -1;
  std::string m_buffer;
  std::optional<int> m_exit;
};

#ifdef SERVEBENCH_BIN
// `servebench <args...>` as an argv.
inline std::vector<std::string> servebench_argv(const std::vector<std::string>& args) {
  std::vector<std::string> argv{SERVEBENCH_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

struct Finished {
  int exit_code = -1;  // -1: still running at the deadline (then killed)
  std::string out, err;
};

// Runs `servebench <args...>` in `dir` to completion, bounded by `timeout`; stdout and stderr go
// to dir/<name>.out and dir/<name>.err.
inline Finished run_servebench(const std::vector<std::string>& args, const std::filesystem::path& dir,
                               std::chrono::seconds timeout = std::chrono::seconds(120),
                               const std::string& name = "cli") {
  ChildProcess p(servebench_argv(args), {dir, dir / (name + ".out"), dir / (name + ".err")});
  Finished f;
  f.exit_code = p.wait_exit(timeout).value_or(-1);
  f.out = p.stdout_text();
  f.err = p.stderr_text();
  return f;
}
#endif

}  // namespace servebench::testing
