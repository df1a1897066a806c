#include "servebench/cluster/slurm_scheduler.hpp"

#include <fmt/format.h>

#include "servebench/cluster/scheduler_command.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cluster {
namespace {

constexpr std::chrono::seconds k_tool_timeout{60};

class SlurmScheduler final : public Scheduler {
 public:
  util::Result<std::string> submit(const std::filesystem::path& script) override {
    auto out = run_command({"sbatch", "--parsable", script.string()}, k_tool_timeout);
    if (!out) return std::unexpected(out.error());
    auto id = out->exit_code == 0 ? parse_sbatch_id(out->output) : std::nullopt;
    if (!id) {
      return util::failf(util::ErrorKind::unreachable, "sbatch {} failed (exit {}): {}", script.string(), out->exit_code,
                         util::trim(out->output));
    }
    return *id;
  }

  util::Result<SlurmJobState> query(const std::string& job_id) override {
    auto sq = run_command({"squeue", "-h", "-j", job_id, "-o", "%T"}, k_tool_timeout);
    if (!sq) return std::unexpected(sq.error());
    const std::string_view live = util::trim(sq->output);
    if (sq->exit_code == 0 && !live.empty() && live.find(' ') == std::string_view::npos) {
      // A job that is COMPLETING still shows here; the exit code comes from scontrol once it ends.
      if (live != "COMPLETING") return SlurmJobState{std::string(live), std::nullopt};
    }
    if (auto sc = run_command({"scontrol", "show", "job", "-o", job_id}, k_tool_timeout); sc && sc->exit_code == 0) {
      if (auto state = parse_scontrol_job(sc->output)) return *state;
    }
    if (auto sa = run_command({"sacct", "-j", job_id, "-X", "-n", "-P", "-o", "State,ExitCode"}, k_tool_timeout);
        sa && sa->exit_code == 0) {
      if (auto state = parse_sacct_line(sa->output)) return *state;
    }
    return SlurmJobState{};
  }

  util::Result<void> cancel(const std::string& job_id) override {
    auto out = run_command({"scancel", job_id}, k_tool_timeout);
    if (!out) return std::unexpected(out.error());
    if (out->exit_code != 0) return util::failf(util::ErrorKind::failed, "scancel {}: {}", job_id, util::trim(out->output));
    return {};
  }
};

}  // namespace

std::unique_ptr<Scheduler> slurm_scheduler() { return std::make_unique<SlurmScheduler>(); }

}  // namespace servebench::cluster
