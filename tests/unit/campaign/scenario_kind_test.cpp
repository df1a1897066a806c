#include "servebench/campaign/scenario_kind.hpp"

#include <gtest/gtest.h>

#include "servebench/campaign/matrix.hpp"

namespace servebench::campaign {
namespace {

std::string campaign(const std::string& scenario) {
  return "name: k\nprotocol: {num_prompts: \"2*c\", warmup_requests: 2}\n"
         "arms: [{name: a, engine: sim, base_url: \"http://127.0.0.1:1\"}]\n"
         "scenarios:\n  - " + scenario + "\n";
}

TEST(ScenarioKind, SharedPrefixKeysGiveTheShapeAndTheInputLength) {
  auto spec = parse_campaign(campaign("{name: g, kind: generated-shared-prefix, groups: 3, prompts_per_group: 5, "
                                      "system_len: 100, question_len: 20, osl: 7, concurrency: [1, 4]}"),
                             "k.yaml", "/");
  ASSERT_TRUE(spec) << spec.error().message;
  const ScenarioSpec& s = spec->scenarios[0];
  EXPECT_EQ(s.kind, ScenarioKind::shared_prefix);
  EXPECT_EQ(s.isl, 120);
  EXPECT_EQ(s.osl, 7);
  const auto points = expand(*spec);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].num_prompts, 15) << "groups × prompts per group, whatever num_prompts says";
  EXPECT_EQ(points[1].num_prompts, 15);
  // 3·4·100 cached of 15·120 measured + 2·120 warmup tokens.
  EXPECT_NEAR(*expected_hit_rate(s, 15, 2), 1200.0 / (1800 + 240), 1e-12);
}

TEST(ScenarioKind, MultiTurnConversationsFollowNumPromptsUnlessGiven) {
  auto spec = parse_campaign(campaign("{name: m, kind: multi-turn, turns: 3, user_len: 10, osl: 5, "
                                      "think_time_s: 0.5, concurrency: [2, 4]}"),
                             "k.yaml", "/");
  ASSERT_TRUE(spec) << spec.error().message;
  const ScenarioSpec& s = spec->scenarios[0];
  EXPECT_EQ(s.kind, ScenarioKind::multi_turn);
  EXPECT_EQ(s.isl, 3 * 10 + 2 * 5);
  EXPECT_EQ(s.conversation.think, std::chrono::milliseconds(500));
  const auto points = expand(*spec);
  EXPECT_EQ(points[0].num_prompts, 4 * 3);  // 2*c conversations of 3 turns
  EXPECT_EQ(points[1].num_prompts, 8 * 3);
  // Turns of 10, 25, 40 tokens: 35 cached of 75 per conversation; 4 conversations + 2 warmup × 10.
  EXPECT_NEAR(*expected_hit_rate(s, 12, 2), 4 * 35.0 / (4 * 75 + 20), 1e-12);
  auto fixed = parse_campaign(campaign("{name: m, kind: multi-turn, conversations: 5, concurrency: [2]}"), "k.yaml", "/");
  ASSERT_TRUE(fixed) << fixed.error().message;
  EXPECT_EQ(expand(*fixed)[0].num_prompts, 5 * 4);
}

TEST(ScenarioKind, BadKindsAndDerivedKeysAreRefusedWithTheirPlace) {
  auto bad = parse_campaign(campaign("{name: m, kind: chatty, isl: 1, osl: 1, concurrency: [1]}"), "k.yaml", "/");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("k.yaml:5:21:"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("kind 'chatty' is not fixed, generated-shared-prefix, multi-turn, "
                                     "controlled-hit-rate or trace"),
            std::string::npos)
      << bad.error().message;
  auto isl = parse_campaign(campaign("{name: m, kind: multi-turn, isl: 100, concurrency: [1]}"), "k.yaml", "/");
  ASSERT_FALSE(isl);
  EXPECT_NE(isl.error().message.find("isl follows from the multi-turn keys"), std::string::npos);
  auto zero = parse_campaign(campaign("{name: m, kind: generated-shared-prefix, groups: 0, concurrency: [1]}"),
                             "k.yaml", "/");
  ASSERT_FALSE(zero);
  EXPECT_NE(zero.error().message.find("groups must be in 1..100000 (got 0)"), std::string::npos);
}

TEST(ScenarioKind, TheResolvedFileKeepsTheKinds) {
  auto spec = parse_campaign(campaign("{name: g, kind: generated-shared-prefix, groups: 3, concurrency: [1]}\n"
                                      "  - {name: m, kind: multi-turn, conversations: 2, turns: 2, think_time_s: 0.25, "
                                      "concurrency: [1]}"),
                             "k.yaml", "/");
  ASSERT_TRUE(spec) << spec.error().message;
  auto again = parse_campaign(resolved_yaml(*spec), "r.yaml", "/");
  ASSERT_TRUE(again) << again.error().message << "\n" << resolved_yaml(*spec);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& a = spec->scenarios[i];
    const auto& b = again->scenarios[i];
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.isl, b.isl);
    EXPECT_EQ(a.osl, b.osl);
    EXPECT_EQ(a.shared_prefix.num_groups, b.shared_prefix.num_groups);
    EXPECT_EQ(a.conversations, b.conversations);
    EXPECT_EQ(a.conversation.think, b.conversation.think);
  }
}

TEST(ScenarioKind, VerificationUsesTheExpectedRateForSharedPrefixKinds) {
  ProtocolSpec p;
  ScenarioSpec fixed, shared;
  shared.kind = ScenarioKind::shared_prefix;
  EXPECT_EQ(hit_rate_verified(fixed, p, std::nullopt, 0.005), std::optional<bool>(true));
  EXPECT_EQ(hit_rate_verified(fixed, p, std::nullopt, 0.5), std::optional<bool>(false));
  EXPECT_EQ(hit_rate_verified(shared, p, 0.5, 0.515), std::optional<bool>(true));
  EXPECT_EQ(hit_rate_verified(shared, p, 0.5, 0.53), std::optional<bool>(false));
  EXPECT_EQ(hit_rate_verified(shared, p, 0.5, std::nullopt), std::optional<bool>(false));
  p.cold_cache = false;
  EXPECT_EQ(hit_rate_verified(shared, p, 0.5, 0.9), std::nullopt) << "no flush, nothing to expect";
}

}  // namespace
}  // namespace servebench::campaign
