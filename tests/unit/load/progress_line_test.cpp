#include "servebench/load/progress_line.hpp"

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

TEST(ProgressLine, ShowsDoneRunningRateAndEta) {
  const PhaseProgress p{.done = 250, .total = 1000, .running = 64, .failed = 0, .output_tokens = 50'000,
                        .elapsed = std::chrono::seconds(10)};
  EXPECT_EQ(progress_line(p), "   250/1000 done · 64 running · 5000 out tok/s · ETA 0:30");
}

TEST(ProgressLine, MentionsFailuresOnlyWhenThereAreSome) {
  const PhaseProgress p{.done = 10, .total = 10, .running = 0, .failed = 2, .output_tokens = 0,
                        .elapsed = std::chrono::seconds(1)};
  EXPECT_EQ(progress_line(p), "    10/10 done · 0 running · 2 failed · 0 out tok/s · ETA 0:00");
}

}  // namespace
}  // namespace servebench::load
