// Failures around the measurement: a server that dies mid-point (failed point with the reason,
// one relaunch, the next arm still runs) and SIGINT (the point in flight ends unrecorded, the
// server stops, `after` runs, exit 130).
#include <map>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

using results::PointStatus;

bool status_shows(const std::filesystem::path& run_dir, const std::string& text) {
  return util::read_file(run_dir / "status.txt").value_or("").find(text) != std::string::npos;
}

TEST(CampaignFailure, ServerDeathFailsThePointRelaunchesOnceAndTheNextArmStillRuns) {
  const auto dir = campaign_temp_dir("death");
  // Real time: the first point (2 requests of 600 tokens at ~4 ms each) runs long enough to be killed in.
  write_text(dir / "c.yaml", "name: death\n"
                             "protocol: {num_prompts: \"max(2, c)\", warmup_requests: 0, client_lag_limit: 1000}\narms:\n"
                             "  - {name: dies, engine: sim, gate: false, launch: \"" + sim_launch("", 1.0) + "\"}\n"
                             "  - {name: next, engine: sim, gate: false, launch: \"" + sim_launch("", 1.0) + "\"}\n"
                             "scenarios:\n"
                             "  - {name: long, isl: 256, osl: 600, concurrency: [1]}\n"
                             "  - {name: short, isl: 256, osl: 16, concurrency: [1, 2]}\n");
  ChildProcess p = start_in({"campaign", "run", "c.yaml", "--out", "out"}, dir, "death");
  const auto out = dir / "out";
  ASSERT_TRUE(wait_until([&] { return status_shows(out, "current dies/long/c1"); }, std::chrono::seconds(30)));
  ASSERT_TRUE(wait_until([&] { return std::filesystem::exists(out / "requests") || util::read_file(out / "arms/dies/server.log")
                                          .value_or("").find("Decode batch") != std::string::npos; },
                         std::chrono::seconds(10)));
  const auto pid = util::read_file(out / "arms/dies/server.pid");
  ASSERT_TRUE(pid.has_value());
  ASSERT_EQ(kill(std::stoi(*pid), SIGKILL), 0);
  const auto code = p.wait_exit(std::chrono::seconds(60));
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, 1) << p.stdout_text() << p.stderr_text();
  const auto points = points_by_id(read_run_ledger(out));
  ASSERT_EQ(points.size(), 6u) << p.stdout_text();
  const auto& died = points.at("dies/long/c1");
  EXPECT_EQ(died.status, PointStatus::failed);
  EXPECT_NE(died.reason.find("the server died during the point"), std::string::npos) << died.reason;
  EXPECT_NE(died.reason.find("killed by signal 9"), std::string::npos) << died.reason;
  EXPECT_NE(died.reason.find("listening on"), std::string::npos) << "the log tail is in the reason: " << died.reason;
  // Client health on a loaded machine is not under test here (client_lag_limit above); the reason says.
  EXPECT_EQ(points.at("dies/short/c1").status, PointStatus::ok) << "relaunched: " << points.at("dies/short/c1").reason;
  EXPECT_EQ(points.at("dies/short/c2").status, PointStatus::ok) << points.at("dies/short/c2").reason;
  EXPECT_EQ(points.at("next/long/c1").status, PointStatus::ok) << "the next arm runs: " << points.at("next/long/c1").reason;
  EXPECT_NE(p.stdout_text().find("arm dies: relaunching the server"), std::string::npos) << p.stdout_text();
}

TEST(CampaignFailure, SigintEndsThePointInFlightStopsTheServerAndRunsAfter) {
  const auto dir = campaign_temp_dir("sigint");
  write_text(dir / "c.yaml", "name: sigint\nprotocol: {num_prompts: '2'}\narms:\n"
                             "  - name: a\n    engine: sim\n    gate: false\n"
                             "    launch: \"" + sim_launch("", 1.0) + "\"\n"
                             "    before: 'echo before >> hooks.txt'\n"
                             "    after: 'echo after $SERVEBENCH_ARM >> hooks.txt'\n"
                             "scenarios: [{name: s, isl: 256, osl: 4000, concurrency: [1, 2]}]\n");
  ChildProcess p = start_in({"campaign", "run", "c.yaml", "--out", "out"}, dir, "sigint");
  const auto out = dir / "out";
  ASSERT_TRUE(wait_until([&] { return status_shows(out, "current a/s/c1"); }, std::chrono::seconds(30)));
  const auto pid = util::read_file(out / "arms/a/server.pid");
  ASSERT_TRUE(pid.has_value());
  p.signal(SIGINT);
  const auto code = p.wait_exit(std::chrono::seconds(30));
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, 130) << p.stdout_text() << p.stderr_text();
  EXPECT_EQ(util::read_file(dir / "hooks.txt").value_or(""), "before\nafter a\n");
  EXPECT_TRUE(read_run_ledger(out).records.empty()) << "the interrupted point is not recorded";
  EXPECT_NE(kill(std::stoi(*pid), 0), 0) << "the server was stopped";
  EXPECT_TRUE(status_shows(out, "state interrupted by signal 2"));
}

}  // namespace
}  // namespace servebench::e2e
