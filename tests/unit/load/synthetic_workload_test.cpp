#include "servebench/load/synthetic_workload.hpp"

#include <set>

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

Vocabulary vocab(std::int32_t size, std::vector<std::int32_t> excluded = {}) {
  auto v = Vocabulary::make(size, std::move(excluded));
  EXPECT_TRUE(v);
  return *v;
}

TEST(SyntheticWorkload, RangeRatioOneGivesExactLengths) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(draw_length(1024, 1.0, rng), 1024);
}

TEST(SyntheticWorkload, RangeRatioFollowsSglangSemantics) {
  std::mt19937_64 rng(2);
  std::set<std::int64_t> seen;
  for (int i = 0; i < 2000; ++i) seen.insert(draw_length(10, 0.5, rng));
  EXPECT_EQ(seen, (std::set<std::int64_t>{5, 6, 7, 8, 9, 10}));  // [floor(0.5*10), 10]
  seen.clear();
  for (int i = 0; i < 2000; ++i) seen.insert(draw_length(4, 0.0, rng));
  EXPECT_EQ(seen, (std::set<std::int64_t>{1, 2, 3, 4}));  // ratio 0: [1, L]
}

TEST(SyntheticWorkload, RandomPromptsHaveExactLengthsDistinctHeadsAndNoSpecials) {
  const Vocabulary v = vocab(1000, {0, 1, 2});
  RandomWorkload w{.pattern = IdPattern::random, .num_prompts = 200, .input_len = 64, .output_len = 16, .seed = 42};
  auto prompts = make_random_prompts(w, v);
  ASSERT_TRUE(prompts);
  ASSERT_EQ(prompts->size(), 200u);
  std::set<std::int32_t> heads;
  for (const Prompt& p : *prompts) {
    EXPECT_EQ(p.ids.size(), 64u);
    EXPECT_EQ(p.input_tokens, 64);
    EXPECT_EQ(p.output_tokens, 16);
    for (std::int32_t id : p.ids) EXPECT_GE(id, 3);
    heads.insert(p.ids.front());
  }
  EXPECT_EQ(heads.size(), 200u);
}

TEST(SyntheticWorkload, SameSeedSamePromptsOtherSeedOtherPrompts) {
  const Vocabulary v = vocab(500);
  RandomWorkload w{.num_prompts = 5, .input_len = 8, .output_len = 4, .seed = 9};
  auto a = make_random_prompts(w, v);
  auto b = make_random_prompts(w, v);
  w.seed = 10;
  auto c = make_random_prompts(w, v);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ((*a)[3].ids, (*b)[3].ids);
  EXPECT_NE((*a)[3].ids, (*c)[3].ids);
}

TEST(SyntheticWorkload, SequentialPatternWalksOrdinaryIds) {
  const Vocabulary v = vocab(50, {10});
  RandomWorkload w{.pattern = IdPattern::sequential, .num_prompts = 3, .input_len = 30, .output_len = 1, .seed = 3};
  auto prompts = make_random_prompts(w, v);
  ASSERT_TRUE(prompts);
  for (const Prompt& p : *prompts) {
    for (std::size_t j = 2; j < p.ids.size(); ++j) {
      const std::int32_t prev = p.ids[j - 1];
      const std::int32_t expected = prev == 49 ? 0 : (prev == 9 ? 11 : prev + 1);
      EXPECT_EQ(p.ids[j], expected);
      EXPECT_NE(p.ids[j], 10);
    }
  }
}

TEST(SyntheticWorkload, MoreHeadsThanTokensBecomeDistinctPairs) {
  const Vocabulary v = vocab(4);
  std::mt19937_64 rng(5);
  const auto heads = distinct_heads(12, v, rng);
  std::set<std::vector<std::int32_t>> unique(heads.begin(), heads.end());
  EXPECT_EQ(unique.size(), 12u);
  for (const auto& h : heads) EXPECT_EQ(h.size(), 2u);
}

TEST(SyntheticWorkload, RejectsBadParameters) {
  const Vocabulary v = vocab(100);
  EXPECT_FALSE(make_random_prompts({.num_prompts = 0, .input_len = 4, .output_len = 4}, v));
  EXPECT_FALSE(make_random_prompts({.num_prompts = 1, .input_len = 4, .output_len = 0}, v));
  auto bad_ratio = make_random_prompts({.num_prompts = 1, .input_len = 4, .output_len = 4, .range_ratio = 1.5}, v);
  ASSERT_FALSE(bad_ratio);
  EXPECT_NE(bad_ratio.error().message.find("--random-range-ratio"), std::string::npos);
}

TEST(SyntheticWorkload, SharedPrefixGroupsShareExactlyTheSystemPrompt) {
  const Vocabulary v = vocab(5000);
  SharedPrefixWorkload w{.num_groups = 3, .prompts_per_group = 4, .system_len = 20, .question_len = 5,
                         .output_len = 7, .seed = 11};
  auto prompts = make_shared_prefix_prompts(w, v);
  ASSERT_TRUE(prompts);
  ASSERT_EQ(prompts->size(), 12u);
  std::map<std::vector<std::int32_t>, int> groups;
  std::set<std::int32_t> question_heads;
  for (const Prompt& p : *prompts) {
    ASSERT_EQ(p.ids.size(), 25u);
    EXPECT_EQ(p.input_tokens, 25);
    EXPECT_EQ(p.output_tokens, 7);
    ++groups[std::vector<std::int32_t>(p.ids.begin(), p.ids.begin() + 20)];
    question_heads.insert(p.ids[20]);
  }
  EXPECT_EQ(groups.size(), 3u);
  for (const auto& [prefix, n] : groups) EXPECT_EQ(n, 4);
  EXPECT_EQ(question_heads.size(), 12u);
}

}  // namespace
}  // namespace servebench::load
