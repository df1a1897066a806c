// Baseline structure files (units, errors at file:line:col) and the chapter analysis: matching,
// structural impossibility, and the reproduced / differs / not comparable / impossible rule.
#include "servebench/report/chapters.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"
#include "servebench/report/report_files.hpp"

namespace servebench::report {
namespace {

using test_support::fixture;
using test_support::point;
using test_support::set_of;

std::string structure_with(const std::string& point_line) {
  return "baseline: ref\nchapters:\n  - title: one\n    scenarios:\n      - name: s\n        isl: 1024\n"
         "        osl: 128\n        points:\n          - " + point_line + "\n";
}

TEST(BaselineStructure, ValuesAreConvertedToTheReportsUnits) {
  const auto b = parse_baseline_structure(
      structure_with("{concurrency: 8, arm: e7b, output_throughput: 412 tok/s, mean_tpot: 0.0225 s, "
                     "p95_ttft: 1500 us, accept_length: 4.0, total_throughput_per_gpu: 9.5 tok/s/GPU}"),
      "b.yaml");
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->baseline, "ref");
  ASSERT_EQ(b->chapters.size(), 1u);
  const ChapterPoint& p = b->chapters[0].scenarios[0].points[0];
  EXPECT_EQ(p.concurrency, 8);
  EXPECT_EQ(p.arm, "e7b");
  EXPECT_DOUBLE_EQ(p.find(ChapterMetric::output_throughput)->value, 412);
  EXPECT_DOUBLE_EQ(p.find(ChapterMetric::mean_tpot)->value, 22.5);
  EXPECT_DOUBLE_EQ(p.find(ChapterMetric::p95_ttft)->value, 1.5);
  EXPECT_DOUBLE_EQ(p.find(ChapterMetric::accept_length)->value, 4.0);
  EXPECT_DOUBLE_EQ(p.find(ChapterMetric::total_throughput_per_gpu)->value, 9.5);
  EXPECT_EQ(p.find(ChapterMetric::p95_e2e), nullptr);
}

TEST(BaselineStructure, AValueWithoutItsUnitOrWithAWrongOneIsAnErrorAtItsPosition) {
  const auto missing = parse_baseline_structure(structure_with("{concurrency: 1, mean_tpot: 3.1}"), "b.yaml");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(missing.error().message.find("b.yaml:9:"), std::string::npos) << missing.error().message;
  EXPECT_NE(missing.error().message.find("mean_tpot '3.1': give the unit (ms, s or us)"), std::string::npos)
      << missing.error().message;
  const auto wrong = parse_baseline_structure(structure_with("{concurrency: 1, mean_tpot: 3.1 tok/s}"), "b.yaml");
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().message.find("'tok/s' is not a unit of this metric; use ms, s or us"), std::string::npos)
      << wrong.error().message;
  const auto typo = parse_baseline_structure(structure_with("{concurrency: 1, mean_tpto: 3.1 ms}"), "b.yaml");
  ASSERT_FALSE(typo);
  EXPECT_NE(typo.error().message.find("mean_tpto"), std::string::npos) << typo.error().message;
  const auto no_c = parse_baseline_structure(structure_with("{output_throughput: 1 tok/s}"), "b.yaml");
  ASSERT_FALSE(no_c);
  EXPECT_NE(no_c.error().message.find("concurrency"), std::string::npos) << no_c.error().message;
}

TEST(BaselineStructure, AChapterNeedsScenariosWithLengths) {
  const auto none = parse_baseline_structure("baseline: ref\nchapters:\n  - title: empty\n", "b.yaml");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("chapter 'empty' needs a list of scenarios"), std::string::npos)
      << none.error().message;
  const auto no_len =
      parse_baseline_structure("baseline: ref\nchapters:\n  - title: t\n    scenarios: [{name: s}]\n", "b.yaml");
  ASSERT_FALSE(no_len);
  EXPECT_NE(no_len.error().message.find("scenario 's' needs isl and osl"), std::string::npos) << no_len.error().message;
}

