#include "servebench/cluster/slurm_job.hpp"

#include <gtest/gtest.h>

namespace servebench::cluster {
namespace {

TEST(SlurmJob, BatchScriptAsksForTheArmsNodesAndGpusAndRunsTheArmUnderSrun) {
  SlurmJobSpec job;
  job.campaign = "demo";
  job.arm = "tp2pp4";
  job.attempt = 2;
  job.nodes = 2;
  job.gpus_per_node = 4;
  job.self_exe = "/opt/sb/servebench";
  job.campaign_file = "/shared/runs/demo/campaign.yaml";
  job.job_dir = "/shared/runs/demo/jobs/tp2pp4-2";
  job.log = "/shared/runs/demo/jobs/tp2pp4-2.log";
  job.sbatch_args = {"--partition=gpu"};
  const std::string s = render_sbatch(job);
  EXPECT_TRUE(s.starts_with("#!/bin/bash\n"));
  EXPECT_NE(s.find("#SBATCH --job-name=servebench-demo-tp2pp4\n"), std::string::npos) << s;
  EXPECT_NE(s.find("#SBATCH --nodes=2\n"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --gres=gpu:4\n"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --output=/shared/runs/demo/jobs/tp2pp4-2.log\n"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --partition=gpu\n"), std::string::npos);
  EXPECT_NE(s.find("exec '/opt/sb/servebench' campaign run '/shared/runs/demo/campaign.yaml' --out "
                   "'/shared/runs/demo/jobs/tp2pp4-2' --only 'arm=tp2pp4' --no-progress --node-flags --launch-wrapper "
                   "'srun --nodes=2 --ntasks=2 --ntasks-per-node=1 --overlap --kill-on-bad-exit=1'\n"),
            std::string::npos)
      << s;
  // Two nodes: rank 0's address for every rank, and the job fills each rank's multi-node flags.
  EXPECT_NE(s.find("export SERVEBENCH_NODE0=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n"),
            std::string::npos);
  EXPECT_NE(s.find("--no-progress --node-flags --launch-wrapper"), std::string::npos);
  job.gpus_per_node = 0;
  job.nodes = 1;
  const std::string single = render_sbatch(job);
  EXPECT_EQ(single.find("--gres"), std::string::npos) << "no GPUs asked for: no gres line";
  EXPECT_EQ(single.find("SERVEBENCH_NODE0"), std::string::npos);
  EXPECT_EQ(single.find("--node-flags"), std::string::npos);
}

TEST(SlurmJob, QuotesPathsForTheShell) {
  SlurmJobSpec job;
  job.campaign = "c";
  job.arm = "a";
  job.self_exe = "/it's/servebench";
  EXPECT_NE(render_sbatch(job).find("exec '/it'\\''s/servebench'"), std::string::npos);
}

TEST(SlurmJob, ParsesWhatTheToolsSay) {
  auto sc = parse_scontrol_job("JobId=7 JobName=x UserId=root(0) JobState=FAILED Reason=NonZeroExitCode Dependency=(null) "
                               "Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=3:0 RunTime=00:00:01");
  ASSERT_TRUE(sc);
  EXPECT_EQ(sc->state, "FAILED");
  EXPECT_EQ(sc->exit_code, 3);
  EXPECT_FALSE(parse_scontrol_job("slurm_load_jobs error: Invalid job id specified"));
  auto sa = parse_sacct_line("CANCELLED by 0|0:15\n");
  ASSERT_TRUE(sa);
  EXPECT_EQ(sa->state, "CANCELLED");
  EXPECT_EQ(sa->exit_code, 0);
  EXPECT_FALSE(parse_sacct_line(""));
  EXPECT_EQ(parse_sbatch_id("12345\n"), "12345");
  EXPECT_EQ(parse_sbatch_id("sbatch: warning: something\n678;cluster\n"), "678");
  EXPECT_FALSE(parse_sbatch_id("sbatch: error: Batch job submission failed\n"));
}

}  // namespace
}  // namespace servebench::cluster
