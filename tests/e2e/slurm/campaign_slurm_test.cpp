// `campaign run --executor slurm` on the single-node test bed (scripts/slurm-testbed start; ctest
// label `slurm`): a 3-arm campaign where one arm cannot start (its job fails, is resubmitted once,
// fails again), one job is killed by scancel (resubmitted, then measured), and the submitter is
// killed with -9 while that resubmission runs — the rerun re-attaches to it instead of submitting a
// third time. The ledger then agrees point by point with the same campaign run locally.
#include <csignal>
#include <cstdlib>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"
#include "servebench/results/job_record.hpp"

namespace servebench::e2e {
namespace {

using results::JobRecord;
using results::PointStatus;

bool testbed_running(std::string& why) {
  const auto dir = campaign_temp_dir("slurm_probe");
  ChildProcess p({"/bin/sh", "-c", "sinfo -h -o %T"}, {dir, dir / "sinfo.out", dir / "sinfo.err"});
  const auto code = p.wait_exit(std::chrono::seconds(20)).value_or(-1);
  const std::string out = util::read_file(dir / "sinfo.out").value_or("");
  if (code == 0 && (out.starts_with("idle") || out.starts_with("mixed") || out.starts_with("alloc"))) return true;
  why = fmt::format("the Slurm test bed is not running (sinfo exit {}: '{}'); start it with scripts/slurm-testbed start",
                    code, util::read_file(dir / "sinfo.err").value_or(out));
  return false;
}

// Real time (--sim-time-scale 1): a scaled simulator's points can be invalid on a loaded machine,
// and the local and Slurm runs must agree. `ok` measures at once; `bad` cannot start its server (an unknown flag, behind a
// shell so the campaign's check of simulated launches before anything runs leaves it to the job); `slow` waits in its
// before hook long enough for the test to scancel its job and later kill the submitter.
std::string three_arm_campaign() {
  return "name: e2e-slurm\n"
         "protocol:\n"
         "  num_prompts: \"max(2, c)\"\n"
         "  warmup_requests: 1\n"
         "  client_lag_limit: 1000\n"
         "arms:\n"
         "  - {name: ok, engine: sim, launch: \"" + sim_launch("", 1.0) + "\", ready_timeout_s: 30, gate: false}\n"
         "  - {name: bad, engine: sim, launch: \"" + sim_launch("--no-such-flag", 1.0) + "; exit 3\", ready_timeout_s: 10, gate: false}\n"
         "  - {name: slow, engine: sim, launch: \"" + sim_launch("--tp-size 2", 1.0) + "\", gpus: 2, ready_timeout_s: 30,\n"
         "     gate: false, before: \"sleep 12\"}\n"
         "scenarios:\n"
         "  - {name: chat, isl: 128, osl: 8, concurrency: [1, 2]}\n";
}

Finished run_tool(const std::string& command, const std::filesystem::path& dir) {
  ChildProcess p({"/bin/sh", "-c", command}, {dir, dir / "tool.out", dir / "tool.err"});
  Finished f;
  f.exit_code = p.wait_exit(std::chrono::seconds(30)).value_or(-1);
  f.out = util::read_file(dir / "tool.out").value_or("");
  f.err = util::read_file(dir / "tool.err").value_or("");
  return f;
}

std::vector<JobRecord> jobs_of(const std::filesystem::path& run) {
  auto ledger = results::read_ledger(run / "ledger.jsonl");
  return ledger ? results::latest_jobs(*ledger) : std::vector<JobRecord>{};
}

std::optional<JobRecord> job(const std::filesystem::path& run, const std::string& arm, int attempt) {
  for (const auto& j : jobs_of(run)) {
    if (j.arm == arm && j.attempt == attempt) return j;
  }
  return std::nullopt;
}

std::map<std::string, PointStatus> statuses(const results::Ledger& ledger) {
  std::map<std::string, PointStatus> out;
  for (const auto& r : ledger.latest()) out[results::point_id(results::key_of(r))] = r.status;
  return out;
}

TEST(CampaignSlurm, ThreeArmsFailCancelReattachAndAgreeWithALocalRun) {
  std::string why;
  if (!testbed_running(why)) {
    // CI starts the test bed and sets SERVEBENCH_REQUIRE_SLURM=1: there a missing cluster is a failure.
    const char* required = std::getenv("SERVEBENCH_REQUIRE_SLURM");
    if (required != nullptr && std::string(required) == "1") FAIL() << why;
    GTEST_SKIP() << why;
  }
  const auto dir = campaign_temp_dir("slurm_three_arms");
  write_text(dir / "c.yaml", three_arm_campaign());

  const auto local = run_servebench({"campaign", "run", "c.yaml", "--out", "local", "--no-progress"}, dir,
                                    std::chrono::seconds(120), "local");
  EXPECT_EQ(local.exit_code, 3) << "an arm that cannot start: " << local.out << local.err;

  const std::vector<std::string> slurm_args{"campaign", "run", "c.yaml", "--out", "slurm", "--no-progress",
                                            "--executor", "slurm", "--max-parallel-arms", "3", "--poll-ms", "200",
                                            "--no-gpu-request", "--job-timeout-s", "120"};
  const auto run = dir / "slurm";
  {
    auto submitter = start_in(slurm_args, dir, "submitter1");
    // scancel the slow arm's first job while it runs (its before hook sleeps: 12 s, so a submitter
    // whose polls are slowed by a loaded machine still sees the job RUNNING).
    ASSERT_TRUE(wait_until([&] { auto j = job(run, "slow", 1); return j && j->state == "RUNNING"; },
                           std::chrono::seconds(60), std::chrono::milliseconds(100)))
        << util::read_file(dir / "submitter1.out").value_or("");
    const auto first = job(run, "slow", 1);
    const auto cancelled = run_tool("scancel " + first->job_id, dir);
    ASSERT_EQ(cancelled.exit_code, 0) << cancelled.err;
    // Its resubmission runs; kill the submitter hard while it does.
    ASSERT_TRUE(wait_until([&] { auto j = job(run, "slow", 2); return j && j->state == "RUNNING"; },
                           std::chrono::seconds(60), std::chrono::milliseconds(100)))
        << util::read_file(dir / "submitter1.out").value_or("");
    submitter.signal(SIGKILL);
    (void)submitter.wait_exit(std::chrono::seconds(10));
  }
  // Whether `bad` had used its resubmission and seen it end before the kill: then the rerun retries
  // its failed points in one more job (attempt 3, never resubmitted); else it re-attaches to job 2.
  const auto bad2_at_kill = job(run, "bad", 2);
  const bool bad_done_at_kill = bad2_at_kill && results::job_state_final(bad2_at_kill->state);
  const auto slow2 = job(run, "slow", 2);
  ASSERT_TRUE(slow2);
  const auto rerun = run_servebench(slurm_args, dir, std::chrono::seconds(180), "submitter2");
  EXPECT_EQ(rerun.exit_code, 3) << rerun.out << rerun.err;
  EXPECT_NE(rerun.out.find("arm slow: re-attaching to slurm job " + slow2->job_id), std::string::npos) << rerun.out;

  // Jobs: slow cancelled once then completed by the re-attached job, never a third submission;
  // bad failed twice (the one resubmission), and once more only as the rerun's retry; ok completed once.
  const auto s1 = job(run, "slow", 1), s2 = job(run, "slow", 2);
  ASSERT_TRUE(s1 && s2);
  EXPECT_TRUE(s1->state.starts_with("CANCELLED")) << s1->state;
  EXPECT_EQ(s2->state, "COMPLETED");
  EXPECT_EQ(s2->job_id, slow2->job_id);
  EXPECT_FALSE(job(run, "slow", 3)) << "re-attached, not resubmitted";
  const auto b1 = job(run, "bad", 1), b2 = job(run, "bad", 2);
  ASSERT_TRUE(b1 && b2);
  EXPECT_EQ(b1->state, "FAILED");
  EXPECT_EQ(b2->state, "FAILED");
  if (bad_done_at_kill) {
    const auto b3 = job(run, "bad", 3);
    ASSERT_TRUE(b3) << "the rerun retries the failed points";
    EXPECT_EQ(b3->state, "FAILED");
    EXPECT_EQ(b3->reason, "") << "a retry, not a resubmission";
    EXPECT_FALSE(job(run, "bad", 4)) << "the one resubmission is not renewed by a rerun";
  } else {
    EXPECT_FALSE(job(run, "bad", 3)) << "re-attached to job 2";
  }
  const auto o1 = job(run, "ok", 1);
  ASSERT_TRUE(o1);
  EXPECT_EQ(o1->state, "COMPLETED");
  EXPECT_FALSE(job(run, "ok", 2));

  // The same points with the same status as the local run.
  const auto local_points = statuses(read_run_ledger(dir / "local"));
  const auto slurm_points = statuses(read_run_ledger(run));
  EXPECT_EQ(slurm_points, local_points);
  ASSERT_EQ(slurm_points.size(), 6u);
  EXPECT_EQ(slurm_points.at("ok/chat/c2"), PointStatus::ok);
  EXPECT_EQ(slurm_points.at("bad/chat/c1"), PointStatus::failed);
  EXPECT_EQ(slurm_points.at("slow/chat/c1"), PointStatus::ok);
  EXPECT_TRUE(std::filesystem::exists(run / "arms" / "slow" / "server_facts.json")) << "the job's arm files are merged";
  EXPECT_TRUE(std::filesystem::exists(run / "requests" / "ok" / "chat" / "c2.jsonl"));

  const auto status = run_servebench({"campaign", "status", "slurm"}, dir);
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find("jobs:"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("slurm job " + slow2->job_id), std::string::npos) << status.out;
}

}  // namespace
}  // namespace servebench::e2e
