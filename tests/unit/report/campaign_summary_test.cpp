#include "servebench/report/campaign_summary.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"

using namespace servebench::report;

namespace {
std::string line(const CampaignSummary& s, const std::string& label) {
  for (const auto& [k, v] : s.protocol) {
    if (k.starts_with(label)) return v;
  }
  return "(absent)";
}
}  // namespace

TEST(CampaignSummary, ReadsTheProtocolOfTheFixture) {
  const auto s = read_campaign_summary(servebench::results::RunLayout(test_support::fixture("two-arm")));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->name, "b300-replica");
  EXPECT_EQ(s->model, "glm-5.3-flash");
  EXPECT_EQ(line(*s, "cold cache"), "yes");
  EXPECT_EQ(line(*s, "cache hit threshold"), "≤ 0.01");
  EXPECT_EQ(line(*s, "retries"), "1");
  EXPECT_EQ(line(*s, "num_prompts"), "max(8, 2*c)");
  EXPECT_EQ(line(*s, "percentile"), "nearest-rank");
  EXPECT_EQ(line(*s, "request settings"), "api completions, stream true, ignore_eos true, temperature 0, seed 42");
  EXPECT_EQ(line(*s, "prompts"), "corpus (corpus.txt)");
}

TEST(CampaignSummary, MissingKeysAreNotRecorded) {
  const auto s = parse_campaign_summary("name: x\nprotocol: {retries: 2}\n", "c.yaml");
  ASSERT_TRUE(s);
  EXPECT_EQ(line(*s, "retries"), "2");
  EXPECT_EQ(line(*s, "cold cache"), k_not_recorded);
  EXPECT_EQ(line(*s, "request settings"), k_not_recorded);
  EXPECT_EQ(s->model, k_not_recorded);
  const auto missing = read_campaign_summary(servebench::results::RunLayout(test_support::fixture("torn-ledger")));
  ASSERT_TRUE(missing);
  EXPECT_FALSE(missing->found);
  EXPECT_EQ(line(*missing, "percentile"), k_not_recorded);
}

TEST(CampaignSummary, BaselineIsRemembered) {
  const auto s = parse_campaign_summary("baseline: {name: ref, ledger: baseline.jsonl}\n", "c.yaml");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->baseline_name, "ref");
  EXPECT_EQ(s->baseline_ledger, "baseline.jsonl");
}

TEST(CampaignSummary, SyntaxErrorNamesFileLineAndColumn) {
  const auto s = parse_campaign_summary("name: [unclosed\n", "run/campaign.yaml");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_TRUE(s.error().message.starts_with("run/campaign.yaml:")) << s.error().message;
}
