#include "servebench/load/client_health.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

using std::chrono::microseconds;

std::vector<RequestRecord> records_with_send_lags(std::initializer_list<int> lags_us) {
  std::vector<RequestRecord> out;
  std::uint32_t i = 0;
  for (int lag : lags_us) {
    RequestRecord r;
    r.index = i++;
    r.released = microseconds(1000 * i);
    r.sent = r.released + microseconds(lag);
    out.push_back(r);
  }
  return out;
}

TEST(ClientHealth, HealthyWhenLagIsSmallAgainstTpot) {
  const auto records = records_with_send_lags({10, 20, 30, 40});
  LagHistograms lags;
  for (int i = 0; i < 100; ++i) lags.read_lag.record(5'000);  // 5 µs
  const auto h = assess_client(records, lags, {}, 10.0, 0.10, stats::PercentileMethod::nearest_rank);
  EXPECT_TRUE(h.healthy) << h.reason;
  EXPECT_DOUBLE_EQ(h.limit_ms, 1.0);
  EXPECT_NEAR(h.send_lag_ms.at(99), 0.040, 1e-12);
  EXPECT_NEAR(h.lag_p99_ms, 0.040, 1e-12);
}

TEST(ClientHealth, SendLagAboveTenPercentOfTpotIsUnhealthy) {
  const auto records = records_with_send_lags({10, 20, 30, 2500});
  const auto h = assess_client(records, {}, {}, 10.0, 0.10, stats::PercentileMethod::nearest_rank);
  EXPECT_FALSE(h.healthy);
  EXPECT_NEAR(h.lag_p99_ms, 2.5, 1e-12);
  EXPECT_NE(h.reason.find("exceeds 1.000 ms (10% of the median TPOT 10.000 ms)"), std::string::npos) << h.reason;
}

TEST(ClientHealth, StampedChunksAreReportedButNotGated) {
  const auto records = records_with_send_lags({1, 1});
  LagHistograms lags;
  for (int i = 0; i < 98; ++i) lags.client_added.record(50'000);
  for (int i = 0; i < 2; ++i) lags.client_added.record(3'000'000);  // p99 = 3 ms
  lags.read_lag.record(1'000);
  const auto h = assess_client(records, lags, {}, 20.0, 0.10, stats::PercentileMethod::nearest_rank);
  ASSERT_TRUE(h.added_p99_ms);
  EXPECT_NEAR(*h.added_p99_ms, 3.0, 0.02);
  EXPECT_NEAR(*h.added_p50_ms, 0.05, 0.001);
  EXPECT_EQ(h.stamped_chunks, 100);
  EXPECT_TRUE(h.healthy) << h.reason;  // the server's send path is in that number too
  EXPECT_NEAR(h.lag_p99_ms, 0.001, 1e-5);
}

TEST(ClientHealth, SlowReadsAreUnhealthy) {
  const auto records = records_with_send_lags({1, 1});
  LagHistograms lags;
  for (int i = 0; i < 10; ++i) lags.read_lag.record(5'000'000);  // 5 ms between read and record
  const auto h = assess_client(records, lags, {}, 20.0, 0.10, stats::PercentileMethod::nearest_rank);
  EXPECT_FALSE(h.healthy);
  EXPECT_NE(h.reason.find("read lag p99 5.0"), std::string::npos) << h.reason;
}

TEST(ClientHealth, ASaturatedLoopThreadIsUnhealthy) {
  const auto records = records_with_send_lags({1, 1});
  const auto h = assess_client(records, {}, {.cpu_seconds = 1.9, .max_busy = 0.97, .threads = 2}, 20.0, 0.10,
                               stats::PercentileMethod::nearest_rank);
  EXPECT_FALSE(h.healthy);
  EXPECT_NE(h.reason.find("busy 97%"), std::string::npos) << h.reason;
  EXPECT_EQ(h.threads, 2);
  EXPECT_DOUBLE_EQ(h.cpu_seconds, 1.9);
}

TEST(ClientHealth, WithoutTpotTheRunIsNotGated) {
  const auto records = records_with_send_lags({5000});
  const auto h = assess_client(records, {}, {}, std::nan(""), 0.10, stats::PercentileMethod::nearest_rank);
  EXPECT_TRUE(h.healthy);
  EXPECT_TRUE(std::isnan(h.limit_ms));
  EXPECT_NE(h.reason.find("not gated"), std::string::npos);
}

}  // namespace
}  // namespace servebench::load
