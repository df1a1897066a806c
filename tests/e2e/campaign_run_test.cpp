// `servebench campaign run` end to end against serve-sim children: the protocol's records, facts,
// gate, structural skips, request logs and status; bad campaign files; a server that never gets ready.
#include <map>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

using results::PointStatus;

std::string two_arm_campaign() {
  return "name: e2e-run\n"
         "protocol:\n"
         "  num_prompts: \"max(2, c)\"\n"
         "  warmup_requests: 1\n"
         "  client_lag_limit: 1000\n"  // client health at a fast time scale is not under test here
         "arms:\n"
         "  - name: short\n"
         "    engine: sim\n"
         "    launch: \"" + sim_launch("--context-length 4096 --tool-call-parser llama3") + "\"\n"
         "    ready_timeout_s: 30\n"
         "  - name: long\n"
         "    engine: sim\n"
         "    launch: \"" + sim_launch() + "\"\n"
         "    gpus: 2\n"
         "    ready_timeout_s: 30\n"
         "scenarios:\n"
         "  - {name: chat, isl: 512, osl: 32, concurrency: [1, 4]}\n"
         "  - {name: big, isl: 8000, osl: 8, concurrency: [1]}\n";
}

TEST(CampaignRun, TwoSimArmsMeasureSkipGateAndRecordFacts) {
  const auto dir = campaign_temp_dir("two_arms");
  write_text(dir / "c.yaml", two_arm_campaign());
  const auto dry = run_servebench({"campaign", "run", "c.yaml", "--out", "out", "--dry-run"}, dir);
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("short/big/c1"), std::string::npos) << dry.out;
  EXPECT_NE(dry.out.find("skip: isl+osl 8008 exceeds context 4096"), std::string::npos) << dry.out;
  EXPECT_FALSE(std::filesystem::exists(dir / "out")) << "a dry run touches nothing";

  const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto out = dir / "out";
  const auto ledger = read_run_ledger(out);
  EXPECT_TRUE(ledger.issues.empty());
  ASSERT_EQ(ledger.records.size(), 6u) << "one record per point";
  const auto points = points_by_id(ledger);
  ASSERT_EQ(points.size(), 6u);
  const auto& skipped = points.at("short/big/c1");
  EXPECT_EQ(skipped.status, PointStatus::skipped);
  EXPECT_EQ(skipped.reason, "isl+osl 8008 exceeds context 4096");
  for (const auto& [id, r] : points) {
    if (id == "short/big/c1") continue;
    EXPECT_EQ(r.status, PointStatus::ok) << id << ": " << r.reason;
    EXPECT_TRUE(r.cache.flushed) << id;
    EXPECT_TRUE(r.cache.verified) << id;
    ASSERT_TRUE(r.cache.hit_rate.has_value()) << id;
    EXPECT_LE(*r.cache.hit_rate, 0.01) << id;
    EXPECT_EQ(r.completed, r.num_prompts) << id;
    EXPECT_EQ(r.effective_concurrency, r.concurrency) << id;
    EXPECT_EQ(r.gate.passed, std::optional<bool>(true)) << id;
    EXPECT_TRUE(r.server.fingerprint.starts_with("sha256:")) << id;
    EXPECT_EQ(r.server.facts, "arms/" + r.arm + "/server_facts.json");
    EXPECT_EQ(r.gpus, r.arm == "long" ? 2 : 1);
    ASSERT_TRUE(r.extra.contains("protocol")) << id;
    EXPECT_EQ(util::json_number(r.extra.at("protocol").as_object(), "sim_time_scale"), 0.05);
    const auto log = util::read_file(out / "requests" / r.arm / r.scenario / ("c" + std::to_string(r.concurrency) + ".jsonl"));
    ASSERT_TRUE(log.has_value()) << id;
    EXPECT_EQ(std::count(log->begin(), log->end(), '\n'), r.num_prompts) << id;
  }
  EXPECT_EQ(points.at("short/chat/c4").num_prompts, 4);

  const auto gate = read_json_file(out / "arms/short/gate.json");
  EXPECT_EQ(util::json_string(gate, "schema"), "servebench.gate/1");
  EXPECT_EQ(util::json_bool(gate, "passed"), true);
  const auto& probes = gate.at("probes").as_array();
  ASSERT_EQ(probes.size(), 3u);
  EXPECT_EQ(util::json_int(probes[0].as_object(), "correct"), 8);
  EXPECT_EQ(util::json_bool(probes[2].as_object(), "skipped"), false) << "short declares --tool-call-parser";
  EXPECT_EQ(util::json_bool(read_json_file(out / "arms/long/gate.json").at("probes").as_array()[2].as_object(), "skipped"),
            true);

  const auto facts = read_json_file(out / "arms/short/server_facts.json");
  EXPECT_EQ(util::json_string(facts, "schema"), "servebench.server_facts/1");
  EXPECT_EQ(util::json_int(facts.at("facts").as_object(), "context_length"), 4096);
  EXPECT_GT(util::json_int(facts.at("facts").as_object(), "kv_pool_tokens").value_or(0), 0);
  EXPECT_EQ(util::json_number(facts.at("sim").as_object(), "time_scale"), 0.05);
  EXPECT_EQ(util::json_string(facts, "fingerprint"), points.at("short/chat/c1").server.fingerprint);
  EXPECT_NE(util::json_string(facts, "launch").value_or("").find("{port}"), std::string::npos);

  EXPECT_NE(util::read_file(out / "status.txt").value_or("").find("state done"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(out / "campaign.yaml"));
  EXPECT_TRUE(std::filesystem::exists(out / "telemetry/telemetry.json"));
  EXPECT_FALSE(std::filesystem::exists(out / "arms/short/server.pid")) << "removed once the server is stopped";

  const auto status = run_servebench({"campaign", "status", "out"}, dir);
  EXPECT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find("short                    ok 2, skipped 1, invalid 0, failed 0, not run 0 (of 3)"),
            std::string::npos)
      << status.out;

  const auto again = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir);
  EXPECT_EQ(again.exit_code, 0) << again.out;
  EXPECT_NE(again.out.find("6 already settled, 0 to run"), std::string::npos) << again.out;
  EXPECT_EQ(read_run_ledger(out).records.size(), 6u) << "a finished campaign resumes to nothing";
}

