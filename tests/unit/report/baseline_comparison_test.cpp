// compare_with_baseline on the fixture and its baseline.csv; medians worked out by hand.
#include <gtest/gtest.h>

#include "report_test_support.hpp"
#include "servebench/report/verdicts.hpp"

using namespace servebench::report;
using namespace servebench::report::test_support;

TEST(BaselineComparison, MedianRatioPerArmAndScenario) {
  auto run = read_run_input(fixture("two-arm"));
  ASSERT_TRUE(run);
  std::vector<RunInput> runs;
  runs.push_back(std::move(*run));
  const CampaignSet set = merge_runs(std::move(runs));
  const auto baseline = read_baseline(fixture("baseline.csv"));
  ASSERT_TRUE(baseline);
  const auto cmp = compare_with_baseline(set, *baseline);
  // 7 rows: 64k-512 has no scenario here.
  EXPECT_EQ(cmp.unmatched, 1u);
  ASSERT_EQ(cmp.matches.size(), 6u);
  const std::size_t e7b = arm_named(set, "e7b"), tp = arm_named(set, "tp2pp4");
  const std::size_t s16 = scenario_named(set, "16k-512"), s512 = scenario_named(set, "512k-1");
  bool e7b16 = false, tp16 = false, tp512 = false;
  for (const auto& m : cmp.medians) {
    if (m.arm == e7b && m.scenario == s16) {
      // 49.6 / 223.2 = 0.2222…, 110 / 440 = 0.25 → median (0.2222… + 0.25) / 2 = 0.2361…
      e7b16 = true;
      EXPECT_EQ(m.matched, 2u);
      EXPECT_NEAR(m.output_ratio, (49.6 / 223.2 + 0.25) / 2, 1e-12);
    }
    if (m.arm == tp && m.scenario == s16) {
      tp16 = true;
      EXPECT_NEAR(m.output_ratio, (16.7 / 80 + 130.0 / 650) / 2, 1e-12);  // 0.204375
    }
    if (m.arm == tp && m.scenario == s512) {
      // The row without an arm matches the only arm with an ok point (e7b skipped 512k-1).
      tp512 = true;
      EXPECT_NEAR(m.output_ratio, 0.0222 / 0.1, 1e-12);
    }
  }
  EXPECT_TRUE(e7b16 && tp16 && tp512);
  // TPOT ratio of e7b 16k-512 C1: 13.7 / 3.1.
  EXPECT_NEAR(cmp.matches[0].tpot_ratio, 13.7 / 3.1, 1e-12);
}

TEST(BaselineComparison, MatchesByLengthsWhenNamesDiffer) {
  auto ours = point("a", "chat-1k", 8, 100, 10);
  const CampaignSet set = set_of({ours});
  Baseline b{"ref", "ref.csv", {point("", "1K/128", 8, 400, 5)}};
  b.points[0].isl = 1024;
  b.points[0].osl = 128;
  const auto cmp = compare_with_baseline(set, b);
  ASSERT_EQ(cmp.matches.size(), 1u);
  EXPECT_DOUBLE_EQ(cmp.matches[0].output_ratio, 0.25);
  b.points[0].osl = 256;  // other lengths: no match
  EXPECT_EQ(compare_with_baseline(set, b).unmatched, 1u);
}
