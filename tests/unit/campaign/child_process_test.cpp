#include "support/temp_dir.hpp"
#include "servebench/campaign/child_process.hpp"

#include <signal.h>

#include <thread>

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"
#include "support/wait_for.hpp"

namespace servebench::campaign {
namespace {

using servebench::testing::fresh_dir;

SpawnSpec shell(const std::string& command, const std::filesystem::path& log, std::vector<std::string> env = {}) {
  return {"/bin/sh", {"sh", "-c", command}, std::move(env), log};
}

TEST(ChildProcess, RunsToCompletionWithOutputInTheLog) {
  const auto dir = fresh_dir("campaign_child", "exit");
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
  const auto dir = fresh_dir("campaign_child", "group");
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
  const auto dir = fresh_dir("campaign_child", "missing");
  auto child = ChildProcess::spawn({"/nonexistent/program", {"program"}, {}, dir / "log"});
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->wait_exit(std::chrono::seconds(10)));
  EXPECT_EQ(child->exit_status(), 127);
}

TEST(ChildProcess, DestructorStopsARunningChild) {
  const auto dir = fresh_dir("campaign_child", "dtor");
  pid_t pid = 0;
  {
    auto child = ChildProcess::spawn(shell("exec sleep 60", dir / "log"));
    ASSERT_TRUE(child);
    pid = child->pid();
  }
  EXPECT_NE(kill(pid, 0), 0);
}

TEST(ChildProcess, MembersThatOutliveTheLeaderAreStoppedWithTheGroup) {
  const auto dir = fresh_dir("campaign_child", "outlived");
  // A shell that starts the server as its child and exits: the server is left in the group.
  auto child = ChildProcess::spawn(shell("sleep 60 & echo $!", dir / "log"));
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->wait_exit(std::chrono::seconds(10)));
  const auto lines = log_tail(dir / "log", 1, child->log_start());
  ASSERT_EQ(lines.size(), 1u);
  const pid_t member = std::stoi(lines[0]);
  EXPECT_EQ(kill(member, 0), 0) << "the leader's child runs on";
  child->stop(std::chrono::milliseconds(500));
  EXPECT_TRUE(servebench::testing::wait_until([&] { return kill(member, 0) != 0; }, std::chrono::seconds(5)))
      << "stop() left the leader's child running";
}

TEST(ChildProcess, OutputReachesTheLogRedacted) {
  const auto dir = fresh_dir("campaign_child", "redacted");
  auto child = ChildProcess::spawn(
      shell("echo 'ServerArgs(api_key=\"sk-1a2b\", port=1)'; echo 'launch --api-key=sk-3c4d' >&2; printf 'HF_TOKEN=t0k5'",
            dir / "log"));
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->wait_exit(std::chrono::seconds(10)));
  const std::string log = util::read_file(dir / "log").value_or("");
  for (const char* secret : {"sk-1a2b", "sk-3c4d", "t0k5"}) EXPECT_EQ(log.find(secret), std::string::npos) << log;
  EXPECT_NE(log.find("api_key=\"<redacted>\", port=1)"), std::string::npos) << log;
  EXPECT_NE(log.find("--api-key=<redacted>"), std::string::npos) << log;
  EXPECT_NE(log.find("HF_TOKEN=<redacted>"), std::string::npos) << log;
}

TEST(ChildProcess, LogTailOfAMissingFileIsEmpty) { EXPECT_TRUE(log_tail("/nonexistent/log", 5).empty()); }

}  // namespace
}  // namespace servebench::campaign
