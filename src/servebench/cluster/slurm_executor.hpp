#pragma once
// `campaign run --executor slurm`: every arm with points left becomes one batch job (slurm_job.hpp)
// writing its own run directory under the campaign's (jobs/<arm>-<attempt>/). The submitter keeps
// at most `max_parallel_arms` jobs queued or running, polls their state, appends every state change
// to the ledger (`servebench.job/1`), and when a job ends takes its point records into the
// campaign's ledger. A job that ends other than COMPLETED, or leaves points unmeasured or failed,
// is resubmitted once; what is still missing after that is recorded as failed. A submitter killed
// (even by kill -9) and run again finds its jobs in the ledger and re-attaches to those still
// queued or running instead of submitting them again. SIGINT/SIGTERM stop the submitter only: the
// jobs keep running, and a rerun collects them.
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "servebench/campaign/executor.hpp"
#include "servebench/cluster/slurm_scheduler.hpp"

namespace servebench::cluster {

struct SlurmOptions {
  int max_parallel_arms = 1;
  std::chrono::milliseconds poll{2000};
  std::chrono::seconds job_timeout{std::chrono::hours(24)};  // one job, from submission or re-attach; then scancel
  std::vector<std::string> sbatch_args;                      // extra #SBATCH options
  std::filesystem::path self_exe;
  bool request_gpus = true;  // --gres=gpu:N from the arm; false on a cluster without GPUs (simulated arms)
};

class SlurmExecutor final : public campaign::Executor {
 public:
  SlurmExecutor(SlurmOptions options, std::unique_ptr<Scheduler> scheduler)
      : m_options(std::move(options)), m_scheduler(std::move(scheduler)) {}
  std::string_view name() const override { return "slurm"; }
  util::Result<void> run(campaign::RunHost& host, const std::vector<campaign::ArmWork>& work) override;

 private:
  SlurmOptions m_options;
  std::unique_ptr<Scheduler> m_scheduler;
};

// GPUs per node an arm asks the scheduler for: its GPUs over its nodes, rounded up.
int gpus_per_node(const campaign::ArmSpec& arm);

}  // namespace servebench::cluster