struct BadCase {
  std::string name, yaml, message;
};

TEST(CampaignRun, BadCampaignFilesExitTwoNamingThePositionAndWriteNothing) {
  const std::string arm = "arms: [{name: a, engine: sim, base_url: 'http://127.0.0.1:1'}]\n";
  const std::vector<BadCase> cases = {
      {"unknown_key", "name: x\nprotocl: {}\n" + arm + "scenarios: [{name: s, isl: 1, osl: 1, concurrency: [1]}]\n",
       "bad.yaml:2:1: unknown key 'protocl' in campaign"},
      {"wrong_type", "name: x\n" + arm + "scenarios: [{name: s, isl: many, osl: 1, concurrency: [1]}]\n",
       "bad.yaml:3:28: scenario 's'.isl must be an integer, got 'many'"},
      {"bad_expression", "name: x\nprotocol: {num_prompts: 'max(8, 2*c'}\n" + arm +
                             "scenarios: [{name: s, isl: 1, osl: 1, concurrency: [1]}]\n",
       "bad.yaml:2:25: protocol.num_prompts 'max(8, 2*c': column 11: expected ',' or ')'"},
      {"duplicate", "name: x\n" + arm + "scenarios: [{name: s, isl: 1, osl: 1, concurrency: [1]}, {name: s, isl: 2, osl: 1, concurrency: [1]}]\n",
       "bad.yaml:3:58: duplicate scenario name 's'"},
      {"no_concurrency", "name: x\n" + arm + "scenarios: [{name: s, isl: 1, osl: 1}]\n",
       "bad.yaml:3:13: scenario 's' has no concurrency"},
  };
  for (const auto& c : cases) {
    const auto dir = campaign_temp_dir("bad_" + c.name);
    write_text(dir / "bad.yaml", c.yaml);
    const auto r = run_servebench({"campaign", "run", "bad.yaml", "--out", "out"}, dir);
    EXPECT_EQ(r.exit_code, 2) << c.name;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.name << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "out")) << c.name;
  }
}

