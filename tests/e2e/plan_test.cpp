// `servebench plan` end to end: a campaign file in virtual time into a run directory the report
// reads as predicted; arms it cannot simulate; the demo's verdicts. (Agreement with a live run at
// time scale 1 is in timing/plan_agreement_test.cpp: it needs the machine to itself.)
#include <map>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"
#include "servebench/results/run_layout.hpp"

namespace servebench::e2e {
namespace {

using results::PointStatus;

std::string mixed_campaign() {
  return "name: plan-e2e\n"
         "protocol:\n"
         "  num_prompts: \"max(2, c)\"\n"
         "  warmup_requests: 1\n"
         "arms:\n"
         "  - name: short\n"
         "    engine: sim\n"
         "    launch: \"" + sim_launch("--context-length 4096 --tool-call-parser llama3") + "\"\n"
         "  - name: remote\n"
         "    engine: vllm\n"
         "    base_url: http://127.0.0.1:1\n"
         "  - name: typo\n"
         "    engine: sim\n"
         "    launch: \"servebench serve-sim --hw h200 --no-such-flag 3 --port {port}\"\n"
         "scenarios:\n"
         "  - {name: chat, isl: 512, osl: 32, concurrency: [1, 4]}\n"
         "  - {name: big, isl: 8000, osl: 8, concurrency: [1]}\n";
}

TEST(Plan, WritesAPredictedRunDirectoryThatTheReportReads) {
  const auto dir = campaign_temp_dir("plan_mixed");
  write_text(dir / "c.yaml", mixed_campaign());
  const auto run = run_servebench({"plan", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(60));
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  // Arms the simulator cannot represent are listed with the reason, never simulated with defaults.
  EXPECT_NE(run.out.find("arm remote: not simulated: the arm attaches to a running server"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("arm typo: not simulated: serve-sim:"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--no-such-flag"), std::string::npos) << run.out;

  const results::RunLayout layout(dir / "out");
  auto points = points_by_id(read_run_ledger(layout.dir()));
  ASSERT_EQ(points.size(), 3u);  // short only
  for (const auto& [id, r] : points) {
    EXPECT_EQ(r.arm, "short");
    ASSERT_TRUE(r.extra.contains("predicted")) << id;
    EXPECT_EQ(r.extra.at("predicted").at("by").as_string(), "servebench plan");
    EXPECT_EQ(r.extra.at("predicted").at("model_card").at("file").as_string(), "models/llama-3.1-8b.yaml");
    EXPECT_EQ(r.extra.at("predicted").at("model_card").at("sha256").as_string().size(), 64u);
    EXPECT_EQ(r.extra.at("time_base").as_string(), "simulated");
  }
  const auto& c4 = points.at("short/chat/c4");
  EXPECT_EQ(c4.status, PointStatus::ok) << c4.reason;
  EXPECT_EQ(c4.completed, 4);
  EXPECT_TRUE(c4.cache.flushed);
  EXPECT_TRUE(c4.cache.verified);
  EXPECT_GT(c4.ttft_ms.mean, 0);
  EXPECT_GT(c4.tpot_ms.mean, 0);
  EXPECT_GT(c4.throughput.output_tok_per_s, 0);
  const auto& big = points.at("short/big/c1");
  EXPECT_EQ(big.status, PointStatus::skipped);
  EXPECT_EQ(big.reason, "isl+osl 8008 exceeds context 4096");
  EXPECT_TRUE(std::filesystem::exists(layout.requests("short", "chat", 4)));
  EXPECT_TRUE(std::filesystem::exists(layout.server_facts("short")));
  EXPECT_FALSE(std::filesystem::exists(layout.arm_dir("remote")));

  const auto report = run_servebench({"report", "out"}, dir, std::chrono::seconds(60), "report");
  ASSERT_EQ(report.exit_code, 0) << report.err;
  auto md = util::read_file(layout.dir() / "report.md");
  ASSERT_TRUE(md.has_value());
  EXPECT_NE(md->find("PREDICTED: 3 points from `servebench plan`"), std::string::npos) << *md;
  EXPECT_NE(md->find("models/llama-3.1-8b.yaml"), std::string::npos);
}

TEST(Plan, ACampaignWithNoArmItCanSimulateIsBadInput) {
  const auto dir = campaign_temp_dir("plan_none");
  write_text(dir / "c.yaml",
             "name: none\n"
             "arms:\n"
             "  - {name: remote, engine: vllm, base_url: \"http://127.0.0.1:1\"}\n"
             "scenarios:\n"
             "  - {name: s, isl: 16, osl: 4, concurrency: [1]}\n");
  const auto run = run_servebench({"plan", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(30));
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("no arm of the campaign can be simulated"), std::string::npos) << run.err;
}

// The same small matrix, live against serve-sim in real time and by plan. Steps are made long (10 ms
// of fixed overhead, a tenth of the card's tensor-core efficiency, 8K prompts: TTFT ≈ 1.3 s, 64
// output tokens over ≈ 0.9 s) so loopback HTTP and a loaded machine — milliseconds at worst — stay
// far below 2 % of any mean; the live run takes about 15 s.
// A fleet: every scenario kind with the campaign's token content, four replicas behind a
// prefix-aware router, the router's decisions in the request log, the fleet in the ledger and the
// report, a plan-wide override file with its hash, and the error budget line.
TEST(Plan, PredictsAFleetBehindARouterOnEveryScenarioKind) {
  const auto dir = campaign_temp_dir("plan_fleet");
  write_text(dir / "c.yaml",
             "name: plan-fleet\n"
             "protocol:\n"
             "  num_prompts: \"max(16, 2 * c)\"\n"
             "  warmup_requests: 1\n"
             "arms:\n"
             "  - name: a\n"
             "    engine: sim\n"
             "    launch: \"" + sim_launch() + "\"\n"
             "scenarios:\n"
             "  - {name: fixed, isl: 256, osl: 8, concurrency: [4]}\n"
             "  - {name: gsp, kind: generated-shared-prefix, groups: 4, prompts_per_group: 8, system_len: 1024, "
             "question_len: 64, osl: 8, concurrency: [8]}\n"
             "  - {name: chat, kind: multi-turn, conversations: 4, turns: 3, user_len: 64, osl: 8, concurrency: [2]}\n"
             "  - {name: warm, kind: controlled-hit-rate, hit_rate: 0.5, isl: 512, osl: 8, concurrency: [2]}\n");
  write_text(dir / "fit.yaml", "efficiency: {step_overhead_us: 900}\n");
  const auto run = run_servebench({"plan", "c.yaml", "--out", "out", "--replicas", "4", "--router", "prefix-aware",
                                   "--sim-overrides", "fit.yaml"},
                                  dir, std::chrono::seconds(60));
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("arm a: simulating 4 replicas of"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("arm a: predicted; no validation known for these cards"), std::string::npos) << run.out;
  const results::RunLayout layout(dir / "out");
  auto points = points_by_id(read_run_ledger(layout.dir()));
  ASSERT_EQ(points.size(), 4u);
  for (const auto& [id, r] : points) {
    EXPECT_EQ(r.status, PointStatus::ok) << id << ": " << r.reason;
    EXPECT_EQ(r.gpus, 4) << "every replica's GPU";
    const auto& fleet = r.extra.at("fleet").as_object();
    EXPECT_EQ(fleet.at("replicas").as_int64(), 4);
    EXPECT_EQ(fleet.at("router").as_string(), "prefix-aware");
    const auto& pred = r.extra.at("predicted").as_object();
    EXPECT_EQ(pred.at("overrides").at("file").as_string(), "fit.yaml");
    EXPECT_EQ(pred.at("overrides").at("sha256").as_string().size(), 64u);
    EXPECT_TRUE(pred.at("error_budget").is_null());
  }
  // The shared-prefix kinds hit the cache as their prompts share; the fixed one does not.
  EXPECT_LT(points.at("a/fixed/c4").cache.hit_rate.value_or(1), 0.01);
  EXPECT_GT(points.at("a/gsp/c8").cache.hit_rate.value_or(0), 0.5);
  EXPECT_GT(points.at("a/chat/c2").cache.hit_rate.value_or(0), 0.2);
  EXPECT_EQ(points.at("a/chat/c2").extra.at("workload").at("kind").as_string(), "multi-turn");
  EXPECT_EQ(points.at("a/chat/c2").completed, 12);
  auto log = util::read_file(layout.requests("a", "gsp", 8));
  ASSERT_TRUE(log.has_value());
  EXPECT_NE(log->find("\"replica\":"), std::string::npos);
  EXPECT_NE(log->find("\"route\":\"prefix\""), std::string::npos) << *log;
  EXPECT_NE(log->find("\"route_matched_tokens\":1024"), std::string::npos);

  const auto report = run_servebench({"report", "out"}, dir, std::chrono::seconds(60), "report");
  ASSERT_EQ(report.exit_code, 0) << report.err;
  auto md = util::read_file(layout.dir() / "report.md");
  ASSERT_TRUE(md.has_value());
  EXPECT_NE(md->find("a: 4 replicas behind a prefix-aware router"), std::string::npos) << *md;
  EXPECT_NE(md->find("override fit.yaml"), std::string::npos);
  EXPECT_NE(md->find("no validation known for these cards"), std::string::npos);
}

// The demo in seconds: its report names the crossover the live demo shows (examples/demo.yaml).
TEST(Plan, TheDemoShowsTheLiveDemosVerdictsInSeconds) {
  const auto dir = campaign_temp_dir("plan_demo");
  const std::string demo = std::string(SERVEBENCH_SOURCE_DIR) + "/examples/demo.yaml";
  const auto plan = run_servebench({"plan", demo, "--out", "out"}, dir, std::chrono::seconds(60));
  ASSERT_EQ(plan.exit_code, 0) << plan.out << plan.err;
  const auto report = run_servebench({"report", "out"}, dir, std::chrono::seconds(60), "report");
  ASSERT_EQ(report.exit_code, 0) << report.err;
  auto md = util::read_file(dir / "out" / "report.md");
  ASSERT_TRUE(md.has_value());
  EXPECT_NE(md->find("16k-512: crossover at C=8 — e7b leads below, tp2pp4 from C=8 on"), std::string::npos) << *md;
  EXPECT_NE(md->find("1k-128: no crossover — e7b leads at every contested concurrency"), std::string::npos);
  EXPECT_NE(md->find("| 16k-512  |   1 | e7b    |"), std::string::npos);
  EXPECT_NE(md->find("| 16k-512  |  16 | tp2pp4 |"), std::string::npos);
}

}  // namespace
}  // namespace servebench::e2e
