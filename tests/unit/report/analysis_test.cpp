#include "servebench/report/analysis.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "report_test_support.hpp"

using namespace servebench::report;
using namespace servebench::report::test_support;
using servebench::results::PointStatus;

TEST(ScenarioTables, LevelsAreTheUnionOfEveryArmsConcurrencies) {
  auto open = point("b", "chat", 8, 1, 1);
  open.request_rate = 2.5;
  const CampaignSet set =
      set_of({point("a", "chat", 8, 1, 1), point("b", "chat", 1, 1, 1), point("a", "chat", 32, 1, 1), open});
  const auto tables = scenario_tables(set);
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].levels.size(), 4u);
  EXPECT_EQ(tables[0].levels[0].concurrency, 1);
  EXPECT_EQ(tables[0].levels[1].concurrency, 8);
  EXPECT_FALSE(tables[0].levels[1].request_rate);  // closed loop first
  EXPECT_EQ(tables[0].levels[2].request_rate, 2.5);
  EXPECT_EQ(tables[0].levels[3].concurrency, 32);
}

TEST(Analysis, OnlyOkPointsAreComparable) {
  const CampaignSet set =
      set_of({point("a", "chat", 1, 1, 1), with_status(point("a", "chat", 2, 1, 1), PointStatus::invalid, "hit rate"),
              with_status(point("a", "chat", 4, 1, 1), PointStatus::skipped, "context")});
  EXPECT_TRUE(is_ok(set.find(0, 0, 1)));
  EXPECT_FALSE(is_ok(set.find(0, 0, 2)));
  EXPECT_FALSE(is_ok(set.find(0, 0, 4)));
  EXPECT_FALSE(is_ok(nullptr));
}

TEST(Analysis, RatioInteractivityAndMedian) {
  EXPECT_DOUBLE_EQ(ratio(3, 2), 1.5);
  EXPECT_TRUE(std::isnan(ratio(3, 0)));
  EXPECT_TRUE(std::isnan(ratio(std::nan(""), 2)));
  auto r = point("a", "chat", 1, 1, 20);
  EXPECT_DOUBLE_EQ(interactivity(r), 50);
  r.tpot_ms.mean = std::nan("");
  EXPECT_TRUE(std::isnan(interactivity(r)));
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
  EXPECT_DOUBLE_EQ(median({std::nan(""), 5}), 5);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(Analysis, TotalPerGpuFallsBackToTotalOverGpus) {
  auto r = point("a", "chat", 1, 10, 1, 40);
  EXPECT_DOUBLE_EQ(total_per_gpu(r), 40);
  r.throughput.total_tok_per_s_per_gpu = std::nan("");
  r.throughput.total_tok_per_s = 90;
  r.gpus = 3;
  EXPECT_DOUBLE_EQ(total_per_gpu(r), 30);
}
