// The gate's direct signals: the event loop's own lag (periodic-timer lateness), the arrival lag
// (kernel receive timestamp → parsed) and serve-sim's step lateness over the window.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "servebench/load/client_health.hpp"
#include "unit/load/health_inputs.hpp"

namespace servebench::load {
namespace {

std::vector<RequestRecord> quiet_records(int n) {
  std::vector<RequestRecord> out;
  for (int i = 0; i < n; ++i) {
    RequestRecord r;
    r.index = static_cast<std::uint32_t>(i);
    r.intended = r.released = std::chrono::milliseconds(i);
    r.sent = r.released + std::chrono::microseconds(5);
    out.push_back(r);
  }
  return out;
}

void fill(stats::Histogram& h, std::uint64_t ns, int n) {
  for (int i = 0; i < n; ++i) h.record(ns);
}

TEST(ClientHealthSignals, ALateLoopTimerIsUnhealthyEvenWhenReadsAreFast) {
  const auto records = quiet_records(30);
  LagHistograms lags;
  fill(lags.read_lag, 2'000, 200);        // parsing is quick…
  fill(lags.loop_lag, 20'000, 900);       // …but the loop ran its timers 3 ms late 10 % of the time
  fill(lags.loop_lag, 3'000'000, 100);
  const auto h = assess_client(health_inputs(records, lags, 20.0));  // limit 2 ms
  EXPECT_FALSE(h.healthy);
  EXPECT_EQ(h.loop_lag_samples, 1000);
  EXPECT_NEAR(h.gated_loop_lag_ms, 3.0, 0.03);
  EXPECT_NE(h.reason.find("loop lag p99 3.0"), std::string::npos) << h.reason;
  // The same loop with its stall below 10 % of the TPOT passes.
  LagHistograms mild;
  fill(mild.read_lag, 2'000, 200);
  fill(mild.loop_lag, 1'500'000, 1000);
  EXPECT_TRUE(assess_client(health_inputs(records, mild, 20.0)).healthy);
}

TEST(ClientHealthSignals, LateArrivalsAreUnhealthy) {
  const auto records = quiet_records(30);
  LagHistograms lags;
  fill(lags.read_lag, 2'000, 200);
  fill(lags.arrival_lag, 4'000'000, 200);  // bytes sat 4 ms in the socket before they were parsed
  const auto h = assess_client(health_inputs(records, lags, 20.0));
  EXPECT_FALSE(h.healthy);
  EXPECT_NEAR(h.gated_arrival_lag_ms, 4.0, 0.04);
  EXPECT_NE(h.reason.find("arrival lag p99 4.0"), std::string::npos) << h.reason;
}

TEST(ClientHealthSignals, LoopTicksAloneAreEnoughToGate) {
  const std::vector<RequestRecord> records = quiet_records(2);  // too few requests and reads
  LagHistograms lags;
  fill(lags.loop_lag, 10'000, 50);
  const auto h = assess_client(health_inputs(records, lags, 20.0));
  EXPECT_TRUE(h.healthy) << h.reason;
  EXPECT_TRUE(h.reason.empty()) << h.reason;  // gated, not "not gated"
  EXPECT_DOUBLE_EQ(h.limit_ms, 2.0);
}

std::vector<wire::Bucket> buckets(std::initializer_list<std::pair<double, double>> le_count) {
  std::vector<wire::Bucket> out;
  for (const auto& [le, count] : le_count) out.push_back({le, count});
  return out;
}

constexpr double k_inf = std::numeric_limits<double>::infinity();

TEST(ClientHealthSignals, SimStepWindowIsTheDeltaOfTheHistogram) {
  // Before: 1000 steps all on time. During the window: 100 more, 90 within 1 ms, 10 in (1, 5] ms.
  const auto before = buckets({{0.001, 1000}, {0.005, 1000}, {k_inf, 1000}});
  const auto after = buckets({{0.001, 1090}, {0.005, 1100}, {k_inf, 1100}});
  const auto w = sim_step_window(before, after);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->steps, 100);
  // Robust rank 95 of 100 lies in (1, 5] ms: 5 of its 10 steps in, linear → 1 + 4 × 5/10 = 3 ms.
  EXPECT_NEAR(w->p99_ms, 3.0, 1e-9);
  EXPECT_FALSE(sim_step_window(before, buckets({{0.001, 1095}, {k_inf, 1100}})));  // other edges
  EXPECT_FALSE(sim_step_window({}, after));
  const auto few = sim_step_window(before, buckets({{0.001, 1005}, {0.005, 1010}, {k_inf, 1010}}));
  ASSERT_TRUE(few);
  EXPECT_EQ(few->steps, 10);
  EXPECT_EQ(few->p99_ms, 0);  // fewer than 20 steps: no p99
}

TEST(ClientHealthSignals, ALateSimLoopIsUnhealthy) {
  const auto records = quiet_records(30);
  LagHistograms lags;
  fill(lags.read_lag, 2'000, 200);
  auto in = health_inputs(records, lags, 20.0);
  in.sim_steps = SimStepWindow{.steps = 400, .p99_ms = 5.0};
  auto h = assess_client(in);
  EXPECT_FALSE(h.healthy);
  EXPECT_DOUBLE_EQ(h.sim_step_limit_ms, 2.0);
  EXPECT_NE(h.reason.find("serve-sim's engine loop ran late"), std::string::npos) << h.reason;
  in.sim_steps = SimStepWindow{.steps = 400, .p99_ms = 0.3};
  EXPECT_TRUE(assess_client(in).healthy);
  in.sim_steps = SimStepWindow{.steps = 10, .p99_ms = 50};  // too few steps to judge
  EXPECT_TRUE(assess_client(in).healthy);
}

TEST(ClientHealthSignals, TheFloorExcusesSimLatenessOnlyInRealTime) {
  const auto records = quiet_records(30);
  LagHistograms lags;
  fill(lags.read_lag, 2'000, 200);
  fill(lags.floor, 300'000, 100);  // a noise floor of 0.3 ms
  auto in = health_inputs(records, lags, 2.5);  // 10 % = 0.25 ms
  in.sim_steps = SimStepWindow{.steps = 400, .p99_ms = 0.28};
  EXPECT_TRUE(assess_client(in).healthy) << assess_client(in).reason;  // within the machine's noise
  in.median_tpot_ms = 4.0;  // at time scale 0.2 the same lateness is magnified 5× in simulated time
  in.sim_time_scale = 0.2;
  in.sim_steps = SimStepWindow{.steps = 400, .p99_ms = 0.45};
  const auto h = assess_client(in);
  EXPECT_FALSE(h.healthy);
  EXPECT_DOUBLE_EQ(h.sim_step_limit_ms, 0.4);
}

}  // namespace
}  // namespace servebench::load
