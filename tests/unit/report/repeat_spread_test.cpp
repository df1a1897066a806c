// Repeats folded into one point per (arm, scenario, C): medians, spread, and the noise rule of the
// verdicts. Expected values are worked out by hand from the numbers in each test.
#include "servebench/report/repeat_spread.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"
#include "servebench/report/verdicts.hpp"

using namespace servebench::report;
using namespace servebench::report::test_support;
using servebench::results::PointRecord;
using servebench::results::PointStatus;

namespace {

std::vector<PointRecord> repeats(const std::string& arm, std::int64_t c, const std::vector<double>& outs) {
  std::vector<PointRecord> v;
  for (std::size_t i = 0; i < outs.size(); ++i) {
    PointRecord r = point(arm, "s", c, outs[i], 1000.0 / outs[i]);
    r.repeat = static_cast<std::int64_t>(i + 1);
    v.push_back(r);
  }
  return v;
}

void append(std::vector<PointRecord>& to, std::vector<PointRecord> more) {
  for (auto& r : more) to.push_back(std::move(r));
}

}  // namespace

TEST(RepeatSpread, MediansAndSpreadOverTheOkRepeatsOnly) {
  auto records = repeats("a", 4, {100, 130, 110, 90});
  records[1] = with_status(records[1], PointStatus::invalid, "cache hit rate 0.05 > 0.01");
  PointRecord single = point("a", "s", 8, 50, 20);
  records.push_back(single);
  std::vector<std::optional<RepeatSpread>> spreads;
  const auto out = collapse_repeats(records, spreads);
  ASSERT_EQ(out.size(), 2u);
  ASSERT_EQ(spreads.size(), 2u);
  // ok repeats: 100, 110, 90 → median 100 (the invalid 130 does not count).
  EXPECT_DOUBLE_EQ(out[0].throughput.output_tok_per_s, 100);
  EXPECT_EQ(out[0].status, PointStatus::ok);
  EXPECT_FALSE(out[0].repeat);
  ASSERT_TRUE(spreads[0]);
  EXPECT_EQ(spreads[0]->repeats, 4);
  EXPECT_EQ(spreads[0]->ok, 3);
  EXPECT_DOUBLE_EQ(spreads[0]->output_tok_per_s.min, 90);
  EXPECT_DOUBLE_EQ(spreads[0]->output_tok_per_s.max, 110);
  EXPECT_GE(spreads[0]->output_tok_per_s.ci.low, 90);
  EXPECT_LE(spreads[0]->output_tok_per_s.ci.high, 110);
  // TPOT 1000/out: ok values 10, 9.09, 11.1 → median 10.
  EXPECT_DOUBLE_EQ(out[0].tpot_ms.mean, 10);
  EXPECT_FALSE(spreads[1]);
  EXPECT_DOUBLE_EQ(out[1].throughput.output_tok_per_s, 50);
}

TEST(RepeatSpread, AGroupWithoutAnOkRepeatKeepsItsLastRecord) {
  auto records = repeats("a", 1, {100, 120});
  records[0] = with_status(records[0], PointStatus::failed, "first");
  records[1] = with_status(records[1], PointStatus::invalid, "second");
  std::vector<std::optional<RepeatSpread>> spreads;
  const auto out = collapse_repeats(records, spreads);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].status, PointStatus::invalid);
  EXPECT_EQ(out[0].reason, "second");
  ASSERT_TRUE(spreads[0]);
  EXPECT_EQ(spreads[0]->ok, 0);
}

TEST(RepeatSpread, DifferencesAreCalledOnlyWhenTheIntervalsSeparateAndWelchRejects) {
  std::vector<PointRecord> records;
  // C=1: a 200/204/198 vs b 150/152/149 → separated, a wins (median 200 ÷ 150 = 1.33×).
  append(records, repeats("a", 1, {200, 204, 198}));
  append(records, repeats("b", 1, {150, 152, 149}));
  // C=8: a 800/840/780 vs b 810/790/850 → overlapping, within noise although b's median is higher.
  append(records, repeats("a", 8, {800, 840, 780}));
  append(records, repeats("b", 8, {810, 790, 850}));
  // C=32: a 1500/1520/1490 vs b 2100/2080/2150 → separated, b wins.
  append(records, repeats("a", 32, {1500, 1520, 1490}));
  append(records, repeats("b", 32, {2100, 2080, 2150}));
  // C=64: a 1000/1001/1060 vs b 1062/1063/1122 → the min–max intervals separate, but the spread
  // within each is as large as the gap: Welch on the logarithms, t ≈ 2.2 on 4 df, p ≈ 0.09 → noise.
  append(records, repeats("a", 64, {1000, 1001, 1060}));
  append(records, repeats("b", 64, {1062, 1063, 1122}));
  const CampaignSet set = set_of(records);
  EXPECT_TRUE(set.has_repeats);
  const std::size_t a = arm_named(set, "a"), b = arm_named(set, "b");
  const auto ws = winners(set, scenario_tables(set));
  ASSERT_EQ(ws.size(), 4u);
  EXPECT_EQ(ws[0].lead, Lead::contested);
  EXPECT_EQ(ws[0].arms, std::vector<std::size_t>{a});
  EXPECT_NEAR(ws[0].margin, 200.0 / 150.0, 1e-12);
  EXPECT_EQ(ws[1].lead, Lead::noise);
  EXPECT_EQ(ws[1].arms, (std::vector<std::size_t>{a, b}));
  EXPECT_EQ(ws[1].noise, Separation::overlap);
  EXPECT_EQ(ws[2].lead, Lead::contested);
  EXPECT_EQ(ws[2].arms, std::vector<std::size_t>{b});
  EXPECT_EQ(ws[3].lead, Lead::noise);
  EXPECT_EQ(ws[3].arms, (std::vector<std::size_t>{a, b}));
  EXPECT_EQ(ws[3].noise, Separation::not_significant);
  const auto x = crossover(0, ws);
  ASSERT_TRUE(x);
  EXPECT_EQ(x->concurrency, 32);
}

TEST(RepeatSpread, ThePointsOfACampaignThatRanOnceAreUnchanged) {
  const CampaignSet set = set_of({point("a", "s", 1, 100, 10), point("b", "s", 1, 150, 8)});
  EXPECT_FALSE(set.has_repeats);
  const auto ws = winners(set, scenario_tables(set));
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(ws[0].lead, Lead::contested);
}
