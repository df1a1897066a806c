// Live progress end to end: the campaign on a pseudo-terminal rewrites one line in place with the
// point being measured (requests done/total, out tok/s, elapsed, ETA) and the matrix position;
// status.txt carries the same progress while the point runs (`campaign status` shows it); with
// --no-progress, or not on a terminal, only one line per finished point.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <termios.h>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

// `servebench <args>` on the slave side of a pseudo-terminal, in `dir`; everything it writes to
// the terminal, read until it exits or `within` passes; the exit code (-1 when killed at the deadline).
// `while_running` is polled between reads.
struct PtyRun {
  int exit_code = -1;
  std::string screen;
};

PtyRun run_on_pty(const std::vector<std::string>& args, const std::filesystem::path& dir, std::chrono::seconds within,
                  const std::function<void()>& while_running = {}) {
  const auto argv_strings = testing::servebench_argv(args);
  std::vector<char*> argv;
  for (const auto& a : argv_strings) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  winsize ws{};
  ws.ws_col = 200;
  ws.ws_row = 50;
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, &ws);
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(127);
    setenv("TERM", "xterm", 1);
    execv(argv[0], argv.data());
    _exit(127);
  }
  PtyRun out;
  if (pid < 0) return out;
  const auto deadline = std::chrono::steady_clock::now() + within;
  char buf[4096];
  for (;;) {
    if (while_running) while_running();
    pollfd p{master, POLLIN, 0};
    const int ready = poll(&p, 1, 50);
    if (ready > 0) {
      const ssize_t n = read(master, buf, sizeof buf);
      if (n <= 0) break;  // EIO: the child closed the terminal (exited)
      out.screen.append(buf, static_cast<std::size_t>(n));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(pid, SIGKILL);
      break;
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(master);
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  return out;
}

std::string progress_campaign(const std::string& name) {
  // Real-time simulator: the measured phase of a1/s/c1 lasts seconds, long enough for several redraws.
  return "name: " + name + "\n"
         "protocol: {num_prompts: \"8\", warmup_requests: 0, client_lag_limit: 1000}\n"
         "arms:\n"
         "  - {name: a, engine: sim, gate: false, launch: \"" + sim_launch("", 1.0) + "\"}\n"
         "scenarios:\n"
         "  - {name: s, isl: 64, osl: 128, concurrency: [1, 2]}\n";
}

TEST(CampaignProgress, OnATerminalThePointIsRedrawnInPlaceAndStatusShowsTheSame) {
  const auto dir = campaign_temp_dir("progress_tty");
  write_text(dir / "c.yaml", progress_campaign("progress-tty"));
  std::string status_during, status_command;
  const auto watch = [&] {
    if (!status_during.empty()) return;
    const auto text = util::read_file(dir / "out/status.txt").value_or("");
    if (text.find(" req · ") == std::string::npos) return;
    status_during = text;
    status_command = run_servebench({"campaign", "status", "out"}, dir, std::chrono::seconds(30), "status").out;
  };
  const auto run = run_on_pty({"campaign", "run", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(240), watch);
  ASSERT_EQ(run.exit_code, 0) << run.screen;
  // In place: carriage return + erase line, then the point with its matrix position.
  EXPECT_NE(run.screen.find("\r\033[K[1/2] a/s/c1  "), std::string::npos) << run.screen;
  EXPECT_NE(run.screen.find("\r\033[K[2/2] a/s/c2  "), std::string::npos) << run.screen;
  EXPECT_NE(run.screen.find("/8 req · "), std::string::npos) << run.screen;
  EXPECT_NE(run.screen.find(" out tok/s · "), std::string::npos) << run.screen;
  EXPECT_NE(run.screen.find(" elapsed · ETA "), std::string::npos) << run.screen;
  EXPECT_NE(run.screen.find("campaign ETA "), std::string::npos) << "the second point knows the first one's time\n" << run.screen;
  // The finished point's line replaces the live one (the terminal turns \n into \r\n).
  EXPECT_NE(run.screen.find("\r\033[K[1/2] a/s/c1  ok"), std::string::npos) << run.screen;
  ASSERT_FALSE(status_during.empty()) << "status.txt never showed the point's progress";
  EXPECT_NE(status_during.find("current a/s/c"), std::string::npos) << status_during;
  EXPECT_NE(status_during.find("point progress "), std::string::npos) << status_during;
  EXPECT_NE(status_command.find("point progress "), std::string::npos) << status_command;
  EXPECT_EQ(util::read_file(dir / "out/status.txt").value_or("").find("point progress"), std::string::npos)
      << "a finished campaign has no point in progress";
}

TEST(CampaignProgress, WithNoProgressOrWithoutATerminalOnlyFinishedPointsArePrinted) {
  const auto dir = campaign_temp_dir("progress_off");
  write_text(dir / "c.yaml", progress_campaign("progress-off"));
  const auto tty = run_on_pty({"campaign", "run", "c.yaml", "--out", "tty", "--no-progress", "--only", "c=1"}, dir,
                              std::chrono::seconds(240));
  ASSERT_EQ(tty.exit_code, 0) << tty.screen;
  EXPECT_EQ(tty.screen.find("\033[K"), std::string::npos) << tty.screen;
  EXPECT_NE(tty.screen.find("[1/1] a/s/c1  ok"), std::string::npos) << tty.screen;
  const auto piped = run_servebench({"campaign", "run", "c.yaml", "--out", "pipe", "--only", "c=1"}, dir,
                                    std::chrono::seconds(240), "piped");
  ASSERT_EQ(piped.exit_code, 0) << piped.out << piped.err;
  EXPECT_EQ(piped.out.find("\033[K"), std::string::npos) << piped.out;
  EXPECT_EQ(piped.out.find(" req · "), std::string::npos) << piped.out;
  EXPECT_NE(piped.out.find("[1/1] a/s/c1  ok"), std::string::npos) << piped.out;
}

}  // namespace
}  // namespace servebench::e2e
