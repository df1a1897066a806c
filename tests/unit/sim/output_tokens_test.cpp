#include "servebench/sim/output_tokens.hpp"

#include <gtest/gtest.h>

using namespace servebench::sim;

namespace {
const Tokenizer k_tok(128256, TokenIds{128000, 128009, 128000});
}

TEST(OutputPlan, GreedyTokensDependOnlyOnPromptAndPosition) {
  SamplingParams p;
  p.max_tokens = 100;
  const std::int32_t prompt[] = {5, 6, 7};
  const OutputPlan a(k_tok, hash_prompt(prompt), p, 1, 0.0), b(k_tok, hash_prompt(prompt), p, 999, 0.0);
  const std::int32_t other[] = {5, 6, 8};
  const OutputPlan c(k_tok, hash_prompt(other), p, 1, 0.0);
  int differ = 0;
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(a.token(i), b.token(i));
    differ += a.token(i) != c.token(i);
  }
  EXPECT_GT(differ, 25);
}

TEST(OutputPlan, SampledTokensFollowTheSeed) {
  SamplingParams p;
  p.temperature = 0.7;
  p.seed = 3;
  const std::int32_t prompt[] = {1, 2};
  const OutputPlan a(k_tok, hash_prompt(prompt), p, 0, 0.0);
  SamplingParams q = p;
  q.seed = 4;
  const OutputPlan b(k_tok, hash_prompt(prompt), q, 0, 0.0);
  int differ = 0;
  for (int i = 0; i < 20; ++i) differ += a.token(i) != b.token(i);
  EXPECT_GT(differ, 10);
}

TEST(OutputPlan, IgnoreEosRunsToMaxTokens) {
  SamplingParams p;
  p.max_tokens = 300;
  p.ignore_eos = true;
  const OutputPlan plan(k_tok, 42, p, 0, 0.5);
  for (int i = 0; i < 299; ++i) ASSERT_EQ(plan.finish_after(i), FinishReason::none);
  EXPECT_EQ(plan.finish_after(299), FinishReason::length);
}

TEST(OutputPlan, EosNeverBeforeMinTokensAndEmitsTheEosId) {
  SamplingParams p;
  p.max_tokens = 10'000;
  p.min_tokens = 50;
  const OutputPlan plan(k_tok, 42, p, 0, 0.2);
  std::int64_t stop = -1;
  for (std::int64_t i = 0; i < 10'000 && stop < 0; ++i) {
    if (plan.finish_after(i) == FinishReason::stop) stop = i;
  }
  ASSERT_GE(stop, 50);
  EXPECT_EQ(plan.token(stop), 128009);
}

TEST(OutputPlan, ForcedOutputIsEmittedThenStops) {
  SamplingParams p;
  p.max_tokens = 100;
  p.forced_output = {11, 12, 13};
  const OutputPlan plan(k_tok, 42, p, 0, 0.0);
  EXPECT_EQ(plan.token(0), 11);
  EXPECT_EQ(plan.token(2), 13);
  EXPECT_EQ(plan.finish_after(1), FinishReason::none);
  EXPECT_EQ(plan.finish_after(2), FinishReason::stop);
}

TEST(OutputPlan, NextIsTokenAndFinishAfterInOneCall) {
  SamplingParams p;
  p.max_tokens = 40;
  p.min_tokens = 3;
  OutputPlan plan(k_tok, 42, p, 0, 0.3);  // EOS draws stop some positions early
  int stops = 0;
  for (int i = 0; i < 40; ++i) {
    FinishReason why = FinishReason::abort;
    EXPECT_EQ(plan.next(i, why), plan.token(i)) << i;
    EXPECT_EQ(why, plan.finish_after(i)) << i;
    stops += why == FinishReason::stop;
  }
  EXPECT_GT(stops, 0);
}

TEST(OutputPlan, WordsDrawnAheadAreTheTokensAtTheirPositionsInAnyOrder) {
  // A plan that stops only at max_tokens draws its words a block ahead; next(i) must still be token(i)
  // whatever the order of the calls. Also with special ids inside the word classes (no inline word_id).
  const Tokenizer with_specials(40000, TokenIds{5000, 20000, 40000});
  for (const Tokenizer* t : {&k_tok, &with_specials}) {
    SamplingParams p;
    p.max_tokens = 150;
    p.ignore_eos = true;
    OutputPlan plan(*t, 7, p, 0, 0.5);
    for (std::int64_t i : {0, 1, 2, 40, 39, 31, 32, 100, 3, 149, 148, 150, 151, 0}) {
      FinishReason why = FinishReason::abort;
      EXPECT_EQ(plan.next(i, why), plan.token(i)) << i;
      EXPECT_EQ(why, plan.finish_after(i)) << i;
    }
  }
}

TEST(HashPrompts, EqualsHashPromptForEveryPromptWhateverTheCountAndLengths) {
  // 0..19 prompts of unequal lengths (the empty one too): every lane width and remainder is used.
  std::vector<std::vector<std::int32_t>> prompts;
  for (int i = 0; i < 19; ++i) {
    std::vector<std::int32_t> p;
    for (int j = 0; j < (i * 37) % 101; ++j) p.push_back(1000 + (i * 7919 + j * 31) % 20000);
    prompts.push_back(std::move(p));
  }
  for (std::size_t n = 0; n <= prompts.size(); ++n) {
    std::vector<std::span<const std::int32_t>> in(prompts.begin(), prompts.begin() + static_cast<std::ptrdiff_t>(n));
    std::vector<std::uint64_t> out(n, 0);
    hash_prompts(in, out);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], hash_prompt(prompts[i])) << n << " " << i;
  }
}
