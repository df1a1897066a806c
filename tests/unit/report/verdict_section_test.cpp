#include <gtest/gtest.h>

#include "report_test_support.hpp"
#include "servebench/report/report_builder.hpp"

using namespace servebench::report;
using namespace servebench::report::test_support;

TEST(VerdictSection, WritesEveryVerdict) {
  Document doc;
  add_verdict_section(fixture_set({"two-arm"}), nullptr, ReportOptions{}, doc);
  const std::string md = markdown_of(doc);
  EXPECT_NE(md.find("C=8 in 2 scenarios (16k-512, 1k-4k)"), std::string::npos) << md;
  EXPECT_NE(md.find("- 16k-512: crossover at C=8 — e7b leads below, tp2pp4 from C=8 on"), std::string::npos);
  EXPECT_NE(md.find("| 16k-512  |  32 | tp2pp4 (only arm measured) |"), std::string::npos);
  EXPECT_NE(md.find("with mean TPOT ≤ 50.0 ms"), std::string::npos);
  EXPECT_NE(md.find("| e7b    | 16k-512  |      1–8 |                16 |      26.0 → 61.0 ms (2.35×) |"),
            std::string::npos);
  EXPECT_NE(md.find("- boundary scenarios only tp2pp4 can reach: 512k-1"), std::string::npos);
  EXPECT_EQ(md.find("Versus the baseline"), std::string::npos);
}

TEST(VerdictSection, BaselineAndSloFromOptions) {
  const auto baseline = read_baseline(fixture("baseline.csv"));
  ASSERT_TRUE(baseline);
  Document doc;
  add_verdict_section(fixture_set({"two-arm"}), &*baseline, ReportOptions{20}, doc);
  const std::string md = markdown_of(doc);
  EXPECT_NE(md.find("with mean TPOT ≤ 20.0 ms"), std::string::npos);
  EXPECT_NE(md.find("### Versus the baseline (baseline.csv)"), std::string::npos);
  EXPECT_NE(md.find("1 baseline point had no ok point to compare with."), std::string::npos);
  // (0.2222 + 0.25) / 2 = 0.236 → 0.24×.
  EXPECT_NE(md.find("| e7b    | 16k-512  |              2 |                     0.24× |"), std::string::npos) << md;
}
