// A disaggregated arm's parts after a kill -9 of the campaign: a part a shell started survives (it
// gets no parent-death signal); the resume reads its server-<part>.pid, stops it before launching
// the arm again, and finishes the points.
#include <signal.h>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

TEST(CampaignPdOrphans, KillNineAndResumeStopsTheSurvivingPartBeforeRelaunching) {
  const auto dir = campaign_temp_dir("pd_orphans");
  const auto out = dir / "out";
  const std::string sim = "servebench serve-sim --hw h200 --model llama-3.1-8b --sim-time-scale 1 --log-level warning";
  // `; echo` keeps the shell from exec'ing the decode part: the part is the shell's child.
  write_text(dir / "c.yaml", "name: pd-orphans\n"
                             "protocol: {num_prompts: \"4\", warmup_requests: 1, client_lag_limit: 1000}\n"
                             "arms:\n"
                             "  - name: a\n"
                             "    engine: sim\n"
                             "    gate: false\n"
                             "    stop_timeout_s: 5\n"
                             "    prefill: \"" + sim + " --disaggregation-mode prefill --port {port}\"\n"
                             "    decode: \"cd " + dir.string() + " && " + sim +
                                 " --disaggregation-mode decode --port {port}; echo decode exited\"\n"
                             "    router: \"servebench serve-sim --router --prefill {prefill_url} --decode {decode_url} "
                             "--port {port}\"\n"
                             "scenarios:\n"
                             "  - {name: s, isl: 64, osl: 300, concurrency: [1, 2]}\n");
  pid_t survivor = 0, shell = 0;
  {
    ChildProcess first = start_in({"campaign", "run", "c.yaml", "--out", "out"}, dir, "first");
    ASSERT_TRUE(wait_until([&] {
      return util::read_file(out / "status.txt").value_or("").find("current a/s/c1") != std::string::npos;
    }, std::chrono::seconds(60))) << first.stdout_text() << first.stderr_text();
    const auto record = campaign::parse_pid_record(util::read_file(out / "arms/a/server-decode.pid").value_or(""));
    ASSERT_TRUE(record.has_value());
    shell = record->pid;
    for (const auto& m : campaign::live_group_members(record->pid)) {
      if (m.pid != record->pid) survivor = m.pid;
    }
    ASSERT_NE(survivor, 0) << "the shell exec'd the decode part: nothing to orphan";
    first.signal(SIGKILL);
    ASSERT_TRUE(first.wait_exit(std::chrono::seconds(10)).has_value());
  }
  // The shell got its parent-death signal; the decode part did not.
  ASSERT_TRUE(wait_until([&] { return !process_alive(shell); }, std::chrono::seconds(10)));
  ASSERT_TRUE(process_alive(survivor)) << "the decode part did not survive the kill -9: the test proves nothing";
  const auto resume = run_servebench({"campaign", "run", "c.yaml", "--out", "out", "--no-progress"}, dir);
  ASSERT_EQ(resume.exit_code, 0) << resume.out << resume.err;
  const auto stopped = resume.out.find("stopped the server an earlier run left behind");
  ASSERT_NE(stopped, std::string::npos) << resume.out;
  EXPECT_LT(stopped, resume.out.find("arm a: launching")) << resume.out;
  EXPECT_FALSE(process_alive(survivor));
  for (const auto& r : read_run_ledger(out).latest()) EXPECT_EQ(r.status, results::PointStatus::ok) << r.reason;
}

}  // namespace
}  // namespace servebench::e2e
