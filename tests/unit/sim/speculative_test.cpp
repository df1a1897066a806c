#include "servebench/sim/speculative.hpp"

#include <gtest/gtest.h>

using namespace servebench::sim;

TEST(Speculative, MeanTokensPerVerifyMatchesTheChainFormula) {
  for (double alpha : {0.5, 0.7, 0.885}) {
    for (int k : {1, 3, 4}) {
      const std::vector<double> rates(static_cast<std::size_t>(k), alpha);
      SeededRng rng(7);
      double sum = 0;
      for (int i = 0; i < 10'000; ++i) sum += tokens_per_verify(rates, k, rng);
      const double expected = (1 - std::pow(alpha, k + 1)) / (1 - alpha);
      EXPECT_NEAR(sum / 10'000, expected, 0.02 * expected) << alpha << " " << k;
      EXPECT_NEAR(expected_tokens_per_verify(rates, k), expected, 1e-12);
    }
  }
}

TEST(Speculative, PerPositionRatesMultiply) {
  const std::vector<double> rates{0.85, 0.3, 0.0};
  EXPECT_NEAR(expected_tokens_per_verify(rates, 3), 1 + 0.85 + 0.85 * 0.3, 1e-12);
}

TEST(Speculative, AdaptivePolicyCapsThenStopsDrafting) {
  SpecPlan s;
  s.enabled = true;
  s.num_steps = 5;
  s.adaptive = true;
  EXPECT_EQ(draft_steps(s, 1), 5);
  EXPECT_EQ(draft_steps(s, 7), 5);
  EXPECT_EQ(draft_steps(s, 8), 3);
  EXPECT_EQ(draft_steps(s, 16), 3);
  EXPECT_EQ(draft_steps(s, 63), 3);
  EXPECT_EQ(draft_steps(s, 64), 0);
  s.policy = {4, 2, 32};
  EXPECT_EQ(draft_steps(s, 4), 2);
  EXPECT_EQ(draft_steps(s, 32), 0);
  s.adaptive = false;
  EXPECT_EQ(draft_steps(s, 100), 5);
}

TEST(Speculative, RateForAnAcceptLengthInvertsTheChainFormula) {
  for (int steps : {1, 3, 5}) {
    for (double length : {1.2, 1.9, 0.9 * (steps + 1)}) {
      if (length >= steps + 1) continue;
      const double alpha = rate_for_accept_length(length, steps);
      const double rates[] = {alpha};
      EXPECT_GT(alpha, 0);
      EXPECT_LT(alpha, 1);
      EXPECT_NEAR(expected_tokens_per_verify(rates, steps), length, 1e-6) << steps << " " << length;
    }
  }
}
