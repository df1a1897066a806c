#include "support/temp_dir.hpp"
#include "servebench/campaign/runner.hpp"

#include <atomic>

#include <gtest/gtest.h>

#include "servebench/campaign/launch_plan.hpp"
#include "servebench/campaign/stop_signal.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "support/ephemeral_sim.hpp"

namespace servebench::campaign {
namespace {

using servebench::testing::fresh_dir;

// Client health on a loaded machine is not what these tests check (client_lag_limit: 1000).
CampaignSpec spec_with_arm(const std::string& arm) {
  auto s = parse_campaign("name: r\nprotocol: {client_lag_limit: 1000}\narms:\n  - " + arm +
                              "\nscenarios: [{name: s, isl: 10, osl: 4, concurrency: [1, 2]}]\n",
                          "r.yaml", "/");
  EXPECT_TRUE(s) << s.error().message;
  return *s;
}

RunOptions options(const std::filesystem::path& out, std::FILE* console) {
  RunOptions o;
  o.out = out;
  o.tool = {"0.0.0", "test"};
  o.console = console;
  return o;
}

results::PointRecord record(std::int64_t c, results::PointStatus status) {
  results::PointRecord r;
  r.campaign = "r";
  r.arm = "a";
  r.scenario = "s";
  r.concurrency = c;
  r.status = status;
  return r;
}

// A steady clock that moves one second every time it is read, and a wall clock stopped in 2030.
class SteppingClock final : public util::Clock {
 public:
  util::TimePoint now() const noexcept override { return util::TimePoint{std::chrono::seconds(m_reads.fetch_add(1) + 1)}; }
  long reads() const { return m_reads.load(); }

 private:
  mutable std::atomic<long> m_reads{0};
};
class StoppedWall final : public util::WallClock {
 public:
  util::WallTime now() const noexcept override {
    m_reads.fetch_add(1);
    return util::WallTime{std::chrono::seconds(1893553445)};  // 2030-01-02T03:04:05Z
  }
  long reads() const { return m_reads.load(); }

