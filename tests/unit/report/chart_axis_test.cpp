#include "servebench/report/chart_axis.hpp"

#include <gtest/gtest.h>

using namespace servebench::report;

TEST(ChartAxis, LinearAxisEndsOnANiceStep) {
  const Axis a = linear_axis(441);  // step 100 (441/5 = 88 → 100), five steps to 500
  EXPECT_DOUBLE_EQ(a.lo, 0);
  EXPECT_DOUBLE_EQ(a.hi, 500);
  ASSERT_EQ(a.ticks.size(), 6u);
  EXPECT_EQ(a.ticks[5].label, "500");
  EXPECT_DOUBLE_EQ(a.fraction(250), 0.5);
  const Axis big = linear_axis(1820);  // 364 → 500
  EXPECT_DOUBLE_EQ(big.hi, 2000);
  EXPECT_EQ(big.ticks[2].label, "1,000");
  const Axis small = linear_axis(0.9);  // 0.18 → 0.2
  EXPECT_DOUBLE_EQ(small.hi, 1.0);
  EXPECT_EQ(small.ticks[1].label, "0.2");
  const Axis quarter = linear_axis(11);  // 2.2 → 2.5
  EXPECT_EQ(quarter.ticks[1].label, "2.5");
  EXPECT_DOUBLE_EQ(linear_axis(0).hi, 1);
}

TEST(ChartAxis, Log2AxisHasATickPerPowerOfTwo) {
  const Axis a = log2_axis(1, 64);
  EXPECT_DOUBLE_EQ(a.lo, 1);
  EXPECT_DOUBLE_EQ(a.hi, 64);
  ASSERT_EQ(a.ticks.size(), 7u);
  EXPECT_EQ(a.ticks[3].label, "8");
  EXPECT_DOUBLE_EQ(a.fraction(8), 0.5);
  const Axis odd = log2_axis(3, 3);  // one point: widened to [2, 4]
  EXPECT_DOUBLE_EQ(odd.lo, 2);
  EXPECT_DOUBLE_EQ(odd.hi, 4);
  EXPECT_EQ(log2_axis(0.5, 2).ticks[0].label, "0.5");
}
