// controlled-hit-rate: the prefix length for a target, what is unreachable, the reader, and the
// prompts (exact lengths; the primer and every measured prompt share exactly the prefix).
#include "servebench/campaign/controlled_hit_rate.hpp"

#include <gtest/gtest.h>

#include "servebench/campaign/scenario_kind.hpp"
#include "servebench/campaign/spec.hpp"

namespace servebench::campaign {
namespace {

TEST(ControlledHitRate, ThePrefixGivesTheTargetOverTheWholeWindow) {
  // 16 measured + 2 warmup prompts of 1000 tokens, h = 0.5: L = round(0.5 · 18 · 1000 / 16) = 563;
  // rate = 16 · 563 / (18 · 1000) = 0.50044.
  const auto plan = plan_controlled(0.5, 1000, 16, 2);
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(plan->prefix_len, 563);
  EXPECT_NEAR(plan->expected, 16.0 * 563 / 18000, 1e-12);
  EXPECT_NEAR(plan->expected, 0.5, 0.001);
  const auto none = plan_controlled(0, 100, 8, 0);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->prefix_len, 0);
  EXPECT_EQ(none->expected, 0);
}

TEST(ControlledHitRate, UnreachableTargetsSayWhatToChange) {
  // 8 measured, 2 warmup, isl 100: at most 8 · 99 / 1000 = 0.792.
  const auto high = plan_controlled(0.8, 100, 8, 2);
  ASSERT_FALSE(high);
  EXPECT_NE(high.error().message.find("0.7920"), std::string::npos) << high.error().message;
  EXPECT_TRUE(plan_controlled(0.79, 100, 8, 2));
  const auto no_primer = plan_controlled(0.3, 100, 8, 0);
  ASSERT_FALSE(no_primer);
  EXPECT_NE(no_primer.error().message.find("warmup_requests >= 1"), std::string::npos);
  EXPECT_FALSE(plan_controlled(1.5, 100, 8, 2));
}

TEST(ControlledHitRate, TheReaderChecksEveryConcurrency) {
  const auto parse = [](const std::string& scenario) {
    return parse_campaign("name: h\nprotocol: {num_prompts: \"2*c\", warmup_requests: 2}\narms:\n"
                          "  - {name: a, engine: sim, base_url: \"http://127.0.0.1:1\"}\nscenarios:\n  - " + scenario + "\n",
                          "h.yaml", "/tmp");
  };
  const auto ok = parse("{name: s, kind: controlled-hit-rate, hit_rate: 0.4, isl: 256, osl: 8, concurrency: [4, 8]}");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->scenarios[0].kind, ScenarioKind::controlled_hit_rate);
  EXPECT_EQ(ok->scenarios[0].isl, 256);
  EXPECT_EQ(ok->scenarios[0].hit_rate, 0.4);
  const auto again = parse_campaign(resolved_yaml(*ok), "again.yaml", "/tmp");
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->scenarios[0].hit_rate, 0.4);
  EXPECT_EQ(again->scenarios[0].isl, 256);
  // At C=1: 2 measured + 2 warmup prompts reach at most 2 · 255 / 1024 ≈ 0.498.
  const auto unreachable = parse("{name: s, kind: controlled-hit-rate, hit_rate: 0.6, isl: 256, osl: 8, concurrency: [1, 8]}");
  ASSERT_FALSE(unreachable);
  EXPECT_NE(unreachable.error().message.find("at concurrency 1"), std::string::npos) << unreachable.error().message;
  EXPECT_NE(unreachable.error().message.find("h.yaml:"), std::string::npos);
  EXPECT_FALSE(parse("{name: s, kind: controlled-hit-rate, isl: 256, osl: 8, concurrency: [1]}"));
  const auto expected = expected_hit_rate(ok->scenarios[0], 8, 2);
  ASSERT_TRUE(expected);
  EXPECT_NEAR(*expected, 0.4, 0.005);
}

TEST(ControlledHitRate, ThePrimerAndEveryMeasuredPromptShareExactlyThePrefix) {
  ScenarioSpec s;
  s.name = "s";
  s.kind = ScenarioKind::controlled_hit_rate;
  s.isl = 200;
  s.osl = 4;
  s.hit_rate = 0.5;
  const auto vocab = load::Vocabulary::make(32000, {0, 1, 2}).value();
  PromptRequest r{"a", "s", 200, 4, 2, 10, 3, 1, &s, std::nullopt};
  const auto p = take_controlled(s, r, 99, vocab);
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_EQ(p->measured.size(), 10u);
  ASSERT_EQ(p->warmup.size(), 3u);
  const auto plan = plan_controlled(0.5, 200, 10, 3);
  ASSERT_TRUE(plan);
  const auto l = static_cast<std::size_t>(plan->prefix_len);
  const auto& primer = p->warmup.front().ids;
  const auto common = [](const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b) {
    std::size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
    return n;
  };
  for (const auto& m : p->measured) {
    EXPECT_EQ(m.ids.size(), 200u);
    EXPECT_EQ(common(primer, m.ids), l);
    EXPECT_EQ(common(p->measured.front().ids, m.ids), &m == &p->measured.front() ? 200u : l);
  }
  for (std::size_t i = 1; i < p->warmup.size(); ++i) EXPECT_EQ(common(primer, p->warmup[i].ids), 0u);
}

}  // namespace
}  // namespace servebench::campaign
