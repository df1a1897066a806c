// Verdicts on the hand-made two-arm fixture; every expected value is worked out by hand from the
// fixture's numbers in the comments, not by the code under test.
#include "servebench/report/verdicts.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"

using namespace servebench::report;
using namespace servebench::report::test_support;

namespace {
CampaignSet fixture_set() {
  auto run = read_run_input(fixture("two-arm"));
  EXPECT_TRUE(run) << run.error().message;
  std::vector<RunInput> runs;
  runs.push_back(std::move(*run));
  return merge_runs(std::move(runs));
}
}  // namespace

TEST(Verdicts, CrossoverAtEightInBothContestedScenarios) {
  const CampaignSet set = fixture_set();
  const std::size_t e7b = arm_named(set, "e7b"), tp = arm_named(set, "tp2pp4");
  const auto ws = winners(set, scenario_tables(set));
  // 16k-512 output tok/s: C1 e7b 49.6 vs 16.7; C8 110 vs 130; C16 95 vs 240; C32 e7b invalid.
  const auto x16 = crossover(scenario_named(set, "16k-512"), ws);
  ASSERT_TRUE(x16);
  EXPECT_EQ(x16->concurrency, 8);
  EXPECT_EQ(x16->before, e7b);
  EXPECT_EQ(x16->after, tp);
  // 1k-4k: C1 71.4 vs 19.6; C8 412 vs 430; C32 300 vs 1210.
  const auto x1k = crossover(scenario_named(set, "1k-4k"), ws);
  ASSERT_TRUE(x1k);
  EXPECT_EQ(x1k->concurrency, 8);
  // 512k-1: e7b skipped everywhere, nothing contested.
  EXPECT_FALSE(crossover(scenario_named(set, "512k-1"), ws));
}

TEST(Verdicts, WinnersSayWhenAnArmLeadsAlone) {
  const CampaignSet set = fixture_set();
  const auto ws = winners(set, scenario_tables(set));
  const std::size_t s16 = scenario_named(set, "16k-512");
  for (const auto& w : ws) {
    if (w.scenario != s16) continue;
    if (w.concurrency == 1) {
      EXPECT_EQ(w.lead, Lead::contested);
      EXPECT_NEAR(w.margin, 49.6 / 16.7, 1e-12);
    }
    if (w.concurrency == 32) {
      EXPECT_EQ(w.lead, Lead::alone);  // e7b's point is invalid
    }
  }
}

TEST(Verdicts, TiesWithinOnePercentAndNoFlipFlopCrossover) {
  const CampaignSet set = set_of({point("a", "s", 1, 100, 10), point("b", "s", 1, 99.5, 10),   // tie (0.5 %)
                                  point("a", "s", 2, 100, 10), point("b", "s", 2, 200, 10),    // b
                                  point("a", "s", 4, 300, 10), point("b", "s", 4, 200, 10)});  // a again
  const auto ws = winners(set, scenario_tables(set));
  ASSERT_EQ(ws.size(), 3u);
  EXPECT_EQ(ws[0].lead, Lead::tie);
  EXPECT_EQ(ws[0].arms.size(), 2u);
  // The tie at C1 does not count: b leads at C2, a at C4, so the lead changes at C4 and stays.
  const auto x = crossover(0, ws);
  ASSERT_TRUE(x);
  EXPECT_EQ(x->concurrency, 4);
  // a, b, a over three contested levels: the lead came back, no crossover.
  const CampaignSet back =
      set_of({point("a", "s", 1, 200, 10), point("b", "s", 1, 100, 10), point("a", "s", 2, 100, 10),
              point("b", "s", 2, 200, 10), point("a", "s", 4, 300, 10), point("b", "s", 4, 200, 10)});
  EXPECT_FALSE(crossover(0, winners(back, scenario_tables(back))));
}

