#include <gtest/gtest.h>

#include "report_test_support.hpp"
#include "servebench/report/report_builder.hpp"

using namespace servebench::report;
using namespace servebench::report::test_support;
using servebench::results::PointStatus;


TEST(ScenarioSection, SkippedAndInvalidPointsShowTheirReason) {
  Document doc;
  add_scenario_sections(fixture_set({"two-arm"}), doc);
  const std::string md = markdown_of(doc);
  EXPECT_NE(md.find("### 16k-512 (ISL 16,384 → OSL 512)"), std::string::npos);
  EXPECT_EQ(test_support::occurrences(md, "| skipped |"), 2u);
  EXPECT_EQ(test_support::occurrences(md, "isl+osl 524289 exceeds context 270336"), 2u);
  EXPECT_NE(md.find("| invalid |     16 |        64/0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("cache hit rate 0.0312 > 0.01 after 2 attempts"), std::string::npos);
  EXPECT_NE(md.find("measured on attempt 2"), std::string::npos);
}

TEST(ScenarioSection, RatioRowsComparePointsAtTheSameConcurrency) {
  Document doc;
  add_scenario_sections(fixture_set({"two-arm"}), doc);
  const std::string md = markdown_of(doc);
  // 16k-512 C16: 240 / 95 = 2.526 → 2.53×; TPOT 49.5 / 61.0 = 0.811 → 0.81×.
  EXPECT_NE(md.find("|  16 | tp2pp4 ÷ e7b | ratio   |        |             |     2.53× |"), std::string::npos) << md;
  // No ratio row where one side is not ok (16k-512 C32: e7b invalid); 1k-4k C32 has one.
  const auto s16 = md.find("### 16k-512"), s1k = md.find("### 1k-4k");
  const auto c32 = md.find("|  32 | tp2pp4 ÷ e7b");
  ASSERT_NE(c32, std::string::npos);
  EXPECT_GT(c32, s1k);
  EXPECT_GT(s1k, s16);
}

TEST(ScenarioSection, AMissingPointIsShownNotDropped) {
  Document doc;
  add_scenario_sections(
      set_of({point("a", "chat", 1, 10, 5), point("a", "chat", 8, 40, 9), point("b", "chat", 1, 12, 4)}), doc);
  const std::string md = markdown_of(doc);
  EXPECT_NE(md.find("|   8 | b     | —      |"), std::string::npos) << md;
  EXPECT_NE(md.find("no record"), std::string::npos);
}

TEST(ScenarioSection, ChartsOnlyWhereThereIsSomethingToPlot) {
  Document doc;
  add_scenario_sections(fixture_set({"two-arm"}), doc);
  std::size_t figures = 0;
  for (const auto& b : doc.blocks) figures += std::holds_alternative<Figure>(b) ? 1 : 0;
  // 16k-512 and 1k-4k: output, TPOT, Pareto; 512k-1 (OSL 1, no TPOT): output only.
  EXPECT_EQ(figures, 7u);
  Document none;
  add_scenario_sections(set_of({with_status(point("a", "chat", 1, 1, 1), PointStatus::failed, "server down")}), none);
  EXPECT_NE(markdown_of(none).find("nothing to chart"), std::string::npos);
}

TEST(ScenarioSection, AScenarioOfMoreThanAThousandRowsKeepsEveryPointButNoRatioRows) {
  std::vector<servebench::results::PointRecord> points;
  for (std::int64_t c = 1; c <= 501; ++c) {  // 2 arms × 501 levels = 1,002 point rows
    points.push_back(point("a", "wide", c, 10.0 * c, 20.0));
    points.push_back(point("b", "wide", c, 20.0 * c, 10.0));
  }
  Document doc;
  add_scenario_sections(set_of(points), doc);
  const std::string md = markdown_of(doc);
  EXPECT_EQ(test_support::occurrences(md, "| ratio "), 0u);
  EXPECT_NE(md.find("2 arms × 501 concurrency levels: the table has one row per point and no ratio rows"),
            std::string::npos);
  EXPECT_NE(md.find("| 501 | b "), std::string::npos) << "every point keeps its row";
  points.resize(2 * 500);  // 1,000 rows: ratios again
  Document small;
  add_scenario_sections(set_of(points), small);
  EXPECT_EQ(test_support::occurrences(markdown_of(small), "| ratio "), 500u);
}
