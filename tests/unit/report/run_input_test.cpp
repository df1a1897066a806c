#include "servebench/report/run_input.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"

using namespace servebench::report;
using servebench::report::test_support::fixture;

TEST(RunInput, ReadsLedgerCampaignAndArms) {
  const auto run = read_run_input(fixture("two-arm"));
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run->campaign_name(), "b300-replica");
  EXPECT_TRUE(run->issues.empty());
  // 19 point lines, one point measured twice: 18 points (the cursor line is not a point).
  EXPECT_EQ(run->points.size(), 18u);
  ASSERT_EQ(run->arms.size(), 2u);
  EXPECT_EQ(run->arms[0].name, "e7b");  // ledger order
  EXPECT_EQ(run->arms[1].name, "tp2pp4");
  EXPECT_EQ(run->arms[1].facts.kv_pool_tokens, 1040384);
  EXPECT_EQ(run->arms[0].gate.passed, true);
}

TEST(RunInput, TheLastRecordOfAPointWins) {
  const auto run = read_run_input(fixture("two-arm"));
  ASSERT_TRUE(run);
  int seen = 0;
  for (const auto& p : run->points) {
    if (p.arm == "tp2pp4" && p.scenario == "16k-512" && p.concurrency == 8) {
      ++seen;
      EXPECT_DOUBLE_EQ(p.throughput.output_tok_per_s, 130.0);  // the re-measured value, not 118
    }
  }
  EXPECT_EQ(seen, 1);
}

TEST(RunInput, TornLastLineIsAnIssueNotAFailure) {
  const auto run = read_run_input(fixture("torn-ledger"));
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run->points.size(), 2u);
  ASSERT_EQ(run->issues.size(), 1u);
  EXPECT_EQ(run->issues[0].line, 3u);
  EXPECT_NE(run->issues[0].message.find("torn last line"), std::string::npos);
  EXPECT_EQ(run->campaign_name(), "torn");  // no campaign.yaml: the ledger's campaign
  EXPECT_FALSE(run->arms[0].facts.found);
}

TEST(RunInput, MissingDirectoryOrLedgerIsBadInputNamingIt) {
  const auto none = read_run_input(fixture("no-such-run"));
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_NE(none.error().message.find("no-such-run"), std::string::npos);
  const auto no_ledger = read_run_input(fixture("two-arm/arms"));
  ASSERT_FALSE(no_ledger);
  EXPECT_NE(no_ledger.error().message.find("ledger.jsonl"), std::string::npos);
}
