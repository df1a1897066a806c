#include "servebench/stats/histogram.hpp"

#include <random>

#include <gtest/gtest.h>

using namespace servebench::stats;

TEST(Histogram, SmallValuesAreExact) {
  Histogram h;
  for (std::uint64_t v = 1; v <= 100; ++v) h.record(v);
  EXPECT_EQ(h.count(), 100u);
  EXPECT_DOUBLE_EQ(h.percentile(95), 95);
  EXPECT_DOUBLE_EQ(h.percentile(50), 50);
  EXPECT_DOUBLE_EQ(h.mean(), 50.5);
}

TEST(Histogram, LargeValuesWithinRelativeError) {
  Histogram h(7);
  std::mt19937_64 rng(1);
  std::vector<double> exact;
  std::lognormal_distribution<double> dist(10, 2);
  for (int i = 0; i < 20000; ++i) {
    const auto v = static_cast<std::uint64_t>(dist(rng));
    h.record(v);
    exact.push_back(static_cast<double>(v));
  }
  const auto s = summarize(exact, PercentileMethod::nearest_rank, std::vector<double>{50, 99, 99.9});
  for (double p : {50.0, 99.0, 99.9}) {
    EXPECT_NEAR(h.percentile(p), s.at(p), s.at(p) / 128.0 + 1) << "p" << p;
  }
}

TEST(Histogram, MergeEqualsRecordingEverything) {
  Histogram a, b, all;
  for (std::uint64_t v = 0; v < 5000; v += 7) {
    (v % 2 ? a : b).record(v * 13);
    all.record(v * 13);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_EQ(a.min(), all.min());
  for (double p : {1.0, 50.0, 90.0, 99.0}) EXPECT_EQ(a.percentile(p), all.percentile(p));
}
