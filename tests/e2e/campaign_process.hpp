#pragma once
// Helpers for the campaign end-to-end tests: the real `servebench` CLI as a child process (stdout
// and stderr to files, exit waited on through a pidfd against a deadline, SIGKILL on demand), a
// temp directory per test, campaign files written from text, and the run directory read back.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "servebench/results/ledger.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::e2e {

class CampaignProcess {
 public:
  // Starts `servebench <args...>` in `dir` (stdout → dir/<log>.out, stderr → dir/<log>.err).
  CampaignProcess(const std::vector<std::string>& args, const std::filesystem::path& dir, const std::string& log)
      : m_out(dir / (log + ".out")), m_err(dir / (log + ".err")) {
    std::vector<std::string> words{SERVEBENCH_BIN};
    words.insert(words.end(), args.begin(), args.end());
    m_pid = fork();
    if (m_pid == 0) {
      if (chdir(dir.c_str()) != 0) _exit(126);
      const int in = open("/dev/null", O_RDONLY);
      const int out = open(m_out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = open(m_err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(in, 0);
      dup2(out, 1);
      dup2(err, 2);
      std::vector<char*> argv;
      for (auto& w : words) argv.push_back(w.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    m_pidfd = static_cast<int>(syscall(SYS_pidfd_open, m_pid, 0));
  }
  ~CampaignProcess() {
    if (m_pid > 0 && !m_exit) {
      kill(m_pid, SIGKILL);
      waitpid(m_pid, nullptr, 0);
    }
    if (m_pidfd >= 0) close(m_pidfd);
  }
  CampaignProcess(const CampaignProcess&) = delete;
  CampaignProcess& operator=(const CampaignProcess&) = delete;

  pid_t pid() const { return m_pid; }
  void signal(int sig) const { kill(m_pid, sig); }
  // The exit code (128 + signal for a signal death), or nullopt when it is still running after `within`.
  std::optional<int> wait(std::chrono::milliseconds within) {
    if (m_exit) return m_exit;
    pollfd p{m_pidfd, POLLIN, 0};
    poll(&p, 1, static_cast<int>(within.count()));
    int status = 0;
    if (waitpid(m_pid, &status, WNOHANG) != m_pid) return std::nullopt;
    m_exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return m_exit;
  }
  std::string out() const { return util::read_file(m_out).value_or(""); }
  std::string err() const { return util::read_file(m_err).value_or(""); }

 private:
  std::filesystem::path m_out, m_err;
  pid_t m_pid = -1;
  int m_pidfd = -1;
  std::optional<int> m_exit;
};

struct Finished {
  int exit_code = -1;
  std::string out, err;
};

// Runs `servebench <args...>` in `dir` to completion (bounded by `timeout`).
inline Finished run_cli(const std::vector<std::string>& args, const std::filesystem::path& dir,
                        std::chrono::seconds timeout = std::chrono::seconds(120), const std::string& log = "cli") {
  CampaignProcess p(args, dir, log);
  Finished f;
  f.exit_code = p.wait(timeout).value_or(-1);
  f.out = p.out();
  f.err = p.err();
  return f;
}

inline std::filesystem::path campaign_temp_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("campaign_e2e_" + std::to_string(getpid())) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  ASSERT_TRUE(util::write_file_atomic(path, text));
}

// Waits (polling every 20 ms) until `ready` holds or `within` passes; returns whether it held.
inline bool wait_until(const std::function<bool()>& ready, std::chrono::milliseconds within) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  while (!ready()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

inline results::Ledger read_run_ledger(const std::filesystem::path& run_dir) {
  auto ledger = results::read_ledger(run_dir / "ledger.jsonl");
  EXPECT_TRUE(ledger.has_value());
  return ledger ? std::move(*ledger) : results::Ledger{};
}

inline boost::json::object read_json_file(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  EXPECT_TRUE(text.has_value()) << path;
  auto v = util::parse_json(text.value_or("{}"), path.string());
  EXPECT_TRUE(v && v->is_object()) << path;
  return v && v->is_object() ? v->get_object() : boost::json::object{};
}

// A sim launch line for campaign files: Llama 3.1 8B on one H200, fast time scale, oracle on.
inline std::string sim_launch(const std::string& extra = "", double time_scale = 0.05) {
  return "servebench serve-sim --hw h200 --model llama-3.1-8b --port {port} --sim-oracle --sim-time-scale " +
         std::to_string(time_scale) + (extra.empty() ? "" : " " + extra);
}

}  // namespace servebench::e2e
