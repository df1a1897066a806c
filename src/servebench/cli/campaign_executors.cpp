#include "servebench/cli/campaign_executors.hpp"

#include <fmt/format.h>

#include "servebench/campaign/launch_plan.hpp"
#include "servebench/cli/command.hpp"
#include "servebench/cluster/k8s_manifests.hpp"
#include "servebench/cluster/node_launch.hpp"
#include "servebench/cluster/slurm_executor.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cli {

void add_executor_options(CLI::App& run, ExecutorArgs& a) {
  run.add_option("--executor", a.executor, "where arms run: local (here, one after another), slurm (one batch job per arm), "
                                           "k8s (write manifests with --emit)")
      ->check(CLI::IsMember({"local", "slurm", "k8s"}));
  run.add_option("--emit", a.emit, "k8s: the directory the manifests are written to (no cluster needed)");
  run.add_option("--max-parallel-arms", a.max_parallel_arms, "slurm: jobs queued or running at once")->check(CLI::Range(1, 1024));
  run.add_option("--sbatch-arg", a.sbatch_args, "slurm: an extra #SBATCH option, e.g. --partition=gpu (repeatable)");
  run.add_option("--job-timeout-s", a.job_timeout_s, "slurm: scancel a job still running this long after submission")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{30} * 24 * 3600));
  run.add_option("--poll-ms", a.poll_ms, "slurm: how often job states are read")->check(CLI::Range(100, 600000));
  run.add_flag("--no-gpu-request", a.no_gpu_request,
               "slurm, k8s: ask the scheduler for no GPUs (simulated arms on a cluster without GPUs)");
  run.add_option("--k8s-image", a.k8s_image, "k8s: the image with servebench (client, and server of simulated arms)");
  run.add_option("--k8s-server-image", a.k8s_server_image, "k8s: the engine's image for other arms (default: --k8s-image)");
  run.add_option("--k8s-volume-claim", a.k8s_volume_claim, "k8s: the ReadWriteMany claim the run directories go to");
  // Set by the Slurm executor's batch scripts, not by people.
  run.add_option("--launch-wrapper", a.launch_wrapper, "words every server launch runs under (srun inside a job)")
      ->group("");
  run.add_flag("--node-flags", a.node_flags, "fill multi-node flags per rank from Slurm's environment")->group("");
}

void apply_node_flags(campaign::CampaignSpec& spec, const ExecutorArgs& a) {
  if (!a.node_flags) return;
  const auto facts = unwrap(recipe::load_render_facts());
  for (auto& arm : spec.arms) {
    if (arm.nodes > 1 && arm.launch) arm.launch = unwrap(cluster::ranked_launch(arm, facts, cluster::k_slurm_rank, cluster::k_slurm_node0));
  }
}

void refuse_pd_arms(const campaign::CampaignSpec& spec, const campaign::RunOptions& options, const ExecutorArgs& a) {
  if (a.executor == "local") return;
  for (const auto& p : campaign::expand(spec, options.only)) {
    const auto& arm = spec.arms[p.arm];
    if (!arm.pd) continue;
    throw CommandError(k_exit_bad_input,
                       fmt::format("arm '{}' is prefill/decode-disaggregated (three servers: prefill, decode, router); "
                                   "--executor {} runs one server per arm and does not launch it yet: run it with "
                                   "--executor local, or leave it out with --only",
                                   arm.name, a.executor));
  }
}

std::unique_ptr<campaign::Executor> make_executor(const ExecutorArgs& a) {
  if (a.executor != "k8s" && !a.emit.empty()) throw CommandError(k_exit_bad_input, "--emit goes with --executor k8s");
  if (a.executor != "slurm") return nullptr;
  cluster::SlurmOptions o;
  o.max_parallel_arms = a.max_parallel_arms;
  o.poll = std::chrono::milliseconds(a.poll_ms);
  o.job_timeout = std::chrono::seconds(a.job_timeout_s);
  o.sbatch_args = a.sbatch_args;
  o.self_exe = campaign::self_executable();
  o.request_gpus = !a.no_gpu_request;
  return std::make_unique<cluster::SlurmExecutor>(std::move(o), cluster::slurm_scheduler());
}

int emit_k8s(const campaign::CampaignSpec& spec, const ExecutorArgs& a) {
  if (a.emit.empty()) throw CommandError(k_exit_bad_input, "--executor k8s writes manifests: give --emit DIR");
  const auto facts = unwrap(recipe::load_render_facts());
  cluster::K8sOptions o;
  o.image = a.k8s_image;
  o.server_image = a.k8s_server_image;
  o.volume_claim = a.k8s_volume_claim;
  if (a.no_gpu_request) o.request_gpus = false;
  const auto manifests = unwrap(cluster::k8s_manifests(spec, facts, o));
  const auto written = unwrap(cluster::write_k8s_manifests(a.emit, manifests));
  for (const auto& p : written) fmt::print("wrote {}\n", p.string());
  fmt::print("apply with: kubectl apply -f {}   (then, from the volume: servebench campaign merge OUT {}/{}/jobs/*)\n",
             a.emit, o.mount, spec.name);
  return k_exit_ok;
}

}  // namespace servebench::cli
