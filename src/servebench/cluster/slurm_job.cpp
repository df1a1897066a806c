#include "servebench/cluster/slurm_job.hpp"

#include <fmt/format.h>

#include "servebench/util/strings.hpp"

namespace servebench::cluster {
namespace {

// One word for the shell, single-quoted.
std::string quote(std::string_view s) {
  std::string out = "'";
  for (const char c : s) {
    if (c == '\'') out += "'\\''";
    else out.push_back(c);
  }
  return out + "'";
}

std::optional<int> exit_code_of(std::string_view text) {  // "3:0" → 3
  auto code = util::parse_int(util::trim(text.substr(0, text.find(':'))), "exit code");
  if (!code) return std::nullopt;
  return static_cast<int>(*code);
}

std::string value_after(const std::string& text, std::string_view key) {  // "JobState=RUNNING Reason=None"
  const std::string needle = std::string(key) + "=";
  std::size_t at = text.find(needle);
  while (at != std::string::npos && at != 0 && text[at - 1] != ' ' && text[at - 1] != '\n') at = text.find(needle, at + 1);
  if (at == std::string::npos) return "";
  const std::size_t from = at + needle.size();
  const std::size_t end = text.find_first_of(" \n", from);
  return text.substr(from, end == std::string::npos ? std::string::npos : end - from);
}

}  // namespace

std::vector<std::string> srun_wrapper(int nodes) {
  return {"srun", fmt::format("--nodes={}", nodes), fmt::format("--ntasks={}", nodes), "--ntasks-per-node=1", "--overlap",
          "--kill-on-bad-exit=1"};
}

std::string render_sbatch(const SlurmJobSpec& job) {
  std::string s = "#!/bin/bash\n";
  s += fmt::format("# servebench campaign '{}', arm '{}', attempt {}: the arm's points into the job's own run\n"
                   "# directory; the server runs under srun over the allocation, the client on this node.\n",
                   job.campaign, job.arm, job.attempt);
  s += fmt::format("#SBATCH --job-name=servebench-{}-{}\n", job.campaign, job.arm);
  s += fmt::format("#SBATCH --nodes={}\n", job.nodes);
  s += "#SBATCH --ntasks-per-node=1\n";
  if (job.gpus_per_node > 0) s += fmt::format("#SBATCH --gres=gpu:{}\n", job.gpus_per_node);
  s += fmt::format("#SBATCH --output={}\n", job.log.string());
  s += "#SBATCH --open-mode=append\n";
  for (const auto& a : job.sbatch_args) s += fmt::format("#SBATCH {}\n", a);
  if (job.nodes > 1) s += "export SERVEBENCH_NODE0=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n";
  std::vector<std::string> words{quote(job.self_exe.string()), "campaign", "run", quote(job.campaign_file.string()),
                                 "--out", quote(job.job_dir.string()), "--only", quote("arm=" + job.arm), "--no-progress"};
  if (job.rerun_invalid) words.emplace_back("--rerun-invalid");
  if (job.nodes > 1) words.emplace_back("--node-flags");
  words.emplace_back("--launch-wrapper");
  words.push_back(quote(util::join(srun_wrapper(job.nodes), " ")));
  s += "exec " + util::join(words, " ") + "\n";
  return s;
}

std::optional<SlurmJobState> parse_scontrol_job(const std::string& text) {
  const std::string state = value_after(text, "JobState");
  if (state.empty()) return std::nullopt;
  SlurmJobState out{state, std::nullopt};
  if (const std::string code = value_after(text, "ExitCode"); !code.empty()) out.exit_code = exit_code_of(code);
  return out;
}

std::optional<SlurmJobState> parse_sacct_line(const std::string& text) {
  const std::string_view first = util::trim(std::string_view(text).substr(0, text.find('\n')));
  if (first.empty() || first.find('|') == std::string_view::npos) return std::nullopt;
  const auto bar = first.find('|');
  std::string state(util::trim(first.substr(0, bar)));
  state = state.substr(0, state.find(' '));  // "CANCELLED by 0"
  if (state.empty()) return std::nullopt;
  return SlurmJobState{state, exit_code_of(first.substr(bar + 1))};
}

std::optional<std::string> parse_sbatch_id(const std::string& text) {
  for (const auto raw : util::split(text, '\n')) {  // warnings may come first, on stderr
    const std::string_view line = util::trim(raw);
    const std::string_view id = line.substr(0, line.find(';'));
    if (!id.empty() && util::parse_int(id, "job id")) return std::string(id);
  }
  return std::nullopt;
}

}  // namespace servebench::cluster
