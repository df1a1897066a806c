#pragma once
// What one arm becomes on Slurm (docs/scale-out.md): a batch script whose allocation has the arm's
// nodes (and GPUs as gres), running `servebench campaign run` on that one arm into the job's own
// run directory, with the arm's server launched under `srun` across the allocation. Also the
// parsing of what squeue and scontrol say about a job. Pure text in, text out: tested without a
// cluster.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace servebench::cluster {

struct SlurmJobSpec {
  std::string campaign, arm;
  int attempt = 1;
  int nodes = 1;
  int gpus_per_node = 0;  // 0: no gres line (simulated arms, a cluster without GPUs)
  std::filesystem::path self_exe;       // the servebench binary, on shared storage
  std::filesystem::path campaign_file;  // the campaign's campaign.yaml (resolved, paths absolute)
  std::filesystem::path job_dir, log;   // the job's run directory and its output file
  std::vector<std::string> sbatch_args;  // extra `#SBATCH` options (--partition=gpu, --time=2:00:00, ...)
  bool rerun_invalid = false;
};

// A multi-node job exports SERVEBENCH_NODE0 (the allocation's first node, where the batch step and
// rank 0 run) and passes --node-flags, so each rank's launch gets the engine's multi-node flags.

// The `srun` words the arm's server runs under inside the job: one task per node over the
// allocation, sharing it with the batch step, killed together when one task fails.
std::vector<std::string> srun_wrapper(int nodes);

// The batch script. The job name is servebench-<campaign>-<arm>; the output goes to `log`.
std::string render_sbatch(const SlurmJobSpec& job);

struct SlurmJobState {
  std::string state;              // PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, ... ("" unknown)
  std::optional<int> exit_code;   // the batch script's exit status, once known
};

// `scontrol show job -o ID` → JobState and ExitCode; nullopt when the text names no job state.
std::optional<SlurmJobState> parse_scontrol_job(const std::string& text);
// `sacct -j ID -X -n -P -o State,ExitCode` → the first line's state and exit code.
std::optional<SlurmJobState> parse_sacct_line(const std::string& text);
// `sbatch --parsable` → the job id ("123" from "123" or "123;cluster").
std::optional<std::string> parse_sbatch_id(const std::string& text);

}  // namespace servebench::cluster
