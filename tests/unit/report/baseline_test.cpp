#include "servebench/report/baseline.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "report_test_support.hpp"

using namespace servebench::report;
using servebench::report::test_support::fixture;

TEST(Baseline, ReadsTheFixtureCsv) {
  const auto b = read_baseline(fixture("baseline.csv"));
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->label, "baseline.csv");
  ASSERT_EQ(b->points.size(), 7u);
  const auto& first = b->points[0];
  EXPECT_EQ(first.scenario, "16k-512");
  EXPECT_EQ(first.isl, 16384);
  EXPECT_EQ(first.osl, 512);
  EXPECT_EQ(first.concurrency, 1);
  EXPECT_EQ(first.arm, "e7b");
  EXPECT_DOUBLE_EQ(first.throughput.output_tok_per_s, 223.2);
  EXPECT_DOUBLE_EQ(first.tpot_ms.mean, 3.1);
  EXPECT_TRUE(std::isnan(first.ttft_ms.p95));  // not published
  EXPECT_EQ(b->points[5].arm, "");             // a row for every arm
  EXPECT_TRUE(std::isnan(b->points[5].tpot_ms.mean));
}

TEST(Baseline, CsvQuotesCommentsAndColumnOrder) {
  const auto b =
      parse_baseline_csv("# note\nconcurrency,output_tok_per_s,scenario\n8,\"1,2\",\"chat \"\"x\"\"\"\n", "b.csv");
  ASSERT_FALSE(b);  // "1,2" is not a number: the error names file and line
  EXPECT_NE(b.error().message.find("b.csv:3"), std::string::npos) << b.error().message;
  const auto ok = parse_baseline_csv("concurrency,output_tok_per_s,scenario\n8,12.5,\"chat, long\"\n", "b.csv");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->points[0].scenario, "chat, long");
  EXPECT_DOUBLE_EQ(ok->points[0].throughput.output_tok_per_s, 12.5);
}

TEST(Baseline, RejectsUnknownColumnsAndMissingKeys) {
  const auto typo = parse_baseline_csv("scenario,concurrency,output_tok_per_sec\n", "b.csv");
  ASSERT_FALSE(typo);
  EXPECT_NE(typo.error().message.find("output_tok_per_sec"), std::string::npos);
  const auto no_c = parse_baseline_csv("scenario,output_tok_per_s\nx,1\n", "b.csv");
  ASSERT_FALSE(no_c);
  EXPECT_NE(no_c.error().message.find("concurrency"), std::string::npos);
  const auto short_row = parse_baseline_csv("scenario,concurrency\nx\n", "b.csv");
  ASSERT_FALSE(short_row);
  EXPECT_NE(short_row.error().message.find("b.csv:2"), std::string::npos);
}

TEST(Baseline, ARunDirectoryOrLedgerIsABaselineToo) {
  const auto dir = read_baseline(fixture("machine-b"));
  ASSERT_TRUE(dir) << dir.error().message;
  EXPECT_EQ(dir->label, "b300-replica-b");
  EXPECT_EQ(dir->points.size(), 2u);
  const auto ledger = read_baseline(fixture("two-arm/ledger.jsonl"));
  ASSERT_TRUE(ledger);
  EXPECT_EQ(ledger->points.size(), 15u);  // ok points only
  const auto missing = read_baseline(fixture("nope.csv"));
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("nope.csv"), std::string::npos);
}
