#include "servebench/campaign/child_process.hpp"

#include <signal.h>

#include <thread>

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"
#include "support/wait_for.hpp"

namespace servebench::campaign {
namespace {

std::filesystem::path temp_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("campaign_child_" + std::to_string(getpid())) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

SpawnSpec shell(const std::string& command, const std::filesystem::path& log, std::vector<std::string> env = {}) {
  return {"/bin/sh", {"sh", "-c", command}, std::move(env), log};
}

TEST(ChildProcess, RunsToCompletionWithOutputInTheLog) {
  const auto dir = temp_dir("exit");
  ASSERT_TRUE(util::write_file_atomic(dir / "log", "earlier run\n"));
  auto child = ChildProcess::spawn(shell("echo out; echo err >&2; echo $GREETING; exit 3", dir / "log", {"GREETING=hi"}));
  ASSERT_TRUE(child) << child.error().message;
  EXPECT_EQ(child->log_start(), 12u);
  ASSERT_TRUE(child->wait_exit(std::chrono::seconds(10)));
  EXPECT_EQ(child->exit_status(), 3);
  EXPECT_EQ(child->exit_description(), "exited with status 3");
  EXPECT_FALSE(child->running());
  EXPECT_EQ(log_tail(dir / "log", 10, child->log_start()), (std::vector<std::string>{"out", "err", "hi"}));
  EXPECT_EQ(log_tail(dir / "log", 2), (std::vector<std::string>{"err", "hi"}));
}

TEST(ChildProcess, ItsOwnProcessGroupIsStoppedWholeByTermThenKill) {
  const auto dir = temp_dir("group");
  // The leader ignores SIGTERM, so stop() must fall back to SIGKILL; its background child goes too.
  auto child = ChildProcess::spawn(shell("trap '' TERM; sleep 60 & echo started; wait", dir / "log"));
  ASSERT_TRUE(child);
  const pid_t group = child->pid();
  EXPECT_EQ(getpgid(group), group);
  EXPECT_FALSE(child->wait_exit(std::chrono::milliseconds(200)));
  EXPECT_TRUE(child->running());
  child->stop(std::chrono::milliseconds(300));
  EXPECT_FALSE(child->running());
  EXPECT_EQ(child->exit_description(), "killed by signal 9 (Killed)");
  // Killed members linger as zombies until init reaps them; wait for that, bounded.
  EXPECT_TRUE(servebench::testing::wait_until([&] { return kill(-group, 0) != 0; }, std::chrono::seconds(5)))
      << "no member of the group is left";
}

TEST(ChildProcess, AMissingProgramExitsWith127) {
  const auto dir = temp_dir("missing");
  auto child = ChildProcess::spawn({"/nonexistent/program", {"program"}, {}, dir / "log"});
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->wait_exit(std::chrono::seconds(10)));
  EXPECT_EQ(child->exit_status(), 127);
}

TEST(ChildProcess, DestructorStopsARunningChild) {
  const auto dir = temp_dir("dtor");
  pid_t pid = 0;
  {
    auto child = ChildProcess::spawn(shell("exec sleep 60", dir / "log"));
    ASSERT_TRUE(child);
    pid = child->pid();
  }
  EXPECT_NE(kill(pid, 0), 0);
}

TEST(ChildProcess, LogTailOfAMissingFileIsEmpty) { EXPECT_TRUE(log_tail("/nonexistent/log", 5).empty()); }

}  // namespace
}  // namespace servebench::campaign
