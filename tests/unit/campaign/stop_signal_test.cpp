#include "servebench/campaign/stop_signal.hpp"

#include <signal.h>

#include <gtest/gtest.h>

#include "servebench/campaign/child_process.hpp"

namespace servebench::campaign {
namespace {

TEST(StopSignal, ASignalIsRecordedAndWakesWaiters) {
  StopSignal& stop = StopSignal::install();
  stop.reset_for_tests();
  EXPECT_FALSE(stop.requested());
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(stop.wait_for(std::chrono::milliseconds(30)));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(30));
  raise(SIGTERM);
  EXPECT_TRUE(stop.requested());
  EXPECT_EQ(stop.signal_number(), SIGTERM);
  const auto t1 = std::chrono::steady_clock::now();
  EXPECT_TRUE(stop.wait_for(std::chrono::seconds(10)));
  EXPECT_LT(std::chrono::steady_clock::now() - t1, std::chrono::seconds(1));
  stop.reset_for_tests();
  EXPECT_FALSE(stop.requested());
}

TEST(StopSignal, TheGuardedServerGroupGetsSigterm) {
  StopSignal& stop = StopSignal::install();
  stop.reset_for_tests();
  const auto log = std::filesystem::path(::testing::TempDir()) / ("stop_signal_" + std::to_string(getpid()) + ".log");
  auto child = ChildProcess::spawn({"/bin/sh", {"sh", "-c", "exec sleep 60"}, {}, log});
  ASSERT_TRUE(child);
  stop.guard_group(child->pid());
  raise(SIGINT);
  stop.guard_group(0);
  EXPECT_TRUE(child->wait_exit(std::chrono::seconds(10)));
  EXPECT_EQ(child->exit_description(), "killed by signal 15 (Terminated)");
  EXPECT_EQ(stop.signal_number(), SIGINT);
  stop.reset_for_tests();
}

}  // namespace
}  // namespace servebench::campaign
