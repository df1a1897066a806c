// The client-health gate against planted faults, end to end: `servebench bench` (gate defaults)
// against `servebench serve-sim`. Each fault makes the measured latencies untrustworthy in a way
// the run's own numbers cannot show, and each must make the run invalid (exit 1) for its reason:
// a client loop thread that burns CPU (loop lag), a simulator whose engine loop runs late (step
// lateness from its /metrics), and a time scale too small for this machine. The same setup
// without a fault is healthy on a quiet machine (the 50-run check is tests/e2e/slow/).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <thread>

#include "e2e/sim_child.hpp"

namespace servebench::e2e {
namespace {

// A deployment whose TPOT is ~21 ms, run 4x slower than real time: ~84 ms between tokens on the
// wire, so 10 % of it (the gate's limit, ~8.4 ms) is above the few-ms scheduler stalls a shared
// 2-core VM has several times a second. At real time (limit ~2.1 ms) those stalls alone fail a
// small run now and then on such a VM, which is the gate doing its job, not a false failure.
const std::vector<std::string> k_deployment{"--hw", "h100", "--model", "llama-3.1-70b", "--tp-size", "4"};
const std::vector<std::string> k_slow_sim{"--hw",        "h100", "--model",          "llama-3.1-70b",
                                          "--tp-size",   "4",    "--sim-time-scale", "4"};
const std::vector<std::string> k_small_run{"--backend", "sglang-oai", "--num-prompts", "8", "--max-concurrency", "8",
                                           "--random-input-len", "32", "--random-output-len", "40"};

std::vector<std::string> plus(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const boost::json::object& client_of(const boost::json::object& o) { return o.at("client").as_object(); }

std::string reason_of(const boost::json::object& client) { return util::json_string(client, "reason").value_or(""); }

TEST(HealthGate, TheUnfaultedRunIsHealthyAndMeasuresEverySignal) {
  double load = 0;
  std::ifstream("/proc/loadavg") >> load;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (load > cores) {  // then every client thread waits for a CPU and the gate rightly says so
    GTEST_SKIP() << "skipped: load average " << load << " on " << cores << " cores, not a quiet machine";
  }
  SimChild sim("gate_healthy", k_slow_sim);
  ASSERT_FALSE(sim.url.empty());
  // One retry: a single small run is falsely failed about one time in 25 on a 2-core VM (its rate
  // is HealthyRuns' business, tests/e2e/slow/); this test is the premise of the fault tests below.
  Finished r = sim.bench(k_small_run);
  auto o = sim.last_result();
  if (r.exit_code != 0 && o.contains("client") && !o.at("client").as_object().at("healthy").as_bool()) {
    std::fprintf(stderr, "HealthGate: first run falsely failed (%s); retrying once\n", reason_of(client_of(o)).c_str());
    r = sim.bench(k_small_run);
    o = sim.last_result();
  }
  ASSERT_TRUE(o.contains("client")) << r.err;
  const auto& c = client_of(o);
  EXPECT_EQ(r.exit_code, 0) << reason_of(c) << "\n" << r.err;
  EXPECT_TRUE(c.at("healthy").as_bool()) << reason_of(c);
  EXPECT_GT(number_of(o, "median_tpot_ms"), 10.0);  // the premise of the fault tests below
  EXPECT_GE(number_of(c, "loop_lag_samples"), 100);
  EXPECT_GE(number_of(c, "arrival_lag_samples"), 8 * 40);
  EXPECT_GE(number_of(c, "sim_steps"), 20);  // the simulator's step lateness was read over the window
  EXPECT_LE(number_of(c, "sim_step_lateness_p99_ms"), number_of(c, "sim_step_limit_ms"));
}

TEST(HealthGate, AClientLoopThatBurnsCpuFailsTheRun) {
  // Each loop thread busy 30 ms of every 100 ms: not saturated (30 %), reads parsed at once, but
  // every token that arrives during a stall waits in its socket (up to 30 ms, well above the limit
  // of ~8.4 ms), and the loop's timer runs late.
  SimChild sim("gate_stall", k_slow_sim);
  ASSERT_FALSE(sim.url.empty());
  const Finished r = sim.bench(plus(k_small_run, {"--plant-client-stall-ms", "30"}));
  const auto o = sim.last_result();
  ASSERT_TRUE(o.contains("client")) << r.err;
  const auto& c = client_of(o);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(c.at("healthy").as_bool());
  EXPECT_LT(number_of(c, "max_loop_busy"), 0.9);  // not the saturation check
  EXPECT_GT(number_of(c, "gated_loop_lag_ms"), number_of(c, "limit_ms")) << reason_of(c);
  EXPECT_NE(reason_of(c).find("client lag p99"), std::string::npos) << reason_of(c);
  EXPECT_EQ(number_of(o, "failed"), 0);
}

TEST(HealthGate, ASimulatorWhoseLoopRunsLateFailsTheRun) {
  SimChild sim("gate_slow_steps", plus(k_slow_sim, {"--sim-fault", "slow-steps:25"}));
  ASSERT_FALSE(sim.url.empty());
  const Finished r = sim.bench(k_small_run);
  const auto o = sim.last_result();
  ASSERT_TRUE(o.contains("client")) << r.err;
  const auto& c = client_of(o);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(c.at("healthy").as_bool());
  EXPECT_GE(number_of(c, "sim_step_lateness_p99_ms"), 20.0);  // each step 25 ms late; limit ~8.4 ms
  EXPECT_NE(reason_of(c).find("serve-sim's engine loop ran late"), std::string::npos) << reason_of(c);
  EXPECT_EQ(number_of(o, "failed"), 0);
}

TEST(HealthGate, ATooSmallTimeScaleFailsTheRun) {
  // At 1/50 of real time a TPOT of ~16 ms becomes ~0.3 ms, and 10 % of it ~30 µs: below the 50-µs
  // noise floor every machine has. (At 1/500 a request's tokens pile up into one read: TPOT 0, the
  // same verdict — ClientHealth.ATimeScaleThatPutsEveryTokenInOneReadIsUnhealthyNotUngated.)
  SimChild sim("gate_time_scale", plus(k_deployment, {"--sim-time-scale", "0.02"}));
  ASSERT_FALSE(sim.url.empty());
  const Finished r = sim.bench(k_small_run);
  const auto o = sim.last_result();
  ASSERT_TRUE(o.contains("client")) << r.err;
  const auto& c = client_of(o);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(c.at("healthy").as_bool());
  // Tokens 50 µs apart can also saturate a client loop on a loaded machine; the saturation verdict
  // is then given first. Either way the run is not trusted.
  const std::string reason = reason_of(c);
  EXPECT_TRUE(reason.find("time scale 0.02 too small") != std::string::npos ||
              reason.find("the client was saturated") != std::string::npos)
      << reason;
}

}  // namespace
}  // namespace servebench::e2e
