#include "servebench/report/campaign_set.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"

using namespace servebench::report;
using namespace servebench::report::test_support;

TEST(CampaignSet, SameArmNameFromTwoRunsStaysDistinct) {
  std::vector<RunInput> runs;
  runs.push_back(run_of("machine-a", {point("e7b", "chat", 1, 50, 14), point("tp2pp4", "chat", 1, 17, 50)}));
  runs.push_back(run_of("machine-b", {point("e7b", "chat", 1, 52, 13)}));
  const CampaignSet set = merge_runs(std::move(runs));
  ASSERT_EQ(set.arms.size(), 3u);
  EXPECT_EQ(set.arms[0].display, "e7b@machine-a");
  EXPECT_EQ(set.arms[1].display, "tp2pp4");  // unique names are not qualified
  EXPECT_EQ(set.arms[2].display, "e7b@machine-b");
  ASSERT_EQ(set.scenarios.size(), 1u);
  const MeasuredPoint* b = set.find(2, 0, 1);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->record.arm, "e7b@machine-b");
  EXPECT_DOUBLE_EQ(b->record.throughput.output_tok_per_s, 52);
  EXPECT_EQ(set.find(1, 0, 8), nullptr);
}

TEST(CampaignSet, QualifiesByDirectoryWhenCampaignNamesClash) {
  std::vector<RunInput> runs;
  runs.push_back(run_of("same", {point("a", "chat", 1, 1, 1)}));
  runs.push_back(run_of("same", {point("a", "chat", 1, 2, 1)}));
  runs[0].label = "runs/left/";
  runs[1].label = "runs/right";
  const CampaignSet set = merge_runs(std::move(runs));
  EXPECT_EQ(set.arms[0].display, "a@left");
  EXPECT_EQ(set.arms[1].display, "a@right");
}

TEST(CampaignSet, TimeSpanComesFromTheRecords) {
  auto a = point("a", "chat", 1, 1, 1);
  a.started_at = "2026-11-20T08:00:00Z";
  a.duration_s = 60.4;
  auto b = point("a", "chat", 2, 1, 1);
  b.started_at = "2026-11-20T07:00:00Z";
  b.duration_s = 10;
  auto c = point("a", "chat", 4, 1, 1);  // no start time: ignored
  const CampaignSet set = set_of({a, b, c});
  EXPECT_EQ(set.first_start, "2026-11-20T07:00:00Z");
  EXPECT_EQ(set.last_end, "2026-11-20T08:01:00Z");  // 08:00:00 + 60.4 s, second precision
}

TEST(CampaignSet, ScenariosMergeByNameAndLengths) {
  auto a = point("a", "chat", 1, 1, 1);
  auto b = point("b", "chat", 1, 1, 1);
  auto c = point("b", "chat", 2, 1, 1);
  c.isl = 2048;  // same name, other lengths: another scenario
  const CampaignSet set = set_of({a, b, c});
  ASSERT_EQ(set.scenarios.size(), 2u);
  EXPECT_EQ(set.scenarios[1].isl, 2048);
}
