#include "support/temp_dir.hpp"
#include "servebench/results/run_merge.hpp"

#include <filesystem>
#include <unistd.h>

#include <gtest/gtest.h>

#include "servebench/results/ledger.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/util/file_io.hpp"

using namespace servebench::results;
namespace fs = std::filesystem;

namespace {
PointRecord point(const std::string& arm, std::int64_t c, const std::string& started, double out_tps,
                  PointStatus s = PointStatus::ok, const std::string& campaign = "demo") {
  PointRecord r;
  r.campaign = campaign;
  r.arm = arm;
  r.scenario = "chat";
  r.concurrency = c;
  r.status = s;
  r.started_at = started;
  r.throughput.output_tok_per_s = out_tps;
  return r;
}

using servebench::testing::fresh_dir;

void write_run(const fs::path& dir, const std::vector<PointRecord>& records) {
  fs::create_directories(dir);
  const RunLayout run(dir);
  for (const auto& r : records) ASSERT_TRUE(append_point(run.ledger(), r));
}
}  // namespace

TEST(RunMerge, LaterMeasurementWinsAndIsReported) {
  const std::vector<std::string> sources{"jobs/a-1", "jobs/a-2"};
  const auto merged = merge_points(sources, {{point("a", 1, "2026-12-01T10:00:00Z", 10), point("a", 8, "2026-12-01T10:05:00Z", 80)},
                                             {point("a", 1, "2026-12-01T11:00:00Z", 11), point("b", 1, "2026-12-01T11:01:00Z", 5)}});
  ASSERT_EQ(merged.records.size(), 3u);
  EXPECT_EQ(merged.summary.points, 3u);
  EXPECT_EQ(merged.records[0].throughput.output_tok_per_s, 11);  // the later a/chat/c1
  EXPECT_EQ(merged.origin[0], 1u);
  EXPECT_EQ(merged.records[1].throughput.output_tok_per_s, 80);
  ASSERT_EQ(merged.summary.superseded.size(), 1u);
  const auto& s = merged.summary.superseded[0];
  EXPECT_EQ(s.point, "a/chat/c1");
  EXPECT_EQ(s.kept.source, "jobs/a-2");
  ASSERT_EQ(s.dropped.size(), 1u);
  EXPECT_EQ(s.dropped[0].source, "jobs/a-1");
  EXPECT_EQ(s.dropped[0].started_at, "2026-12-01T10:00:00Z");
}

TEST(RunMerge, AnEarlierMeasurementNamedLaterDoesNotReplaceTheLaterOne) {
  const auto merged = merge_points({"x", "y"}, {{point("a", 1, "2026-12-01T12:00:00Z", 12)},
                                                {point("a", 1, "2026-12-01T09:00:00Z", 9, PointStatus::failed)}});
  ASSERT_EQ(merged.records.size(), 1u);
  EXPECT_EQ(merged.records[0].throughput.output_tok_per_s, 12);
  ASSERT_EQ(merged.summary.superseded.size(), 1u);
  EXPECT_EQ(merged.summary.superseded[0].kept.source, "x");
  EXPECT_EQ(merged.summary.superseded[0].dropped[0].status, PointStatus::failed);
}

TEST(RunMerge, DirectoriesMergeIntoOneLedgerWithArmsRequestsAndMergeFile) {
  const auto root = fresh_dir("sb_merge", "dirs");
  write_run(root / "j1", {point("a", 1, "2026-12-01T10:00:00Z", 10), point("a", 8, "2026-12-01T10:01:00Z", 80)});
  write_run(root / "j2", {point("a", 1, "2026-12-01T11:00:00Z", 11), point("b", 1, "2026-12-01T11:02:00Z", 5)});
  fs::create_directories(RunLayout(root / "j1").arm_dir("a"));
  fs::create_directories(RunLayout(root / "j2").arm_dir("a"));
  fs::create_directories(RunLayout(root / "j1").requests("a", "chat", 8).parent_path());
  ASSERT_TRUE(servebench::util::write_file_atomic(RunLayout(root / "j1").server_facts("a"), "{\"from\":\"j1\"}"));
  ASSERT_TRUE(servebench::util::write_file_atomic(RunLayout(root / "j2").server_facts("a"), "{\"from\":\"j2\"}"));
  ASSERT_TRUE(servebench::util::write_file_atomic(RunLayout(root / "j1").requests("a", "chat", 8), "{}\n"));
  ASSERT_TRUE(servebench::util::write_file_atomic(RunLayout(root / "j1").campaign_file(), "name: demo\n"));
  const auto out = root / "merged";
  auto summary = merge_run_dirs(out, {root / "j1", root / "j2"});
  ASSERT_TRUE(summary) << summary.error().message;
  EXPECT_EQ(summary->points, 3u);
  auto ledger = read_ledger(RunLayout(out).ledger());
  ASSERT_TRUE(ledger);
  ASSERT_EQ(ledger->records.size(), 3u);  // one record per point: nothing counted twice
  EXPECT_EQ(ledger->records[0].throughput.output_tok_per_s, 11);
  // Arm a's last kept point (a/chat/c1) came from j2, so its facts do too.
  EXPECT_EQ(servebench::util::read_file(RunLayout(out).server_facts("a")).value_or(""), "{\"from\":\"j2\"}");
  EXPECT_TRUE(fs::exists(RunLayout(out).requests("a", "chat", 8)));
  EXPECT_TRUE(fs::exists(RunLayout(out).campaign_file()));
  auto back = read_merge_summary(out);
  ASSERT_TRUE(back && back->has_value());
  EXPECT_EQ((*back)->sources.size(), 2u);
  ASSERT_EQ((*back)->superseded.size(), 1u);
  EXPECT_EQ((*back)->superseded[0].point, "a/chat/c1");
  EXPECT_EQ((*back)->superseded[0].kept.started_at, "2026-12-01T11:00:00Z");
  // Merging again into the same output replaces the earlier merge.
  EXPECT_TRUE(merge_run_dirs(out, {root / "j2", root / "j1"}));
}

TEST(RunMerge, RefusesMixedCampaignsMissingLedgersAndOverwritingARun) {
  const auto root = fresh_dir("sb_merge", "refuse");
  write_run(root / "x", {point("a", 1, "2026-12-01T10:00:00Z", 1)});
  write_run(root / "y", {point("a", 1, "2026-12-01T10:00:00Z", 1, PointStatus::ok, "other")});
  auto mixed = merge_run_dirs(root / "m", {root / "x", root / "y"});
  ASSERT_FALSE(mixed);
  EXPECT_NE(mixed.error().message.find("other"), std::string::npos);
  auto missing = merge_run_dirs(root / "m", {root / "x", root / "nothing"});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no ledger"), std::string::npos);
  auto onto_run = merge_run_dirs(root / "x", {root / "y"});
  ASSERT_FALSE(onto_run);
  auto self = merge_run_dirs(root / "x", {root / "x"});
  ASSERT_FALSE(self);
  EXPECT_NE(self.error().message.find("cannot also be a source"), std::string::npos);
}
