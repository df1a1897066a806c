#pragma once
// Runs the real `servebench` binary for bench end-to-end tests: arguments are shell-quoted, stdin
// is empty, stdout and stderr are captured, and `timeout` bounds every run.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::e2e {

struct CliRun {
  int exit_code = -1;
  std::string out, err;
};

// A fresh directory for one test's files.
inline std::filesystem::path bench_temp_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("bench_e2e_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline CliRun run_servebench(const std::vector<std::string>& args, const std::filesystem::path& dir,
                             int timeout_s = 120) {
  std::string cmd = "timeout " + std::to_string(timeout_s) + " " + util::shell_quote(SERVEBENCH_BIN);
  for (const auto& a : args) cmd += " " + util::shell_quote(a);
  const auto out = dir / "stdout.txt";
  const auto err = dir / "stderr.txt";
  cmd += " < /dev/null > " + util::shell_quote(out.string()) + " 2> " + util::shell_quote(err.string());
  const int status = std::system(cmd.c_str());
  CliRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = util::read_file(out).value_or("");
  r.err = util::read_file(err).value_or("");
  return r;
}

}  // namespace servebench::e2e

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <thread>

namespace servebench::e2e {

// A `servebench` child process (e.g. serve-sim) with stdout and stderr in files of `dir`; ended
// with SIGTERM (SIGKILL after 5 s) when destroyed.
class ServebenchChild {
 public:
  ServebenchChild(const std::vector<std::string>& args, const std::filesystem::path& dir)
      : m_out(dir / "child_stdout.txt"), m_err(dir / "child_stderr.txt") {
    std::vector<std::string> argv_text{SERVEBENCH_BIN};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    m_pid = fork();
    if (m_pid == 0) {
      const int out = open(m_out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = open(m_err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int in = open("/dev/null", O_RDONLY);
      dup2(in, 0);
      dup2(out, 1);
      dup2(err, 2);
      std::vector<char*> argv;
      for (auto& a : argv_text) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
  }
  ~ServebenchChild() {
    if (m_pid <= 0) return;
    kill(m_pid, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    int status = 0;
    while (waitpid(m_pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(m_pid, SIGKILL);
        waitpid(m_pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ServebenchChild(const ServebenchChild&) = delete;
  ServebenchChild& operator=(const ServebenchChild&) = delete;

  // The rest of the first stdout line starting with `prefix`, waiting up to `deadline`; nullopt
  // when the line did not appear (or the child exited).
  std::optional<std::string> wait_for_line(std::string_view prefix, std::chrono::seconds deadline) {
    const auto until = std::chrono::steady_clock::now() + deadline;
    while (std::chrono::steady_clock::now() < until) {
      const std::string text = util::read_file(m_out).value_or("");
      for (auto line : util::split(text, '\n')) {
        if (line.starts_with(prefix)) return std::string(line.substr(prefix.size()));
      }
      int status = 0;
      if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
        m_pid = -1;
        return std::nullopt;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return std::nullopt;
  }
  std::string stderr_text() const { return util::read_file(m_err).value_or(""); }

 private:
  std::filesystem::path m_out, m_err;
  pid_t m_pid = -1;
};

}  // namespace servebench::e2e
