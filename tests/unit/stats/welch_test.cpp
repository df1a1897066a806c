#include "servebench/stats/welch.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "servebench/stats/intervals.hpp"

namespace servebench::stats {
namespace {

TEST(Welch, MatchesTheTextbookValue) {
  // t = -1.897, Welch–Satterthwaite df = 5.882: p = 0.1075 (R's t.test gives the same).
  const std::vector<double> a{1, 2, 3, 4, 5}, b{2, 4, 6, 8, 10};
  EXPECT_NEAR(welch_p_value(a, b), 0.107531, 1e-5);
  EXPECT_NEAR(welch_p_value(b, a), 0.107531, 1e-5);
  // Three against three, unit variances, means 3 apart: t = 3.674 on 4 degrees of freedom.
  const std::vector<double> c{100, 101, 102}, d{103, 104, 105};
  EXPECT_NEAR(welch_p_value(c, d), 0.021312, 1e-5);
}

TEST(Welch, DegenerateInputs) {
  const std::vector<double> one{1}, two{1, 2}, flat{3, 3}, flat_other{4, 4}, bad{1, NAN};
  EXPECT_TRUE(std::isnan(welch_p_value(one, two)));
  EXPECT_TRUE(std::isnan(welch_p_value(two, bad)));
  EXPECT_EQ(welch_p_value(flat, flat), 1.0);
  EXPECT_EQ(welch_p_value(flat, flat_other), 0.0);
}

// The property the report relies on: repeats of two identical arms (the same distribution) are called
// different — 95 % intervals of the median separate and Welch rejects at 5 % — in under 5 % of
// draws at every repeat count, where the intervals alone did so in about a third of draws of two
// and a tenth of draws of three. A real 4-sigma difference measured three times is still called.
TEST(Welch, WithTheIntervalsItCallsIdenticalArmsDifferentUnderFivePercentOfTheTime) {
  std::mt19937_64 rng(20261206);
  std::normal_distribution<double> noise(0.0, 1.0);
  constexpr int k_draws = 4000;
  for (const std::size_t n : {2u, 3u, 5u}) {
    int by_intervals = 0, called = 0, called_when_real = 0;
    for (int i = 0; i < k_draws; ++i) {
      std::vector<double> a(n), b(n), shifted(n);
      for (auto& x : a) x = 100 + noise(rng);
      for (auto& x : b) x = 100 + noise(rng);
      for (auto& x : shifted) x = 104 + noise(rng);
      const auto separate = [](const std::vector<double>& x, const std::vector<double>& y) {
        return bootstrap_median(x).separated_from(bootstrap_median(y));
      };
      const bool rejects = welch_p_value(a, b) < 0.05;
      // The bootstraps (the costly part) only where the outcome needs them.
      const bool apart = (n <= 3 || rejects) && separate(a, b);
      by_intervals += apart ? 1 : 0;
      called += apart && rejects ? 1 : 0;
      called_when_real += welch_p_value(shifted, b) < 0.05 && separate(shifted, b) ? 1 : 0;
    }
    const double rate = static_cast<double>(called) / k_draws;
    EXPECT_LT(rate, 0.05) << n << " repeats";
    if (n <= 3) {
      EXPECT_GT(static_cast<double>(by_intervals) / k_draws, 0.08) << n << " repeats: the intervals alone";
    }
    if (n >= 3) {
      EXPECT_GT(static_cast<double>(called_when_real) / k_draws, 0.8) << n << " repeats, a 4-sigma difference";
    }
  }
}

}  // namespace
}  // namespace servebench::stats
