// The controlled-hit-rate scenario on serve-sim: the server's own counters show the target rate
// within the protocol's ±0.02 at every concurrency; a server without a prefix cache misses it, is
// retried once and flagged invalid.
#include <cmath>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

TEST(ControlledHitRate, TheSimulatorReachesTheTargetAndAServerWithoutCacheIsFlagged) {
  const auto dir = campaign_temp_dir("controlled_hit_rate");
  write_text(dir / "c.yaml",
             "name: hits\n"
             "protocol: {num_prompts: \"2*c\", warmup_requests: 1, client_lag_limit: 1000}\n"
             "arms:\n"
             "  - {name: cache, engine: sim, gate: false, ready_timeout_s: 30, launch: \"" + sim_launch() + "\"}\n"
             "  - {name: nocache, engine: sim, gate: false, ready_timeout_s: 30, launch: \"" +
                 sim_launch("--disable-radix-cache") + "\"}\n"
             "scenarios:\n"
             "  - {name: half, kind: controlled-hit-rate, hit_rate: 0.5, isl: 256, osl: 4, concurrency: [1, 4]}\n"
             "  - {name: quarter, kind: controlled-hit-rate, hit_rate: 0.25, isl: 256, osl: 4, concurrency: [4]}\n");
  const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "out", "--no-progress"}, dir);
  EXPECT_EQ(run.exit_code, 1) << "the arm without a cache must be flagged\n" << run.out << run.err;
  const auto ledger = read_run_ledger(dir / "out");
  int cached = 0, flagged = 0;
  for (const auto& p : ledger.latest()) {
    const std::string id = results::point_id(results::key_of(p));
    ASSERT_TRUE(p.cache.hit_rate.has_value()) << id;
    const double target = p.scenario == "half" ? 0.5 : 0.25;
    const auto& w = p.extra.at("workload").as_object();
    EXPECT_EQ(w.at("target_hit_rate").to_number<double>(), target) << id;
    EXPECT_NEAR(w.at("expected_hit_rate").to_number<double>(), target, 0.005) << id;
    EXPECT_EQ(p.prompts.source, "controlled-hit-rate");
    EXPECT_EQ(p.isl, 256);
    if (p.arm == "cache") {
      ++cached;
      EXPECT_EQ(p.status, results::PointStatus::ok) << id << ": " << p.reason;
      EXPECT_TRUE(p.cache.verified) << id;
      EXPECT_NEAR(*p.cache.hit_rate, target, 0.02) << id;
    } else {
      ++flagged;
      EXPECT_EQ(p.status, results::PointStatus::invalid) << id;
      EXPECT_EQ(p.cache.attempts, 2) << "retried once";
      EXPECT_LT(*p.cache.hit_rate, 0.02) << id;
      EXPECT_NE(p.reason.find("is not the workload's"), std::string::npos) << p.reason;
    }
  }
  EXPECT_EQ(cached, 3);
  EXPECT_EQ(flagged, 3);
}

}  // namespace
}  // namespace servebench::e2e
