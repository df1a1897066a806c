#pragma once
// The scheduler as the Slurm executor sees it: submit a batch script, ask how a job is doing,
// cancel it. SlurmScheduler speaks through sbatch, squeue, scontrol, sacct and scancel (whatever
// `PATH` finds); a job that left squeue is looked up with scontrol (finished jobs stay there for
// MinJobAge), then sacct when the cluster keeps accounting.
#include <memory>
#include <string>

#include "servebench/cluster/slurm_job.hpp"
#include "servebench/util/result.hpp"

namespace servebench::cluster {

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // The job id. Fails (unreachable) when sbatch refuses or cannot reach the controller.
  virtual util::Result<std::string> submit(const std::filesystem::path& script) = 0;
  // The job's state; state "" when no tool knows the job any more.
  virtual util::Result<SlurmJobState> query(const std::string& job_id) = 0;
  virtual util::Result<void> cancel(const std::string& job_id) = 0;
};

std::unique_ptr<Scheduler> slurm_scheduler();

}  // namespace servebench::cluster
