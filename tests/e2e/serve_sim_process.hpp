#pragma once
// A `servebench` child process for the serve-sim end-to-end tests: stdout through a pipe (read with
// poll() against a deadline), stderr to a file, exit waited on through a pidfd (no sleeps). The
// destructor kills a child that is still running.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "servebench/util/file_io.hpp"

namespace servebench::e2e {

class SimProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // Runs `servebench <args...>`; stderr goes to <TempDir>/<name>.stderr.
  SimProcess(std::vector<std::string> args, const std::string& name)
      : m_stderr(std::filesystem::path(::testing::TempDir()) / (name + ".stderr")) {
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) return;
    std::vector<std::string> words{SERVEBENCH_BIN};
    words.insert(words.end(), args.begin(), args.end());
    m_pid = fork();
    if (m_pid == 0) {
      const int err = open(m_stderr.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int in = open("/dev/null", O_RDONLY);
      dup2(in, 0);
      dup2(out[1], 1);
      dup2(err, 2);
      std::vector<char*> argv;
      for (auto& w : words) argv.push_back(w.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(out[1]);
    m_out = out[0];
    m_pidfd = static_cast<int>(syscall(SYS_pidfd_open, m_pid, 0));
  }
  ~SimProcess() {
    if (m_pid > 0 && !m_exit) {
      kill(m_pid, SIGKILL);
      waitpid(m_pid, nullptr, 0);
    }
    if (m_out >= 0) close(m_out);
    if (m_pidfd >= 0) close(m_pidfd);
  }
  SimProcess(const SimProcess&) = delete;
  SimProcess& operator=(const SimProcess&) = delete;

  // The next stdout line (without '\n'); nullopt at EOF or after `within`.
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
  // Everything stdout still says until EOF (or `within`).
  std::string read_rest(std::chrono::milliseconds within = std::chrono::seconds(60)) {
    const auto deadline = Clock::now() + within;
    while (read_some(deadline)) {
    }
    return std::exchange(m_buffer, {});
  }
  // The base URL from the "listening on" line; "" when the line did not come.
  std::string wait_listening(std::chrono::milliseconds within = std::chrono::seconds(60)) {
    constexpr std::string_view k_prefix = "servebench serve-sim listening on ";
    const auto line = read_line(within);
    if (!line || !line->starts_with(k_prefix)) return "";
    return line->substr(k_prefix.size());
  }
  void signal(int sig) const { kill(m_pid, sig); }
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
  std::string stderr_text() const { return util::read_file(m_stderr).value_or(""); }

 private:
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

  std::filesystem::path m_stderr;
  pid_t m_pid = -1;
  int m_out = -1, m_pidfd = -1;
  std::string m_buffer;
  std::optional<int> m_exit;
};

// A fast-timing simulator on an ephemeral port (fixed seed) plus `extra` flags.
inline std::vector<std::string> serve_sim_args(std::vector<std::string> extra) {
  std::vector<std::string> a{"serve-sim",  "--port", "0",           "--sim-time-scale", "0",
                             "--sim-seed", "7",      "--log-level", "warning"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

}  // namespace servebench::e2e
