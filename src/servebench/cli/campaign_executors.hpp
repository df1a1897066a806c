#pragma once
// `campaign run --executor local|slurm|k8s` (campaign.cpp registers the options; the executors
// are built in campaign_executors.cpp): what the options mean and how each executor is made.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "servebench/campaign/executor.hpp"
#include "servebench/campaign/runner.hpp"
#include "servebench/campaign/spec.hpp"

namespace servebench::cli {

struct ExecutorArgs {
  std::string executor = "local";
  std::string emit;  // k8s: the directory the manifests go to
  int max_parallel_arms = 1;
  std::vector<std::string> sbatch_args;
  std::int64_t job_timeout_s = 24 * 3600;
  std::int64_t poll_ms = 2000;
  bool no_gpu_request = false;
  std::string launch_wrapper;  // inside a job: the words the server runs under
  bool node_flags = false;     // inside a multi-node Slurm job: fill each rank's multi-node flags
  std::string k8s_image = "servebench:latest", k8s_server_image, k8s_volume_claim = "servebench-runs";
};

void add_executor_options(CLI::App& run, ExecutorArgs& args);
// Cluster executors run one server per arm: a prefill/decode-disaggregated arm (three servers) is
// refused by name (CommandError, exit 2) under --executor slurm or k8s; it runs with the local one.
void refuse_pd_arms(const campaign::CampaignSpec& spec, const campaign::RunOptions& options, const ExecutorArgs& args);
// The executor of `--executor slurm` (nullptr for local); throws CommandError for misfit options.
std::unique_ptr<campaign::Executor> make_executor(const ExecutorArgs& args);
// Inside a multi-node Slurm job (--node-flags): every arm with nodes > 1 launches with the engine's
// multi-node flags, rank and rank 0's address from the job's environment.
void apply_node_flags(campaign::CampaignSpec& spec, const ExecutorArgs& args);
// `--executor k8s --emit DIR`: writes the manifests and prints how to apply them; exit code.
int emit_k8s(const campaign::CampaignSpec& spec, const ExecutorArgs& args);

}  // namespace servebench::cli
