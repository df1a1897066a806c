#include "servebench/report/pareto.hpp"

#include <cmath>

#include <gtest/gtest.h>

using namespace servebench::report;

TEST(ParetoFrontier, KeepsOnlyUndominatedPointsByInteractivity) {
  // (interactivity, throughput): (70, 200) fast and thin, (40, 450), (35, 300) dominated by (40, 450),
  // (20, 990), (15, 1700), (16, 380) dominated by (20, 990).
  const std::vector<ParetoPoint> pts{{70, 200, 1},  {40, 450, 8},   {35, 300, 16},
                                     {20, 990, 16}, {15, 1700, 32}, {16, 380, 64}};
  const auto f = pareto_frontier(pts);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].concurrency, 32);
  EXPECT_EQ(f[1].concurrency, 16);
  EXPECT_DOUBLE_EQ(f[1].total_per_gpu, 990);
  EXPECT_EQ(f[2].concurrency, 8);
  EXPECT_EQ(f[3].concurrency, 1);
}

TEST(ParetoFrontier, TiesAndUndefinedPoints) {
  // Same interactivity: only the higher throughput is on the frontier; NaN is ignored.
  const std::vector<ParetoPoint> pts{{50, 100, 1}, {50, 120, 2}, {std::nan(""), 999, 4}, {30, 120, 8}};
  const auto f = pareto_frontier(pts);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].concurrency, 2);  // (30, 120) has less interactivity for the same throughput
  EXPECT_TRUE(pareto_frontier(std::vector<ParetoPoint>{}).empty());
}
