#include "servebench/stats/summary.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

using namespace servebench::stats;

// Hand-computed: sample 1..20 (shuffled). Nearest rank p95 = value at rank ceil(19.0) = 19;
// p90 = rank 18 -> 18; p99 = rank ceil(19.8) = 20; median = rank 10 -> 10.
// numpy.percentile(1..20, 95) = 19.05, median = 10.5.
TEST(Summary, NearestRankMatchesHandComputedValues) {
  std::vector<double> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);
  const auto s = summarize(v, PercentileMethod::nearest_rank);
  EXPECT_EQ(s.count, 20u);
  EXPECT_DOUBLE_EQ(s.mean, 10.5);
  EXPECT_DOUBLE_EQ(s.median, 10);
  EXPECT_DOUBLE_EQ(s.at(90), 18);
  EXPECT_DOUBLE_EQ(s.at(95), 19);
  EXPECT_DOUBLE_EQ(s.at(99), 20);
  EXPECT_DOUBLE_EQ(s.max, 20);
  EXPECT_NEAR(s.std, 5.766281297335398, 1e-12);  // population std of 1..20
}

TEST(Summary, LinearMatchesNumpy) {
  std::vector<double> v;
  for (int i = 1; i <= 20; ++i) v.push_back(i);
  const auto s = summarize(v, PercentileMethod::linear);
  EXPECT_NEAR(s.at(95), 19.05, 1e-12);
  EXPECT_NEAR(s.median, 10.5, 1e-12);
  EXPECT_NEAR(s.at(99), 19.81, 1e-12);
}

TEST(Summary, SmallSamplesNearestRank) {
  const std::vector<double> v{7, 3, 5};
  const auto s = summarize(v, PercentileMethod::nearest_rank);
  EXPECT_DOUBLE_EQ(s.median, 5);  // rank ceil(1.5) = 2
  EXPECT_DOUBLE_EQ(s.at(99), 7);  // rank ceil(2.97) = 3
  const std::vector<double> one{4};
  EXPECT_DOUBLE_EQ(summarize(one, PercentileMethod::nearest_rank).at(50), 4);
}

TEST(Summary, EmptyIsNaN) {
  const auto s = summarize(std::vector<double>{}, PercentileMethod::nearest_rank);
  EXPECT_EQ(s.count, 0u);
  EXPECT_TRUE(std::isnan(s.mean));
  EXPECT_TRUE(std::isnan(s.at(99)));
}

TEST(Summary, UnrequestedPercentileIsNaN) {
  const std::vector<double> v{1, 2};
  EXPECT_TRUE(std::isnan(summarize(v, PercentileMethod::linear).at(42)));
}

TEST(PercentileMethod, ParsesBothSpellings) {
  EXPECT_EQ(*parse_percentile_method("nearest-rank"), PercentileMethod::nearest_rank);
  EXPECT_EQ(*parse_percentile_method("linear"), PercentileMethod::linear);
  EXPECT_FALSE(parse_percentile_method("hdr"));
}