TEST(CampaignRun, AnOutDirectoryWhoseParentIsMissingIsBadInputNotCreated) {
  const auto dir = campaign_temp_dir("deep_out");
  write_text(dir / "c.yaml", "name: x\narms: [{name: a, engine: sim, base_url: 'http://127.0.0.1:1'}]\n"
                             "scenarios: [{name: s, isl: 1, osl: 1, concurrency: [1]}]\n");
  const auto r = run_servebench({"campaign", "run", "c.yaml", "--out", "no/such/parent/out"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--out no/such/parent/out: the directory no/such/parent does not exist"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "no"));
}

TEST(CampaignRun, ExampleCampaignsAreValid) {
  const auto dir = campaign_temp_dir("examples");
  const auto demo = run_servebench({"campaign", "run", SERVEBENCH_SOURCE_DIR "/examples/demo.yaml", "--out", "d", "--dry-run"}, dir);
  EXPECT_EQ(demo.exit_code, 0) << demo.err;
  EXPECT_NE(demo.out.find("10 points in run order"), std::string::npos) << demo.out;
  const auto b300 = run_servebench({"campaign", "run", SERVEBENCH_SOURCE_DIR "/examples/b300-matrix.yaml", "--out", "b", "--dry-run"}, dir);
  EXPECT_EQ(b300.exit_code, 0) << b300.err;
  EXPECT_NE(b300.out.find("48 points in run order"), std::string::npos) << b300.out;
  EXPECT_NE(b300.out.find("e7b/512k-1/c1"), std::string::npos);
  EXPECT_NE(b300.out.find("skip: isl+osl 524289 exceeds context 270336"), std::string::npos) << b300.out;
}

TEST(CampaignRun, QualityGateFailureMarksTheArmsPointsInvalidUnlessNotRequired) {
  const auto dir = campaign_temp_dir("gate");
  // Without --sim-oracle the simulator answers word problems with arbitrary tokens.
  const std::string launch = "servebench serve-sim --hw h200 --model llama-3.1-8b --port {port} --sim-time-scale 0.05";
  write_text(dir / "c.yaml", "name: gate\nprotocol: {num_prompts: '2', client_lag_limit: 1000}\narms:\n"
                             "  - {name: strict, engine: sim, launch: '" + launch + "'}\n"
                             "  - {name: lenient, engine: sim, launch: '" + launch + "', gate: {required: false}}\n"
                             "scenarios: [{name: s, isl: 128, osl: 8, concurrency: [1]}]\n");
  const auto r = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto points = points_by_id(read_run_ledger(dir / "out"));
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points.at("strict/s/c1").status, PointStatus::invalid);
  EXPECT_EQ(points.at("strict/s/c1").reason.substr(0, 25), "quality gate failed: arit");
  EXPECT_EQ(points.at("strict/s/c1").gate.passed, std::optional<bool>(false));
  EXPECT_EQ(points.at("lenient/s/c1").status, PointStatus::ok) << points.at("lenient/s/c1").reason;
  EXPECT_EQ(points.at("lenient/s/c1").gate.passed, std::optional<bool>(false));
  EXPECT_FALSE(points.at("lenient/s/c1").gate.required);
  EXPECT_EQ(util::json_bool(read_json_file(dir / "out/arms/strict/gate.json"), "passed"), false);
}

TEST(CampaignRun, AServerThatNeverGetsReadyExitsThreeWithItsLogTailAndStillRunsAfter) {
  const auto dir = campaign_temp_dir("not_ready");
  write_text(dir / "c.yaml",
             "name: nr\narms:\n"
             "  - name: stuck\n    engine: sglang\n"
             "    launch: \"sh -c 'echo loading weights {port}; exec sleep 60'\"\n"
             "    ready_timeout_s: 1\n    stop_timeout_s: 1\n"
             "    after: 'echo restored > after.txt'\n"
             "scenarios: [{name: s, isl: 16, osl: 4, concurrency: [1, 2]}]\n");
  const auto r = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("not ready after 1 s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("loading weights"), std::string::npos) << "the log tail is shown: " << r.out;
  EXPECT_EQ(util::read_file(dir / "after.txt").value_or(""), "restored\n");
  const auto points = points_by_id(read_run_ledger(dir / "out"));
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points.at("stuck/s/c2").status, PointStatus::failed);
}

}  // namespace
}  // namespace servebench::e2e
