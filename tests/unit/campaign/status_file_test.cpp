#include "servebench/campaign/status_file.hpp"

#include <gtest/gtest.h>

#include "servebench/results/ledger.hpp"
#include "servebench/util/file_io.hpp"

namespace servebench::campaign {
namespace {

CampaignSpec spec() {
  auto s = parse_campaign("name: st\narms: [{name: a, engine: sim, base_url: 'http://x:1'}, {name: b, engine: sim, base_url: 'http://x:2'}]\n"
                          "scenarios: [{name: s, isl: 10, osl: 10, concurrency: [1, 2]}]\n",
                          "st.yaml", "/");
  EXPECT_TRUE(s);
  return *s;
}

results::PointRecord record(const std::string& arm, std::int64_t c, results::PointStatus status, std::string reason = "") {
  results::PointRecord r;
  r.campaign = "st";
  r.arm = arm;
  r.scenario = "s";
  r.concurrency = c;
  r.status = status;
  r.reason = std::move(reason);
  return r;
}

TEST(StatusFile, ProgressCountsTheLastRecordOfPlannedPointsOnly) {
  const auto s = spec();
  const auto planned = expand(s);
  const std::vector<results::PointRecord> latest = {record("a", 1, results::PointStatus::ok),
                                                    record("a", 2, results::PointStatus::invalid),
                                                    record("b", 1, results::PointStatus::skipped),
                                                    record("z", 1, results::PointStatus::failed)};
  const Progress p = progress_of(s, planned, latest);
  EXPECT_EQ(p.total, 4u);
  EXPECT_EQ(p.ok, 1u);
  EXPECT_EQ(p.invalid, 1u);
  EXPECT_EQ(p.skipped, 1u);
  EXPECT_EQ(p.failed, 0u) << "z is not planned";
  EXPECT_EQ(p.done(), 3u);
}

TEST(StatusFile, EtaAndDurations) {
  EXPECT_FALSE(estimate_eta(std::chrono::seconds(10), 0, 5).has_value());
  EXPECT_EQ(estimate_eta(std::chrono::seconds(10), 2, 3), std::chrono::seconds(15));
  EXPECT_EQ(format_duration(std::chrono::seconds(12)), "12s");
  EXPECT_EQ(format_duration(std::chrono::seconds(245)), "4m05s");
  EXPECT_EQ(format_duration(std::chrono::seconds(3720)), "1h02m");
}

TEST(StatusFile, TextIsWholeAndAtomic) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("campaign_status_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  StatusView v;
  v.campaign = "st";
  v.run_dir = dir.string();
  v.state = "running";
  v.progress = {4, 1, 0, 0, 0};
  v.to_run = 3;
  v.current = "a/s/c2";
  v.eta = std::chrono::seconds(90);
  v.updated = util::WallTime{std::chrono::seconds(0)};
  ASSERT_TRUE(write_status(dir, v));
  const auto text = util::read_file(dir / "status.txt").value_or("");
  EXPECT_NE(text.find("points 1/4 with a final record (ok 1, skipped 0, invalid 0, failed 0)"), std::string::npos) << text;
  EXPECT_NE(text.find("current a/s/c2\n"), std::string::npos);
  EXPECT_NE(text.find("eta 1m30s\n"), std::string::npos);
  EXPECT_NE(text.find("updated 1970-01-01T00:00:00Z"), std::string::npos);
}

TEST(StatusFile, TerminalStatesAreDoneFailedOrInterruptedWithTheReason) {
  Progress p;
  p.total = 6;
  p.ok = 3;
  p.failed = 1;
  p.invalid = 1;
  EXPECT_EQ(terminal_state(0, 0, p, false), "done");
  EXPECT_EQ(terminal_state(1, 0, p, false), "failed: 1 failed, 1 invalid, 1 not run");
  EXPECT_EQ(terminal_state(3, 0, p, true), "failed: a server did not start, 1 failed, 1 invalid, 1 not run");
  EXPECT_EQ(terminal_state(130, 2, p, false), "interrupted by signal 2");
}

TEST(StatusFile, ReportReadsTheRunDirectory) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("campaign_status_report_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(util::write_file_atomic(dir / "campaign.yaml", resolved_yaml(spec())));
  ASSERT_TRUE(results::append_point(dir / "ledger.jsonl", record("a", 1, results::PointStatus::ok)));
  ASSERT_TRUE(results::append_point(dir / "ledger.jsonl", record("a", 2, results::PointStatus::invalid, "cache hit rate 0.5 > 0.01")));
  auto report = status_report(dir);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_NE(report->find("(no status.txt yet)"), std::string::npos);
  EXPECT_NE(report->find("a                        ok 1, skipped 0, invalid 1, failed 0, not run 0 (of 2)"), std::string::npos)
      << *report;
  EXPECT_NE(report->find("b                        ok 0, skipped 0, invalid 0, failed 0, not run 2 (of 2)"), std::string::npos);
  EXPECT_NE(report->find("a/s/c2"), std::string::npos);
  EXPECT_NE(report->find("cache hit rate 0.5 > 0.01"), std::string::npos);
  EXPECT_EQ(status_report("/nonexistent").error().kind, util::ErrorKind::bad_input);
}

}  // namespace
}  // namespace servebench::campaign