TEST(Verdicts, SweetSpotIsTheBestTotalPerGpuWithinTheSlo) {
  const CampaignSet set = fixture_set();
  const std::size_t e7b = arm_named(set, "e7b"), tp = arm_named(set, "tp2pp4");
  const std::size_t s16 = scenario_named(set, "16k-512"), s1k = scenario_named(set, "1k-4k"),
                    s512 = scenario_named(set, "512k-1");
  const auto at = [&](const std::vector<SweetSpot>& spots, std::size_t arm, std::size_t scen) -> const SweetSpot* {
    for (const auto& s : spots) {
      if (s.arm == arm && s.scenario == scen) return &s;
    }
    return nullptr;
  };
  const auto spots = sweet_spots(set, 50);
  // e7b 1k-4k: C1 TPOT 13.9 → 71.4×5120/4096/8 = 11.16; C8 TPOT 22.5 → 412×1.25/8 = 64.375; C32 TPOT 50.1 > 50.
  ASSERT_NE(at(spots, e7b, s1k), nullptr);
  ASSERT_NE(at(spots, e7b, s1k)->point, nullptr);
  EXPECT_EQ(at(spots, e7b, s1k)->point->record.concurrency, 8);
  EXPECT_NEAR(total_per_gpu(at(spots, e7b, s1k)->point->record), 64.375, 1e-3);
  // tp2pp4 16k-512: C1 TPOT 50.3 > 50; C8 48.0 → 536.25; C16 49.5 → 240×33/8 = 990; C32 64 > 50.
  EXPECT_EQ(at(spots, tp, s16)->point->record.concurrency, 16);
  // tp2pp4 512k-1: OSL 1, TPOT undefined: nothing meets the SLO.
  ASSERT_NE(at(spots, tp, s512), nullptr);
  EXPECT_EQ(at(spots, tp, s512)->point, nullptr);
  // A tighter SLO moves the sweet spot: 20 ms leaves e7b 16k-512 with C1 only (13.7 ms; C8 is 26.0).
  EXPECT_EQ(at(sweet_spots(set, 20), e7b, s16)->point->record.concurrency, 1);
}

TEST(Verdicts, UsableWindowEndsBeforeTheTpotCliff) {
  const CampaignSet set = fixture_set();
  const std::size_t e7b = arm_named(set, "e7b"), tp = arm_named(set, "tp2pp4");
  const std::size_t s16 = scenario_named(set, "16k-512");
  bool seen_e7b = false, seen_tp = false;
  for (const auto& w : usable_windows(set)) {
    if (w.scenario != s16) continue;
    if (w.arm == e7b) {
      // 13.7 → 26.0 (×1.90) → 61.0 (×2.35): the cliff is at C16; C32 is invalid and not a step.
      seen_e7b = true;
      EXPECT_EQ(w.from, 1);
      EXPECT_EQ(w.to, 8);
      EXPECT_EQ(w.cliff, 16);
      EXPECT_DOUBLE_EQ(w.tpot_before, 26.0);
      EXPECT_DOUBLE_EQ(w.tpot_at_cliff, 61.0);
    }
    if (w.arm == tp) {
      // 50.3, 48.0, 49.5, 64.0: never doubles.
      seen_tp = true;
      EXPECT_EQ(w.to, 32);
      EXPECT_FALSE(w.cliff);
    }
  }
  EXPECT_TRUE(seen_e7b && seen_tp);
}

TEST(Verdicts, BoundaryAndScenariosOnlyOneArmReaches) {
  const CampaignSet set = fixture_set();
  const std::size_t e7b = arm_named(set, "e7b"), tp = arm_named(set, "tp2pp4");
  const auto b = boundaries(set);
  EXPECT_EQ(b[e7b].max_isl, 16384);
  EXPECT_EQ(b[tp].max_isl, 524288);
  ASSERT_EQ(b[tp].scenarios.size(), 1u);
  EXPECT_EQ(b[tp].scenarios[0], scenario_named(set, "512k-1"));
  const auto only = exclusive_reach(set);
  ASSERT_EQ(only.size(), 1u);
  EXPECT_EQ(only[0].arms, std::vector<std::size_t>{tp});
  EXPECT_EQ(only[0].scenarios, std::vector<std::size_t>{scenario_named(set, "512k-1")});
}
