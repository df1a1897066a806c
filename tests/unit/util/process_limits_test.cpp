#include "servebench/util/process_limits.hpp"

#include <sys/resource.h>

#include <gtest/gtest.h>

TEST(ProcessLimits, OpenFileSoftLimitReachesTheHardLimit) {
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &before), 0);
  rlimit lowered = before;
  lowered.rlim_cur = std::min<rlim_t>(before.rlim_max, 256);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &lowered), 0);
  servebench::util::raise_open_file_limit();
  rlimit after{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &after), 0);
  EXPECT_EQ(after.rlim_cur, before.rlim_max);
}
