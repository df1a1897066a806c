#include "servebench/load/schedule.hpp"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

std::vector<double> gaps_s(const Schedule& s) {
  std::vector<double> g;
  for (std::size_t i = 1; i < s.offsets.size(); ++i) g.push_back(util::to_seconds(s.offsets[i] - s.offsets[i - 1]));
  return g;
}

TEST(Schedule, InfiniteRateIsClosedLoop) {
  auto s = make_schedule({.num_requests = 5});
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->open_loop);
  EXPECT_EQ(s->offsets, std::vector<util::Nanos>(5, util::Nanos{0}));
}

TEST(Schedule, ConstantRateIsEvenlySpacedWithoutDrift) {
  auto s = make_schedule({.num_requests = 1001, .rate = 4.0, .arrival = Arrival::constant});
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->open_loop);
  EXPECT_EQ(s->offsets[0], util::Nanos{0});
  EXPECT_EQ(s->offsets[1], std::chrono::milliseconds(250));
  EXPECT_EQ(s->offsets[1000], std::chrono::seconds(250));
}

// Kolmogorov–Smirnov: the gaps of a Poisson schedule are exponential with mean 1/rate. The
// critical value at alpha = 0.01 is 1.63 / sqrt(n).
TEST(Schedule, PoissonGapsPassKolmogorovSmirnov) {
  const double rate = 20.0;
  auto s = make_schedule({.num_requests = 4001, .rate = rate, .arrival = Arrival::poisson, .seed = 1234});
  ASSERT_TRUE(s);
  auto g = gaps_s(*s);
  std::sort(g.begin(), g.end());
  const double n = static_cast<double>(g.size());
  double d = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double cdf = 1.0 - std::exp(-rate * g[i]);
    d = std::max({d, std::abs(cdf - static_cast<double>(i) / n), std::abs(static_cast<double>(i + 1) / n - cdf)});
  }
  EXPECT_LT(d, 1.63 / std::sqrt(n));
  // A wrong rate is detected by the same test, so it has power here.
  double d_wrong = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double cdf = 1.0 - std::exp(-1.3 * rate * g[i]);
    d_wrong = std::max(d_wrong, std::abs(cdf - static_cast<double>(i + 1) / n));
  }
  EXPECT_GT(d_wrong, 1.63 / std::sqrt(n));
}

TEST(Schedule, GammaBurstinessSetsTheCoefficientOfVariation) {
  auto s = make_schedule({.num_requests = 20001, .rate = 10.0, .arrival = Arrival::gamma, .burstiness = 0.25,
                          .seed = 99});
  ASSERT_TRUE(s);
  const auto g = gaps_s(*s);
  double mean = 0;
  for (double x : g) mean += x;
  mean /= static_cast<double>(g.size());
  double var = 0;
  for (double x : g) var += (x - mean) * (x - mean);
  var /= static_cast<double>(g.size());
  EXPECT_NEAR(mean, 0.1, 0.006);                // mean gap 1/rate
  EXPECT_NEAR(var / (mean * mean), 4.0, 0.4);   // CV^2 = 1/shape
}

TEST(Schedule, RejectsNonPositiveRateAndBurstiness) {
  EXPECT_FALSE(make_schedule({.num_requests = 3, .rate = 0.0}));
  EXPECT_FALSE(make_schedule({.num_requests = 3, .rate = 1.0, .arrival = Arrival::gamma, .burstiness = 0.0}));
  EXPECT_FALSE(make_schedule({.num_requests = -1}));
}

}  // namespace
}  // namespace servebench::load
