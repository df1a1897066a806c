#include "servebench/stats/intervals.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace servebench::stats {
namespace {

TEST(Intervals, MedianOfOddAndEvenCounts) {
  const std::vector<double> odd{5, 1, 3}, even{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median_of(odd), 3);
  EXPECT_DOUBLE_EQ(median_of(even), 2.5);
  EXPECT_TRUE(std::isnan(median_of({})));
}

TEST(Intervals, BootstrapIsSeededAndInsideTheRange) {
  const std::vector<double> v{100, 103, 98, 101, 99, 104, 97};
  const Interval a = bootstrap_median(v), b = bootstrap_median(v);
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
  EXPECT_GE(a.low, 97);
  EXPECT_LE(a.high, 104);
  EXPECT_LE(a.low, median_of(v));
  EXPECT_GE(a.high, median_of(v));
  // Narrower than the full range for seven values: the median's resamples rarely reach the extremes.
  EXPECT_GT(a.low, 97);
  EXPECT_LT(a.high, 104);
}

TEST(Intervals, BootstrapOfOneValueIsThatValue) {
  const std::vector<double> v{42};
  const Interval i = bootstrap_median(v);
  EXPECT_EQ(i.low, 42);
  EXPECT_EQ(i.high, 42);
}

TEST(Intervals, SeparationNeedsAGap) {
  EXPECT_TRUE((Interval{1, 2}).separated_from({2.5, 3}));
  EXPECT_TRUE((Interval{2.5, 3}).separated_from({1, 2}));
  EXPECT_FALSE((Interval{1, 2}).separated_from({2, 3}));
  EXPECT_FALSE((Interval{1, 5}).separated_from({2, 3}));
}

TEST(Intervals, WilsonMatchesTheClosedForm) {
  // 8 of 10 at 95 %: the textbook Wilson interval is [0.4902, 0.9433].
  const Interval i = wilson(8, 10);
  EXPECT_NEAR(i.low, 0.4902, 1e-4);
  EXPECT_NEAR(i.high, 0.9433, 1e-4);
  const Interval all = wilson(10, 10);
  EXPECT_NEAR(all.low, 0.7225, 1e-4);
  EXPECT_DOUBLE_EQ(all.high, 1.0);
  const Interval none = wilson(0, 0);
  EXPECT_EQ(none.low, 0.0);
  EXPECT_EQ(none.high, 1.0);
}

}  // namespace
}  // namespace servebench::stats