 private:
  mutable std::atomic<long> m_reads{0};
};

TEST(Runner, CampaignTimeComesOnlyFromTheInjectedClocks) {
  StopSignal::install().reset_for_tests();
  const auto dir = fresh_dir("campaign_runner", "fake_clock");
  testing::EphemeralSim sim;
  const auto spec = spec_with_arm("{name: a, engine: sim, base_url: '" + sim.base_url() + "', gate: false}");
  SteppingClock steady;
  StoppedWall wall;
  RunOptions o = options(dir / "out", std::tmpfile());
  o.clock = {&steady, &wall};
  auto code = run_campaign(spec, o);
  ASSERT_TRUE(code) << code.error().message;
  EXPECT_EQ(*code, 0);
  const auto ledger = results::read_ledger(dir / "out/ledger.jsonl");
  ASSERT_EQ(ledger->records.size(), 2u);
  for (const auto& r : ledger->records) {
    EXPECT_EQ(r.status, results::PointStatus::ok) << r.reason;
    EXPECT_EQ(r.started_at, "2030-01-02T03:04:05Z");
  }
  const auto facts = util::parse_json(util::read_file(dir / "out/arms/a/server_facts.json").value_or(""), "facts");
  ASSERT_TRUE(facts);
  EXPECT_EQ(util::json_string(facts->as_object(), "captured_at"), "2030-01-02T03:04:05Z");
  EXPECT_NE(util::read_file(dir / "out/status.txt").value_or("").find("2030-01-02T03:04:05Z"), std::string::npos);
  // Readiness, flush deadlines, protocol overhead and the ETA read the steady clock.
  EXPECT_GT(steady.reads(), 6);
  EXPECT_GT(wall.reads(), 3);
  std::fclose(o.console);
}

TEST(Runner, AnUnreachableArmFailsItsPointsExitsThreeAndRunsAfter) {
  StopSignal::install().reset_for_tests();
  const auto dir = fresh_dir("campaign_runner", "unreachable");
  const auto port = *pick_free_port();
  const auto spec = spec_with_arm("{name: a, engine: sim, base_url: 'http://127.0.0.1:" + std::to_string(port) +
                                  "', ready_timeout_s: 1, after: 'touch \"" + (dir / "after-ran").string() + "\"'}");
  std::FILE* console = std::tmpfile();
  auto code = run_campaign(spec, options(dir / "out", console));
  ASSERT_TRUE(code) << code.error().message;
  EXPECT_EQ(*code, 3);
  EXPECT_TRUE(std::filesystem::exists(dir / "after-ran"));
  const auto ledger = results::read_ledger(dir / "out/ledger.jsonl");
  ASSERT_EQ(ledger->records.size(), 2u);
  for (const auto& r : ledger->records) {
    EXPECT_EQ(r.status, results::PointStatus::failed);
    EXPECT_NE(r.reason.find("not ready after 1 s"), std::string::npos) << r.reason;
    EXPECT_EQ(r.tool.git, "test");
  }
  EXPECT_NE(util::read_file(dir / "out/status.txt").value_or("").find("state failed: "), std::string::npos);
  std::fclose(console);
}

TEST(Runner, ARunThatStopsOnAnErrorLeavesAFailedStateWithTheReason) {
  StopSignal::install().reset_for_tests();
  const auto dir = fresh_dir("campaign_runner", "error_state");
  const auto spec = spec_with_arm("{name: a, engine: sim, launch: 'no-such-server-program --port {port}'}");
  std::FILE* console = std::tmpfile();
  auto code = run_campaign(spec, options(dir / "out", console));
  ASSERT_FALSE(code);
  const std::string status = util::read_file(dir / "out/status.txt").value_or("");
  EXPECT_NE(status.find("state failed: "), std::string::npos) << status;
  EXPECT_NE(status.find("no-such-server-program"), std::string::npos) << status;
  EXPECT_EQ(status.find("state running"), std::string::npos) << status;
  std::fclose(console);
}

TEST(Runner, AMissingCorpusStopsTheRunBeforeAnythingStarts) {
  StopSignal::install().reset_for_tests();
  const auto dir = fresh_dir("campaign_runner", "no_corpus");
  auto spec = parse_campaign("name: r\nprotocol: {prompts: {source: corpus, path: missing.txt}}\narms:\n"
                             "  - {name: a, engine: sim, before: 'touch \"" + (dir / "before-ran").string() + "\"',"
                             " launch: 'servebench serve-sim --port {port}'}\n"
                             "scenarios: [{name: s, isl: 10, osl: 4, concurrency: [1]}]\n",
                             "r.yaml", dir);
  ASSERT_TRUE(spec) << spec.error().message;
  std::FILE* console = std::tmpfile();
  auto code = run_campaign(*spec, options(dir / "out", console));
  ASSERT_FALSE(code);
  EXPECT_EQ(code.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(code.error().message.find("protocol.prompts.path"), std::string::npos) << code.error().message;
  EXPECT_NE(code.error().message.find("no such file"), std::string::npos) << code.error().message;
  EXPECT_FALSE(std::filesystem::exists(dir / "before-ran"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  std::fclose(console);
}

TEST(Runner, SettledPointsAreNotRunAgainAndInvalidOnlyOnRequest) {
  StopSignal::install().reset_for_tests();
  const auto dir = fresh_dir("campaign_runner", "settled");
  // Launching this arm would fail: a run that launches it records failed points.
  const auto spec = spec_with_arm("{name: a, engine: sim, launch: '/bin/false {port}', ready_timeout_s: 1}");
  std::filesystem::create_directories(dir / "out");
  ASSERT_TRUE(results::append_point(dir / "out/ledger.jsonl", record(1, results::PointStatus::ok)));
  ASSERT_TRUE(results::append_point(dir / "out/ledger.jsonl", record(2, results::PointStatus::invalid)));
  std::FILE* console = std::tmpfile();
  auto code = run_campaign(spec, options(dir / "out", console));
  ASSERT_TRUE(code);
  EXPECT_EQ(*code, 1) << "an invalid point remains";
  EXPECT_EQ(results::read_ledger(dir / "out/ledger.jsonl")->records.size(), 2u) << "nothing ran";

  auto rerun = options(dir / "out", console);
  rerun.rerun_invalid = true;
  code = run_campaign(spec, rerun);
  ASSERT_TRUE(code);
  EXPECT_EQ(*code, 3);
  const auto ledger = results::read_ledger(dir / "out/ledger.jsonl");
  ASSERT_EQ(ledger->records.size(), 3u) << "only the invalid point was tried again";
  EXPECT_EQ(ledger->records.back().concurrency, 2);
  EXPECT_EQ(ledger->records.back().status, results::PointStatus::failed);
  std::fclose(console);
}

TEST(Runner, DefaultOutDirIsNamedAfterTheCampaignAndTime) {
  const auto spec = spec_with_arm("{name: a, engine: sim, base_url: 'http://x:1'}");
  const util::WallTime t{std::chrono::seconds(1795971600)};
  EXPECT_EQ(default_out_dir(spec, t), std::filesystem::path("runs/r-" + [&] {
              std::string s = util::format_utc(t);
              std::erase_if(s, [](char c) { return c == '-' || c == ':' || c == 'Z'; });
              std::replace(s.begin(), s.end(), 'T', '-');
              return s;
            }()));
  EXPECT_EQ(default_out_dir(spec, util::WallTime{}), std::filesystem::path("runs/r-19700101-000000"));
}

}  // namespace
}  // namespace servebench::campaign

namespace servebench::campaign {
namespace {

TEST(Runner, ATornLastLedgerLineIsReportedAndCompletedPointsStaySettled) {
  StopSignal::install().reset_for_tests();
  const auto dir = fresh_dir("campaign_runner", "torn");
  const auto spec = spec_with_arm("{name: a, engine: sim, launch: '/bin/false {port}', ready_timeout_s: 1}");
  std::filesystem::create_directories(dir / "out");
  ASSERT_TRUE(results::append_point(dir / "out/ledger.jsonl", record(1, results::PointStatus::ok)));
  ASSERT_TRUE(results::append_point(dir / "out/ledger.jsonl", record(2, results::PointStatus::skipped)));
  ASSERT_TRUE(util::append_durable(dir / "out/ledger.jsonl", R"({"schema":"servebench.point/1","campaign":"r","ar)"));
  const auto console_path = dir / "console.txt";
  std::FILE* console = std::fopen(console_path.c_str(), "w");
  auto code = run_campaign(spec, options(dir / "out", console));
  std::fclose(console);
  ASSERT_TRUE(code) << code.error().message;
  EXPECT_EQ(*code, 0) << "both points are settled; the arm is not launched";
  const auto text = util::read_file(console_path).value_or("");
  EXPECT_NE(text.find("warning:"), std::string::npos) << text;
  EXPECT_NE(text.find("2 already settled, 0 to run"), std::string::npos) << text;
}

}  // namespace
}  // namespace servebench::campaign