TEST(Chapters, TheFixtureChaptersGetEveryKindOfVerdict) {
  const auto in = load_report_inputs({fixture("two-arm")}, std::nullopt, fixture("two-arm-chapters.yaml"));
  ASSERT_TRUE(in) << in.error().message;
  ASSERT_TRUE(in->structure);
  const auto chapters = analyse_chapters(in->set, *in->structure);
  ASSERT_EQ(chapters.size(), 4u);
  EXPECT_EQ(chapters[0].verdict, ChapterVerdict::reproduced) << ::testing::PrintToString(chapters[0].disagreements);
  EXPECT_GT(chapters[0].checks, 6) << "trends of two arms over three levels, and three rankings";
  EXPECT_EQ(chapters[1].verdict, ChapterVerdict::differs);
  ASSERT_EQ(chapters[1].disagreements.size(), 1u);
  EXPECT_EQ(chapters[1].disagreements[0],
            "1k-4k e7b: output tok/s from C=8 to C=32: baseline up (+45 %), here down (-27 %)");
  EXPECT_EQ(chapters[2].verdict, ChapterVerdict::not_measured);
  EXPECT_FALSE(chapters[2].scenarios[0].ours) << "the run has no 1k-128";
  EXPECT_TRUE(chapters[2].scenarios[0].impossible.empty()) << "both arms could run it";
  EXPECT_EQ(chapters[3].verdict, ChapterVerdict::reproduced);
  const auto& boundary = chapters[3].scenarios;
  ASSERT_EQ(boundary.size(), 2u);
  ASSERT_EQ(boundary[0].impossible.size(), 1u);
  EXPECT_EQ(boundary[0].impossible[0].reason, "isl+osl 524289 exceeds context 270336") << "the ledger's skip reason";
  EXPECT_FALSE(boundary[0].impossible_everywhere);
  EXPECT_TRUE(boundary[1].impossible_everywhere) << "1M + 1 exceeds both contexts";
  EXPECT_EQ(boundary[1].impossible[1].reason, "isl+osl 1048577 exceeds context 1048576") << "from the facts";
  // here ÷ baseline output tok/s for the 6 main-scenario pairs: 49.6 / 223.2 first.
  ASSERT_EQ(chapters[0].output_ratios.size(), 6u);
  EXPECT_NEAR(chapters[0].output_ratios[0], 49.6 / 223.2, 1e-12);
}

// A baseline that puts tp2pp4 ahead of e7b at C=1 (30 against 10 tok/s).
constexpr const char* k_tp2pp4_ahead =
    "baseline: ref\nchapters:\n  - title: t\n    scenarios:\n      - name: s\n        isl: 1024\n        osl: 128\n"
    "        points:\n          - {concurrency: 1, arm: e7b, output_throughput: 10 tok/s}\n"
    "          - {concurrency: 1, arm: tp2pp4, output_throughput: 30 tok/s}\n";

TEST(Chapters, AnArmTheBaselinePutsAheadMustBeAheadHere) {
  // Here e7b leads at C=1; the baseline says tp2pp4 does.
  const auto set = set_of({point("e7b", "s", 1, 50, 10), point("tp2pp4", "s", 1, 20, 40)});
  const auto b = parse_baseline_structure(k_tp2pp4_ahead, "b.yaml");
  ASSERT_TRUE(b) << b.error().message;
  const auto chapters = analyse_chapters(set, *b);
  ASSERT_EQ(chapters.size(), 1u);
  EXPECT_EQ(chapters[0].verdict, ChapterVerdict::differs);
  EXPECT_EQ(chapters[0].checks, 1);
  ASSERT_EQ(chapters[0].disagreements.size(), 1u);
  EXPECT_EQ(chapters[0].disagreements[0], "s C=1: the baseline puts tp2pp4 ahead in output tok/s, here e7b leads");
}

