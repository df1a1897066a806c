#include "servebench/load/point_mapping.hpp"

#include <gtest/gtest.h>

#include "run_fixture.hpp"

namespace servebench::load {
namespace {

TEST(PointMapping, FillsStatsThroughputAndCountsFailures) {
  RunResult r = testing::small_run();
  r.accept_length = 3.0;
  r.cache = {.flushed = true, .hit_rate = 0.002};
  const results::PointRecord p = to_point_record(r, {.campaign = "c", .arm = "a", .scenario = "chat", .isl = 10,
                                                      .osl = 3, .concurrency = 2});
  EXPECT_EQ(p.arm, "a");
  EXPECT_EQ(p.num_prompts, 3);
  EXPECT_EQ(p.completed, 2);
  EXPECT_EQ(p.failed, 1);
  EXPECT_EQ(p.effective_concurrency, 2);
  EXPECT_EQ(p.status, results::PointStatus::failed);
  EXPECT_EQ(p.reason, "1 of 3 requests failed (timeout 1)");
  EXPECT_DOUBLE_EQ(p.ttft_ms.p90, 100.0);
  EXPECT_DOUBLE_EQ(p.tpot_ms.mean, (15.0 + 10.0) / 2);
  EXPECT_DOUBLE_EQ(p.throughput.total_tok_per_s_per_gpu, p.throughput.total_tok_per_s / 2);
  EXPECT_EQ(p.gpus, 2);
  EXPECT_EQ(p.accept_length, 3.0);
  EXPECT_TRUE(p.cache.flushed);
  EXPECT_EQ(p.cache.hit_rate, 0.002);
}

TEST(PointMapping, UnhealthyClientMakesTheRunInvalid) {
  RunResult r = testing::small_run();
  r.records.pop_back();
  r.metrics = compute_metrics(r.records, r.chunks, r.echo.metric_options);
  r.client.healthy = false;
  r.client.reason = "client lag p99 too high";
  const results::PointRecord p = to_point_record(r, {});
  EXPECT_EQ(p.status, results::PointStatus::invalid);
  EXPECT_EQ(p.reason, "client lag p99 too high");
  EXPECT_FALSE(p.client.healthy);
}

TEST(PointMapping, SimulatedTimeKeepsTheWallDurationBeside) {
  RunResult r = testing::small_run();
  const results::PointRecord real = to_point_record(r, {});
  EXPECT_EQ(real.extra.at("time_base").as_string(), "real");
  EXPECT_EQ(real.extra.if_contains("wall_duration_s"), nullptr);
  r.time_scale = 0.2;
  const results::PointRecord sim = to_point_record(r, {});
  EXPECT_EQ(sim.extra.at("time_base").as_string(), "simulated");
  EXPECT_DOUBLE_EQ(sim.extra.at("wall_duration_s").as_double(), sim.duration_s * 0.2);
}

}  // namespace
}  // namespace servebench::load
