// Every numeric value of a campaign file has a documented range, checked when the file is read:
// absurd values (concurrency 10^12, isl 2^40, num_prompts -1, ...) stop the reader with the key,
// file:line:col, the range and the value — before anything launches.
#include <gtest/gtest.h>

#include "servebench/campaign/spec.hpp"

namespace servebench::campaign {
namespace {

struct Case {
  std::string protocol, arm, scenario;  // extra YAML inside each mapping
  std::string expect_key, expect_range, expect_at;
};

std::string campaign_with(const Case& c) {
  return std::string("name: ranges\n") +
         "protocol: {" + (c.protocol.find("warmup_requests") == std::string::npos ? "warmup_requests: 1, " : "") +
         "client_lag_limit: 1" + (c.protocol.empty() ? "" : ", " + c.protocol) + "}\n"
         "arms:\n"
         "  - {name: a, engine: sim, base_url: 'http://127.0.0.1:1'" + (c.arm.empty() ? "" : ", " + c.arm) + "}\n"
         "scenarios:\n"
         "  - {name: s, " + (c.scenario.empty() ? "isl: 8, osl: 8, concurrency: [1]" : c.scenario) + "}\n";
}

TEST(SpecRanges, AbsurdValuesNameTheKeyTheRangeAndWhere) {
  const std::vector<Case> cases = {
      {"", "", "isl: 8, osl: 8, concurrency: [1, 1000000000000]", "concurrency", "1..100000", "c.yaml:6:"},
      {"", "", "isl: 1099511627776, osl: 8, concurrency: [1]", "isl", "1..10000000", "c.yaml:6:"},
      {"", "", "isl: 8, osl: 1099511627776, concurrency: [1]", "osl", "1..10000000", "c.yaml:6:"},
      {"num_prompts: \"-1\"", "", "", "num_prompts", "positive", "c.yaml:6:"},
      {"num_prompts: \"100000000\"", "", "", "requests per point", "at most 10000000", "c.yaml:6:"},
      {"num_prompts: \"2000\"", "", "isl: 9000000, osl: 8, concurrency: [1]", "prompt tokens per point", "1000000000",
       "c.yaml:6:"},
      {"", "gpus: 1000000000000", "", "gpus", "1..4096", "c.yaml:4:"},
      {"", "gpus: 4294967297", "", "gpus", "1..4096", "c.yaml:4:"},  // would be 1 after a cast to int
      {"retries: 4294967297", "", "", "retries", "0..10", "c.yaml:2:"},
      {"", "stop_timeout_s: 1000000000000", "", "stop_timeout_s", "1..3600", "c.yaml:4:"},
      {"", "ready_timeout_s: 0", "", "ready_timeout_s", "1..604800", "c.yaml:4:"},
      {"request: {temperature: -1}", "", "", "temperature", "[0, 100]", "c.yaml:2:"},
      {"request: {temperature: 1e300}", "", "", "temperature", "[0, 100]", "c.yaml:2:"},
      {"request: {seed: -1}", "", "", "seed", "0..", "c.yaml:2:"},
      {"warmup_requests: 100000000", "", "", "warmup_requests", "at most 1000000", "c.yaml:2:"},
      {"", "gate: {max_tokens: 1000000000000}", "", "max_tokens", "16..1000000", "c.yaml:4:"},
      {"", "", "kind: generated-shared-prefix, groups: 1000000000, concurrency: [1]", "groups", "1..100000", "c.yaml:6:"},
      {"", "", "kind: generated-shared-prefix, groups: 10000, prompts_per_group: 10000, concurrency: [1]",
       "requests per point", "10000000", "c.yaml:6:"},
      {"", "", "kind: multi-turn, turns: 1000, user_len: 9000000, concurrency: [1]", "longest prompt", "10000000",
       "c.yaml:6:"},
  };
  for (const Case& c : cases) {
    const std::string yaml = campaign_with(c);
    auto spec = parse_campaign(yaml, "c.yaml", "/base");
    ASSERT_FALSE(spec.has_value()) << yaml;
    const std::string& m = spec.error().message;
    EXPECT_EQ(spec.error().kind, util::ErrorKind::bad_input);
    EXPECT_NE(m.find(c.expect_key), std::string::npos) << m;
    EXPECT_NE(m.find(c.expect_range), std::string::npos) << m;
    EXPECT_EQ(m.rfind(c.expect_at, 0), 0u) << m;
  }
}

TEST(SpecRanges, ValuesAtTheEdgesOfTheirRangesAreAccepted) {
  Case c{"retries: 10, request: {temperature: 100, seed: 9223372036854775807}", "gpus: 4096, stop_timeout_s: 3600",
         "isl: 10000000, osl: 10000000, concurrency: [1, 100000]", "", "", ""};
  c.protocol += ", num_prompts: \"min(c, 10)\"";
  auto spec = parse_campaign(campaign_with(c), "c.yaml", "/base");
  ASSERT_TRUE(spec.has_value()) << spec.error().message;
  EXPECT_EQ(spec->arms[0].gpus, 4096);
  EXPECT_EQ(spec->scenarios[0].concurrency.back(), 100000);
}

}  // namespace
}  // namespace servebench::campaign