std::vector<results::PointRecord> repeated(const std::string& arm, const std::vector<double>& outs) {
  std::vector<results::PointRecord> v;
  for (std::size_t i = 0; i < outs.size(); ++i) {
    auto r = point(arm, "s", 1, outs[i], 1000.0 / outs[i]);
    r.repeat = static_cast<std::int64_t>(i + 1);
    v.push_back(std::move(r));
  }
  return v;
}

// With repeats, "ahead here" means what the winner table would call: a lead inside the noise does
// not reproduce the baseline's ranking.
TEST(Chapters, ARepeatedLeadWithinNoiseDoesNotReproduceARanking) {
  const auto structure = parse_baseline_structure(k_tp2pp4_ahead, "b.yaml");
  ASSERT_TRUE(structure) << structure.error().message;
  const auto with = [](std::vector<double> e7b, std::vector<double> tp2pp4) {
    auto records = repeated("e7b", e7b);
    for (auto& r : repeated("tp2pp4", tp2pp4)) records.push_back(std::move(r));
    return records;
  };
  // Medians 100 and 105: tp2pp4 ahead, but the repeats' ranges overlap.
  const auto noisy = analyse_chapters(set_of(with({100, 110, 95}, {105, 98, 112})), *structure);
  EXPECT_EQ(noisy[0].verdict, ChapterVerdict::differs);
  ASSERT_EQ(noisy[0].disagreements.size(), 1u);
  EXPECT_EQ(noisy[0].disagreements[0], "s C=1: the baseline puts tp2pp4 ahead in output tok/s, here they are within noise");
  // Medians 100 and 150 with tight repeats: the lead is called, the ranking is reproduced.
  const auto clear = analyse_chapters(set_of(with({100, 101, 99}, {150, 151, 149})), *structure);
  EXPECT_EQ(clear[0].verdict, ChapterVerdict::reproduced) << ::testing::PrintToString(clear[0].disagreements);
}

TEST(Chapters, OneMatchedPointAndNoRankingIsNotComparable) {
  const auto set = set_of({point("a", "s", 1, 100, 10)});
  const auto b = parse_baseline_structure(structure_with("{concurrency: 1, output_throughput: 400 tok/s}"), "b.yaml");
  ASSERT_TRUE(b) << b.error().message;
  const auto chapters = analyse_chapters(set, *b);
  EXPECT_EQ(chapters[0].verdict, ChapterVerdict::not_comparable);
  EXPECT_EQ(chapters[0].checks, 0);
  ASSERT_EQ(chapters[0].output_ratios.size(), 1u);
  EXPECT_DOUBLE_EQ(chapters[0].output_ratios[0], 0.25);
}

TEST(Chapters, SmallStepsAreFlatAndOnlyOppositeDirectionsDisagree) {
  // Baseline +4 % (flat), here −30 %: not a disagreement. Baseline +20 %, here −6 %: one.
  const auto set = set_of({point("a", "s", 1, 100, 10), point("a", "s", 2, 70, 10), point("a", "s", 4, 65.8, 10)});
  const auto b = parse_baseline_structure(
      "baseline: ref\nchapters:\n  - title: t\n    scenarios:\n      - name: s\n        isl: 1024\n        osl: 128\n"
      "        points:\n          - {concurrency: 1, output_throughput: 100 tok/s}\n"
      "          - {concurrency: 2, output_throughput: 104 tok/s}\n"
      "          - {concurrency: 4, output_throughput: 124.8 tok/s}\n",
      "b.yaml");
  ASSERT_TRUE(b) << b.error().message;
  const auto chapters = analyse_chapters(set, *b);
  EXPECT_EQ(chapters[0].checks, 2);
  ASSERT_EQ(chapters[0].disagreements.size(), 1u) << ::testing::PrintToString(chapters[0].disagreements);
  EXPECT_NE(chapters[0].disagreements[0].find("from C=2 to C=4"), std::string::npos);
}

}  // namespace
}  // namespace servebench::report
