// A server started by a shell as its own child gets no parent-death signal: kill -9 of the campaign
// leaves it running. The resume reads server.pid (group + leader start time), stops the survivor
// before it launches the arm again, and at the end no process of any of the arm's groups is left.
#include <signal.h>

#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

using campaign::live_group_members;
using campaign::parse_pid_record;

std::optional<campaign::PidRecord> read_pid_record(const std::filesystem::path& file) {
  auto text = util::read_file(file);
  return text ? parse_pid_record(*text) : std::nullopt;
}

TEST(CampaignOrphans, KillNineLeavesAShellsServerRunningAndTheResumeStopsItBeforeRelaunching) {
  const auto dir = campaign_temp_dir("orphans");
  const auto out = dir / "out";
  // `; echo` keeps the shell from exec'ing the server: the server is the shell's child.
  write_text(dir / "c.yaml", "name: orphans\n"
                             "protocol: {num_prompts: \"6\", warmup_requests: 1, client_lag_limit: 1000}\n"
                             "arms:\n"
                             "  - name: a\n"
                             "    engine: sim\n"
                             "    gate: false\n"
                             "    stop_timeout_s: 5\n"
                             "    launch: \"cd " + dir.string() + " && " +
                                 sim_launch("--log-level warning", 1.0) + "; echo server exited\"\n"
                             "scenarios:\n"
                             "  - {name: s, isl: 64, osl: 300, concurrency: [1, 2]}\n");
  std::set<pid_t> groups;
  pid_t survivor = 0;
  {
    ChildProcess first = start_in({"campaign", "run", "c.yaml", "--out", "out"}, dir, "first");
    // Mid-point: the first point is being measured.
    ASSERT_TRUE(wait_until([&] {
      return util::read_file(out / "status.txt").value_or("").find("current a/s/c1") != std::string::npos;
    }, std::chrono::seconds(60))) << first.stdout_text() << first.stderr_text();
    const auto record = read_pid_record(out / "arms/a/server.pid");
    ASSERT_TRUE(record.has_value());
    EXPECT_GT(record->start_time, 0u);
    groups.insert(record->pid);
    for (const auto& m : live_group_members(record->pid)) {
      if (m.pid != record->pid) survivor = m.pid;  // the shell's child: the server
    }
    ASSERT_NE(survivor, 0) << "the shell exec'd the server: nothing to orphan";
    first.signal(SIGKILL);
    ASSERT_TRUE(first.wait_exit(std::chrono::seconds(10)).has_value());
  }
  // The leader (the shell) got its parent-death signal; the server did not.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ASSERT_TRUE(process_alive(survivor)) << "the server did not survive the kill -9: the test proves nothing";

  ChildProcess resume = start_in({"campaign", "run", "c.yaml", "--out", "out"}, dir, "resume");
  std::optional<int> code;
  for (int i = 0; i < 1200 && !code; ++i) {  // at most 120 s; every group the resume records
    if (const auto r = read_pid_record(out / "arms/a/server.pid")) groups.insert(r->pid);
    code = resume.wait_exit(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(code, 0) << resume.stdout_text() << resume.stderr_text();
  const std::string console = resume.stdout_text();
  const auto stopped = console.find("stopped the server an earlier run left behind");
  const auto launching = console.find("arm a: launching");
  ASSERT_NE(stopped, std::string::npos) << console;
  EXPECT_LT(stopped, launching) << "the survivor must be gone before the arm launches again\n" << console;
  EXPECT_NE(console.find(std::to_string(survivor)), std::string::npos) << console;
  EXPECT_FALSE(process_alive(survivor));
  EXPECT_GE(groups.size(), 2u) << "the resume launched its own server";
  for (const pid_t g : groups) EXPECT_TRUE(live_group_members(g).empty()) << "group " << g << " left an orphan";
  for (const auto& r : read_run_ledger(out).latest()) EXPECT_EQ(r.status, results::PointStatus::ok) << r.reason;
}

}  // namespace
}  // namespace servebench::e2e
