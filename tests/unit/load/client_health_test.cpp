#include "servebench/load/client_health.hpp"
#include "unit/load/health_inputs.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

using std::chrono::microseconds;

// One record per lag, released 1 ms apart starting at `start`.
std::vector<RequestRecord> records_with_send_lags(std::vector<int> lags_us, microseconds start = microseconds(0)) {
  std::vector<RequestRecord> out;
  std::uint32_t i = 0;
  for (int lag : lags_us) {
    RequestRecord r;
    r.index = i++;
    r.intended = r.released = start + microseconds(1000 * i);
    r.sent = r.released + microseconds(lag);
    out.push_back(r);
  }
  return out;
}

std::vector<int> repeat(int value, int n) { return std::vector<int>(static_cast<std::size_t>(n), value); }

LagHistograms reads(std::uint64_t ns, int n) {
  LagHistograms lags;
  for (int i = 0; i < n; ++i) lags.read_lag.record(ns);
  return lags;
}

TEST(ClientHealth, RobustP99IsTheLowerConfidenceBoundOfTheP99) {
  EXPECT_EQ(robust_p99_rank(2), 1);
  EXPECT_EQ(robust_p99_rank(20), 17);
  EXPECT_EQ(robust_p99_rank(64), 60);
  EXPECT_EQ(robust_p99_rank(100), 95);
  EXPECT_EQ(robust_p99_rank(1000), 979);
  EXPECT_EQ(robust_p99_rank(10'000), 9869);  // the normal approximation's side: ~p98.7
  EXPECT_EQ(robust_p99_rank(1'000'000), 990'000 - 308);
  for (std::int64_t n = 2; n < 6000; ++n) {  // monotone, never the maximum, never below ~p95 beyond 100
    ASSERT_LE(robust_p99_rank(n), n - 1);
    ASSERT_GE(robust_p99_rank(n + 1), robust_p99_rank(n)) << n;
    if (n >= 100) {
      ASSERT_GE(robust_p99_rank(n), static_cast<std::int64_t>(0.95 * static_cast<double>(n))) << n;
    }
  }
}

TEST(ClientHealth, OneStallAcrossEveryStreamIsForgivenASustainedOneIsNot) {
  // 100 reads of 4 streams; one 3-ms scheduler stall delays the read of each stream arriving in it.
  const auto records = records_with_send_lags(repeat(5, 30));
  auto lags = reads(5'000, 96);
  for (int i = 0; i < 4; ++i) lags.read_lag.record(3'000'000);
  const auto once = assess_client(health_inputs(records, lags, 16.0));  // limit 1.6 ms
  EXPECT_TRUE(once.healthy) << once.reason;
  EXPECT_LT(once.gated_read_lag_ms, 1.6);
  // The loop stalls 10 % of the time: one read in ten waits, far beyond what chance allows.
  auto sustained = reads(5'000, 90);
  for (int i = 0; i < 10; ++i) sustained.read_lag.record(3'000'000);
  const auto bad = assess_client(health_inputs(records, sustained, 16.0));
  EXPECT_FALSE(bad.healthy);
  EXPECT_NE(bad.reason.find("client lag p99 3.0"), std::string::npos) << bad.reason;
}

TEST(ClientHealth, HealthyWhenLagIsSmallAgainstTpot) {
  const auto records = records_with_send_lags(repeat(40, 30));
  const auto lags = reads(5'000, 100);  // 5 µs
  const auto h = assess_client(health_inputs(records, lags, 10.0));
  EXPECT_TRUE(h.healthy) << h.reason;
  EXPECT_DOUBLE_EQ(h.limit_ms, 1.0);
  EXPECT_EQ(h.limit_basis, "tpot");
  EXPECT_NEAR(h.gated_send_lag_ms, 0.040, 1e-12);
  EXPECT_NEAR(h.lag_p99_ms, 0.040, 1e-12);
  EXPECT_EQ(h.send_lag_samples, 30);
  EXPECT_EQ(h.read_lag_samples, 100);
}

TEST(ClientHealth, SendLagAboveTenPercentOfTpotIsUnhealthy) {
  auto lags_us = repeat(10, 26);
  lags_us.insert(lags_us.end(), {2500, 2500, 2500, 2500});  // four late sends of 30: above the robust p99
  const auto records = records_with_send_lags(lags_us);
  const LagHistograms none;
  const auto h = assess_client(health_inputs(records, none, 10.0));
  EXPECT_FALSE(h.healthy);
  EXPECT_NEAR(h.lag_p99_ms, 2.5, 1e-12);
  EXPECT_NE(h.reason.find("exceeds 1.000 ms (10% of the median TPOT 10.000 ms)"), std::string::npos) << h.reason;
}

TEST(ClientHealth, OneOutlierInASmallRunIsForgiven) {
  auto lags_us = repeat(10, 63);
  lags_us.push_back(9000);  // the single worst of 64: a nearest-rank p99 would be this one
  const auto records = records_with_send_lags(lags_us);
  const LagHistograms none;
  const auto h = assess_client(health_inputs(records, none, 10.0));
  EXPECT_TRUE(h.healthy) << h.reason;
  EXPECT_NEAR(h.send_lag_ms.at(99), 9.0, 1e-12);  // reported as measured
  EXPECT_NEAR(h.gated_send_lag_ms, 0.010, 1e-12);
}

TEST(ClientHealth, TooFewSamplesAreNotGated) {
  const auto records = records_with_send_lags({5000, 5000, 5000});
  const auto lags = reads(5'000'000, 10);
  const auto h = assess_client(health_inputs(records, lags, 10.0));
  EXPECT_TRUE(h.healthy);
  EXPECT_TRUE(std::isnan(h.limit_ms));
  EXPECT_NE(h.reason.find("not gated: 3 requests and 10 socket reads, fewer than the 20"), std::string::npos)
      << h.reason;
}

TEST(ClientHealth, TheLimitNeverGoesBelowTheNoiseFloor) {
  // A server answering in microseconds: 10 % of a 0.02 ms TPOT is below anything a loop can resolve.
  const auto records = records_with_send_lags(repeat(5, 30));
  const auto lags = reads(20'000, 100);  // 20 µs
  const auto h = assess_client(health_inputs(records, lags, 0.02));
  EXPECT_TRUE(h.healthy) << h.reason;
  EXPECT_EQ(h.limit_basis, "noise_floor");
  EXPECT_DOUBLE_EQ(h.limit_ms, k_min_noise_floor_ms);
  // … but a lag above the floor is still the client's.
  const auto slow = reads(400'000, 100);
  const auto bad = assess_client(health_inputs(records, slow, 0.02));
  EXPECT_FALSE(bad.healthy);
  EXPECT_NE(bad.reason.find("the machine's noise floor"), std::string::npos) << bad.reason;
}

TEST(ClientHealth, TheMeasuredFloorRaisesTheLimit) {
  const auto records = records_with_send_lags(repeat(5, 30));
  auto lags = reads(150'000, 100);  // 0.15 ms
  for (int i = 0; i < 100; ++i) lags.floor.record(200'000);  // an idle loop fires 0.2 ms late here
  const auto h = assess_client(health_inputs(records, lags, 1.0));
  EXPECT_TRUE(h.healthy) << h.reason;
  EXPECT_NEAR(h.measured_floor_ms, 0.2, 0.001);
  EXPECT_NEAR(h.limit_ms, 0.2, 0.001);
}

TEST(ClientHealth, ATimeScaleBelowTheNoiseFloorIsUnhealthy) {
  const auto records = records_with_send_lags(repeat(5, 30));
  const auto lags = reads(5'000, 100);
  auto in = health_inputs(records, lags, 0.2);  // a 20 ms TPOT at time scale 0.01
  in.sim_time_scale = 0.01;
  const auto h = assess_client(in);
  EXPECT_FALSE(h.healthy);
  EXPECT_NE(h.reason.find("time scale 0.01 too small"), std::string::npos) << h.reason;
  in.median_tpot_ms = 2.0;  // the same model at time scale 0.1
  in.sim_time_scale = 0.1;
  EXPECT_TRUE(assess_client(in).healthy);
}

TEST(ClientHealth, ATimeScaleThatPutsEveryTokenInOneReadIsUnhealthyNotUngated) {
  // At 1/500 a request's tokens pile up into one read: TPOT 0, and only 8 reads, too few to gate.
  // The simulator's 500 steps over the run's 12 ms (8 requests sent 1 ms apart, each 4 ms long)
  // put 24 µs of real time between its tokens: 10 % of that is below the 50-µs floor.
  auto records = records_with_send_lags(repeat(5, 8));
  for (RequestRecord& r : records) r.done = r.sent + microseconds(4000);
  const auto lags = reads(5'000, 8);
  auto in = health_inputs(records, lags, 0.0);
  in.sim_time_scale = 0.002;
  in.sim_steps = SimStepWindow{.steps = 500, .p99_ms = 0};
  const auto h = assess_client(in);
  EXPECT_FALSE(h.healthy);
  EXPECT_NE(h.reason.find("time scale 0.002 too small"), std::string::npos) << h.reason;
  EXPECT_NE(h.reason.find("time per engine step"), std::string::npos) << h.reason;
  // The same TPOT 0 from a simulator that held its stream back (slow headers) while its steps kept
  // a real 1.2 ms apart: the scale is not what crushed the gaps, and the run is not failed for it.
  in.sim_steps = SimStepWindow{.steps = 10, .p99_ms = 0};
  const auto held = assess_client(in);
  EXPECT_TRUE(held.healthy) << held.reason;
  // Without a step count there is no gap to judge, as from a real server.
  in.sim_steps.reset();
  EXPECT_NE(assess_client(in).reason.find("not gated"), std::string::npos);
  in.sim_time_scale.reset();  // a real server that buffered its whole stream: nothing to judge lag by
  const auto real = assess_client(in);
  EXPECT_TRUE(real.healthy);
  EXPECT_NE(real.reason.find("not gated"), std::string::npos) << real.reason;
}

TEST(ClientHealth, OpenLoopLeavesTheOpeningSecondOut) {
  auto records = records_with_send_lags(repeat(3000, 10));  // the opening burst, 3 ms late
  const auto later = records_with_send_lags(repeat(10, 30), microseconds(1'000'000));
  records.insert(records.end(), later.begin(), later.end());
  const LagHistograms none;
  auto in = health_inputs(records, none, 10.0);
  in.open_loop = true;
  const auto h = assess_client(in);
  EXPECT_TRUE(h.healthy) << h.reason;
  EXPECT_EQ(h.send_lag_samples, 30);
  in.open_loop = false;  // closed loop has no opening burst to forgive
  EXPECT_FALSE(assess_client(in).healthy);
}

TEST(ClientHealth, StampedChunksAreReportedButNotGated) {
  const auto records = records_with_send_lags({1, 1});
  auto lags = reads(1'000, 30);
  for (int i = 0; i < 98; ++i) lags.client_added.record(50'000);
  for (int i = 0; i < 2; ++i) lags.client_added.record(3'000'000);  // p99 = 3 ms
  const auto h = assess_client(health_inputs(records, lags, 20.0));
  ASSERT_TRUE(h.added_p99_ms);
  EXPECT_NEAR(*h.added_p99_ms, 3.0, 0.02);
  EXPECT_NEAR(*h.added_p50_ms, 0.05, 0.001);
  EXPECT_EQ(h.stamped_chunks, 100);
  EXPECT_TRUE(h.healthy) << h.reason;  // the server's send path is in that number too
  EXPECT_NEAR(h.lag_p99_ms, 0.001, 1e-5);
}

TEST(ClientHealth, SlowReadsAreUnhealthy) {
  const auto records = records_with_send_lags({1, 1});
  const auto lags = reads(5'000'000, 30);  // 5 ms between read and record
  const auto h = assess_client(health_inputs(records, lags, 20.0));
  EXPECT_FALSE(h.healthy);
  EXPECT_NE(h.reason.find("read lag p99 5.0"), std::string::npos) << h.reason;
}

TEST(ClientHealth, ASaturatedLoopThreadIsUnhealthy) {
  const auto records = records_with_send_lags({1, 1});
  const LagHistograms none;
  auto in = health_inputs(records, none, 20.0);
  in.loops = {.cpu_seconds = 1.9, .max_busy = 0.97, .threads = 2};
  const auto h = assess_client(in);
  EXPECT_FALSE(h.healthy);
  EXPECT_NE(h.reason.find("busy 97%"), std::string::npos) << h.reason;
  EXPECT_EQ(h.threads, 2);
  EXPECT_DOUBLE_EQ(h.cpu_seconds, 1.9);
}

TEST(ClientHealth, WithoutTpotTheRunIsNotGated) {
  const auto records = records_with_send_lags(repeat(5000, 30));
  const LagHistograms none;
  const auto h = assess_client(health_inputs(records, none, std::nan("")));
  EXPECT_TRUE(h.healthy);
  EXPECT_TRUE(std::isnan(h.limit_ms));
  EXPECT_NE(h.reason.find("not gated"), std::string::npos);
}

TEST(ClientHealth, ALateLoopTickFailsTheRunOnlyWhenNoArrivalLagShowsWhatItDid) {
  const auto records = records_with_send_lags(repeat(5, 30));
  auto lags = reads(5'000, 100);
  for (int i = 0; i < 400; ++i) lags.loop_lag.record(i % 20 == 0 ? 3'000'000 : 10'000);  // 5 % of ticks 3 ms late
  const auto in = health_inputs(records, lags, 16.0);  // limit 1.6 ms
  const auto blind = assess_client(in);  // no arrival timestamps: the loop lag stands in for them
  EXPECT_FALSE(blind.healthy);
  EXPECT_NE(blind.reason.find("client lag p99 3.0"), std::string::npos) << blind.reason;
  for (int i = 0; i < 100; ++i) lags.arrival_lag.record(200'000);  // every read parsed 0.2 ms after arrival
  const auto seen = assess_client(in);
  EXPECT_TRUE(seen.healthy) << seen.reason;
  EXPECT_GT(seen.gated_loop_lag_ms, seen.limit_ms) << "still measured and reported";
  for (int i = 0; i < 10; ++i) lags.arrival_lag.record(3'000'000);  // reads that waited out a stall
  EXPECT_FALSE(assess_client(in).healthy);
}

}  // namespace
}  // namespace servebench::load
