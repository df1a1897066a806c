// --slo: parsing, the per-request thresholds goodput uses, the run-level verdict, and the boundary
// search against loads whose answer is known.
#include "servebench/load/slo.hpp"
#include "servebench/load/slo_search.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

TEST(Slo, ParsesKeysInOrder) {
  const auto slo = parse_slo("ttft_p99_ms=2000, tpot_p50_ms=30,e2e_p90_ms=9000.5");
  ASSERT_TRUE(slo) << slo.error().message;
  ASSERT_EQ(slo->keys.size(), 3u);
  EXPECT_EQ(slo->keys[0].metric, SloMetric::ttft);
  EXPECT_EQ(slo->keys[0].percentile, 99);
  EXPECT_EQ(slo->keys[0].limit_ms, 2000);
  EXPECT_EQ(slo->keys[1].metric, SloMetric::tpot);
  EXPECT_EQ(slo->keys[1].percentile, 50);
  EXPECT_EQ(slo->keys[2].limit_ms, 9000.5);
}

TEST(Slo, RejectsWhatItCannotCheck) {
  for (const char* bad : {"", "ttft_p98_ms=10", "ttft=10", "ttft_p99_ms", "ttft_p99_ms=-1", "ttft_p99_ms=abc",
                          "ttft_p99_ms=1,ttft_p99_ms=2", "queue_p99_ms=3"}) {
    const auto slo = parse_slo(bad);
    ASSERT_FALSE(slo) << bad;
    EXPECT_NE(slo.error().message.find("--slo"), std::string::npos) << slo.error().message;
  }
}

TEST(Slo, PerRequestThresholdsTakeTheSmallerLimitPerMetric) {
  const auto slo = parse_slo("ttft_p99_ms=500,ttft_p50_ms=200,tpot_p99_ms=40,itl_p99_ms=90");
  ASSERT_TRUE(slo);
  const GoodputSlo g = per_request_thresholds(*slo);
  ASSERT_TRUE(g.ttft);
  EXPECT_EQ(*g.ttft, std::chrono::milliseconds(200));
  ASSERT_TRUE(g.tpot);
  EXPECT_EQ(*g.tpot, std::chrono::milliseconds(40));
  EXPECT_FALSE(g.e2e);
}

RunMetrics metrics_with(std::vector<double> ttft, std::vector<double> tpot) {
  RunMetrics m;
  m.num_requests = m.completed = static_cast<std::int64_t>(ttft.size());
  m.ttft_ms = stats::summarize(ttft, stats::PercentileMethod::nearest_rank);
  m.tpot_ms = stats::summarize(tpot, stats::PercentileMethod::nearest_rank);
  return m;
}

TEST(Slo, TheRunMeetsItWhenEveryPercentileIsWithinItsLimit) {
  // TTFT 10..100 ms (p99 nearest rank = 100, median 50); TPOT 20 everywhere.
  std::vector<double> ttft, tpot;
  for (int i = 1; i <= 10; ++i) {
    ttft.push_back(10.0 * i);
    tpot.push_back(20);
  }
  const auto met = check_slo(*parse_slo("ttft_p99_ms=100,tpot_p50_ms=20"), metrics_with(ttft, tpot));
  EXPECT_TRUE(met.met) << met.summary;
  ASSERT_EQ(met.checks.size(), 2u);
  EXPECT_EQ(met.checks[0].value, 100);
  const auto missed = check_slo(*parse_slo("ttft_p99_ms=99.9,tpot_p50_ms=20"), metrics_with(ttft, tpot));
  EXPECT_FALSE(missed.met);
  EXPECT_NE(missed.summary.find("ttft p99 100.0 > 99.9 ms"), std::string::npos) << missed.summary;
  RunMetrics failing = metrics_with(ttft, tpot);
  failing.failed = 1;
  EXPECT_FALSE(check_slo(*parse_slo("ttft_p99_ms=1000"), failing).met) << "a failed request misses the SLO";
}

TEST(SloSearch, ConcurrencyBoundaryIsFoundExactly) {
  for (const int capacity : {1, 5, 6, 37, 64, 200}) {
    int runs = 0;
    const auto r = search_boundary({SearchKind::concurrency, 1, 256, 30, 0.05}, [&](double c) -> util::Result<bool> {
      ++runs;
      return c <= capacity;
    });
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_TRUE(r->boundary) << capacity;
    EXPECT_EQ(*r->boundary, capacity);
    EXPECT_EQ(*r->first_miss, capacity + 1);
    EXPECT_TRUE(r->converged);
    EXPECT_EQ(r->step, 1);
    // Doubling to the first miss, then halving the bracket: about 2·log2(capacity) + 2 runs.
    EXPECT_LE(runs, 2 * static_cast<int>(std::ceil(std::log2(capacity + 1))) + 2) << capacity;
  }
}

TEST(SloSearch, RateBoundaryIsBracketedToTheTolerance) {
  const double capacity = 13.7;
  const auto r = search_boundary({SearchKind::rate, 0.5, 100, 30, 0.05},
                                 [&](double rate) -> util::Result<bool> { return rate <= capacity; });
  ASSERT_TRUE(r);
  ASSERT_TRUE(r->boundary && r->first_miss);
  EXPECT_LE(*r->boundary, capacity);
  EXPECT_GT(*r->first_miss, capacity);
  EXPECT_LE(*r->first_miss - *r->boundary, 0.05 * *r->boundary);
  EXPECT_TRUE(r->converged);
}

TEST(SloSearch, BoundsAndBudgetEndTheSearch) {
  const auto always = search_boundary({SearchKind::concurrency, 1, 48, 10, 0.05},
                                      [](double) -> util::Result<bool> { return true; });
  ASSERT_TRUE(always);
  EXPECT_EQ(*always->boundary, 48);
  EXPECT_FALSE(always->first_miss);
  EXPECT_NE(always->stop.find("upper bound"), std::string::npos);
  const auto never = search_boundary({SearchKind::concurrency, 4, 48, 10, 0.05},
                                     [](double) -> util::Result<bool> { return false; });
  ASSERT_TRUE(never);
  EXPECT_FALSE(never->boundary);
  EXPECT_EQ(never->runs.size(), 1u);
  const auto budget = search_boundary({SearchKind::concurrency, 1, 1000, 4, 0.05},
                                      [](double c) -> util::Result<bool> { return c <= 300; });
  ASSERT_TRUE(budget);
  EXPECT_EQ(budget->runs.size(), 4u);
  EXPECT_FALSE(budget->converged);
  EXPECT_FALSE(check_search({SearchKind::concurrency, 1.5, 8, 10, 0.05}));
  EXPECT_FALSE(check_search({SearchKind::rate, 0, 8, 10, 0.05}));
  EXPECT_FALSE(check_search({SearchKind::rate, 1, 8, 1, 0.05}));
}

TEST(SloSearch, AFailingRunEndsTheSearchWithItsError) {
  const auto r = search_boundary({SearchKind::concurrency, 1, 64, 10, 0.05}, [](double c) -> util::Result<bool> {
    if (c > 2) return util::fail(util::ErrorKind::unreachable, "server gone");
    return true;
  });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, util::ErrorKind::unreachable);
}

}  // namespace
}  // namespace servebench::load
