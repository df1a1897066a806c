// `servebench campaign merge` end to end: two runs of one campaign on serve-sim (as two cluster
// jobs would write them) joined into one directory, each point once, and the report of the merge
// saying which point was measured twice and which measurement it shows.
#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

// Real time (--sim-time-scale 1), so no point is invalid on a loaded machine.
std::string merge_campaign() {
  return "name: e2e-merge\n"
         "protocol:\n"
         "  num_prompts: \"max(2, c)\"\n"
         "  warmup_requests: 1\n"
         "  client_lag_limit: 1000\n"
         "arms:\n"
         "  - {name: a, engine: sim, launch: \"" + sim_launch("", 1.0) + "\", ready_timeout_s: 30, gate: false}\n"
         "  - {name: b, engine: sim, launch: \"" + sim_launch("--tp-size 2", 1.0) + "\", gpus: 2, ready_timeout_s: 30, gate: false}\n"
         "scenarios:\n"
         "  - {name: chat, isl: 256, osl: 16, concurrency: [1, 2]}\n";
}

TEST(CampaignMerge, TwoJobDirectoriesMergeWithoutDoubleCountingAndTheReportSaysSo) {
  const auto dir = campaign_temp_dir("merge");
  write_text(dir / "c.yaml", merge_campaign());
  // Job 1 measures arm a; job 2 measures arm b and, later, a/chat/c1 again.
  const auto j1 = run_servebench({"campaign", "run", "c.yaml", "--out", "j1", "--only", "arm=a", "--no-progress"}, dir);
  ASSERT_EQ(j1.exit_code, 0) << j1.out << j1.err;
  const auto j2 = run_servebench({"campaign", "run", "c.yaml", "--out", "j2", "--only", "arm=b", "--no-progress"}, dir);
  ASSERT_EQ(j2.exit_code, 0) << j2.out << j2.err;
  const auto again = run_servebench({"campaign", "run", "c.yaml", "--out", "j2", "--only", "arm=a,c=1", "--no-progress"}, dir);
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;

  const auto merged = run_servebench({"campaign", "merge", "all", "j1", "j2"}, dir);
  ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  EXPECT_NE(merged.out.find("4 points"), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find("a/chat/c1 measured twice: kept j2"), std::string::npos) << merged.out;

  const auto ledger = read_run_ledger(dir / "all");
  ASSERT_EQ(ledger.records.size(), 4u) << "each point once";
  const auto j2_ledger = read_run_ledger(dir / "j2");
  const results::PointRecord* later = nullptr;
  for (const auto& r : j2_ledger.records) {
    if (r.arm == "a") later = &r;
  }
  ASSERT_NE(later, nullptr);
  for (const auto& r : ledger.records) {
    EXPECT_EQ(r.status, results::PointStatus::ok) << results::point_id(results::key_of(r));
    if (r.arm == "a" && r.concurrency == 1) {
      EXPECT_EQ(r.started_at, later->started_at) << "the later measurement is kept";
    }
  }
  EXPECT_TRUE(std::filesystem::exists(dir / "all" / "arms" / "b" / "server_facts.json"));
  EXPECT_TRUE(std::filesystem::exists(dir / "all" / "requests" / "a" / "chat" / "c2.jsonl"));

  const auto report = run_servebench({"report", "all"}, dir);
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  const auto md = util::read_file(dir / "all" / "report.md");
  ASSERT_TRUE(md.has_value());
  EXPECT_NE(md->find("merges 2 run directories (j1, j2) into 4 points"), std::string::npos) << *md;
  EXPECT_NE(md->find("1 point was measured by more than one job, the later measurement kept: a/chat/c1 (shown: j2"),
            std::string::npos)
      << *md;
  EXPECT_NE(md->find("4 points: 4 ok"), std::string::npos) << "the report counts each point once";

  const auto bad = run_servebench({"campaign", "merge", "x", "j1", "nowhere"}, dir);
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("nowhere: not a run directory"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace servebench::e2e
