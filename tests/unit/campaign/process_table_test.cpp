#include "servebench/campaign/process_table.hpp"

#include <unistd.h>

#include <gtest/gtest.h>

#include "servebench/campaign/child_process.hpp"
#include "servebench/util/file_io.hpp"

namespace servebench::campaign {
namespace {

TEST(ProcessTable, ReadsThisProcess) {
  const auto self = read_proc_stat(getpid());
  ASSERT_TRUE(self.has_value());
  EXPECT_EQ(self->pid, getpid());
  EXPECT_EQ(self->ppid, getppid());
  EXPECT_EQ(self->pgrp, getpgrp());
  EXPECT_GT(self->start_time, 0u);
  EXPECT_FALSE(read_proc_stat(0).has_value());
}

TEST(ProcessTable, PidRecordsRoundTripAndRejectGarbage) {
  const auto r = parse_pid_record(pid_record_text({1234, 98765}));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->pid, 1234);
  EXPECT_EQ(r->start_time, 98765u);
  EXPECT_EQ(parse_pid_record("4321\n")->start_time, 0u);  // the older one-number file
  for (const char* bad : {"", "x", "1", "-5 3", "12 -3", "12 3 4", "99999999999 1"}) {
    EXPECT_FALSE(parse_pid_record(bad).has_value()) << bad;
  }
}

TEST(ProcessTable, AReusedPidIsNoSurvivor) {
  // This process is alive, but it is not the process a record with another start time names.
  const auto self = read_proc_stat(getpid());
  ASSERT_TRUE(self.has_value());
  EXPECT_TRUE(survivors({getpid(), self->start_time + 1}).empty());
  EXPECT_TRUE(survivors({getpid(), 0}).empty());
}

TEST(ProcessTable, StopRecordedGroupStopsWhatAGroupLeftBehind) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("process_table_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  auto child = ChildProcess::spawn({"/bin/sh", {"sh", "-c", "trap '' TERM; sleep 60"}, {}, dir / "log"});
  ASSERT_TRUE(child);
  const auto stat = read_proc_stat(child->pid());
  ASSERT_TRUE(stat.has_value());
  ASSERT_TRUE(util::write_file_atomic(dir / "server.pid", pid_record_text({child->pid(), stat->start_time})));
  EXPECT_FALSE(survivors({child->pid(), stat->start_time}).empty());
  const std::string said = stop_recorded_group(dir / "server.pid", std::chrono::milliseconds(200));
  EXPECT_NE(said.find("stopped the server an earlier run left behind"), std::string::npos) << said;
  EXPECT_TRUE(live_group_members(child->pid()).empty());
  EXPECT_FALSE(std::filesystem::exists(dir / "server.pid"));
  EXPECT_EQ(stop_recorded_group(dir / "server.pid", std::chrono::milliseconds(200)), "");
}

}  // namespace
}  // namespace servebench::campaign
