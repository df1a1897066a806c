// `servebench campaign run FILE.yaml [--out DIR] [--only arm=a,scenario=s,c=8] [--rerun-invalid] [--dry-run]
// [--allow-changed-assets] [--no-progress]`, `servebench campaign status DIR`,
// `servebench campaign verify-assets DIR [--against OTHER]` and `servebench campaign merge OUT DIR...`. The whole file is read and validated
// before anything is launched or written (bad input: exit 2 naming file:line:col). Protocol:
// docs/protocol.md.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "servebench/campaign/assets.hpp"
#include "servebench/campaign/pd_arm.hpp"
#include "servebench/campaign/runner.hpp"
#include "servebench/campaign/status_file.hpp"
#include "servebench/cli/campaign_executors.hpp"
#include "servebench/cli/command.hpp"
#include "servebench/cli/serve_sim_parser.hpp"
#include "servebench/cli/version.hpp"
#include "servebench/results/run_merge.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cli {
namespace {

struct CampaignArgs {
  std::string file, out, only, status_dir, against;
  std::vector<std::string> merge_sources;
  ExecutorArgs exec;
  bool rerun_invalid = false, dry_run = false, allow_changed_assets = false, no_progress = false;
};

// A simulated arm's launch goes through serve-sim's own parser before anything runs, so a missing
// hardware or model card, a bad flag or a deployment that does not fit is exit 2 now, not an arm
// that fails to start later. Launches through a shell are left to the launch itself.
void check_sim_launches(const campaign::CampaignSpec& spec) {
  for (const auto& arm : spec.arms) {
    if (arm.engine != engines::Engine::sim || arm.nodes > 1) continue;
    std::vector<std::pair<std::string, campaign::ArmSpec>> launches;  // a PD arm: its prefill and decode parts
    if (arm.launch) launches.emplace_back("launch", arm);
    for (const auto part : {campaign::PdPart::prefill, campaign::PdPart::decode}) {
      if (arm.pd) launches.emplace_back(std::string(campaign::to_string(part)), campaign::pd_part_arm(arm, part));
    }
    for (const auto& [key, launch] : launches) {
      auto args = plan::serve_sim_args(launch);
      if (!args) continue;
      if (auto ok = parse_serve_sim_args(*args); !ok) {
        throw CommandError(k_exit_bad_input,
                           fmt::format("{}: arm '{}': {}: {}", spec.file, arm.name, key, ok.error().message));
      }
    }
  }
}

int run_campaign(const CampaignArgs& args) {
  auto spec = unwrap(campaign::read_campaign(args.file));
  check_sim_launches(spec);
  apply_node_flags(spec, args.exec);
  campaign::RunOptions options;
  options.out = args.out.empty() ? campaign::default_out_dir(spec, util::system_wall_clock().now())
                                 : std::filesystem::path(args.out);
  // The run directory itself is created; a mistyped parent path is not (only the default runs/ is).
  const auto parent = options.out.parent_path();
  if (!args.out.empty() && !parent.empty() && !std::filesystem::is_directory(parent)) {
    throw CommandError(k_exit_bad_input,
                       fmt::format("--out {}: the directory {} does not exist", args.out, parent.string()));
  }
  if (!args.only.empty()) options.only = unwrap(campaign::parse_only(args.only, spec));
  options.rerun_invalid = args.rerun_invalid;
  options.allow_changed_assets = args.allow_changed_assets;
  options.progress = !args.no_progress;
  options.tool = {std::string(version()), std::string(git_hash())};
  if (args.dry_run) {
    fmt::print("{}", campaign::dry_run_text(spec, options));
    return k_exit_ok;
  }
  refuse_pd_arms(spec, options, args.exec);
  if (args.exec.executor == "k8s") return emit_k8s(spec, args.exec);
  const auto executor = make_executor(args.exec);
  options.executor = executor.get();
  if (!args.exec.launch_wrapper.empty()) options.launch_wrapper = unwrap(util::shell_split(args.exec.launch_wrapper));
  return unwrap(campaign::run_campaign(spec, options));
}

// `campaign merge OUT DIR...`: the run directories of one campaign's jobs joined into one.
int merge_campaign(const CampaignArgs& args) {
  const auto summary = unwrap(results::merge_run_dirs(args.out, {args.merge_sources.begin(), args.merge_sources.end()}));
  fmt::print("merged {} run director{} into {}: {} points\n", summary.sources.size(),
             summary.sources.size() == 1 ? "y" : "ies", args.out, summary.points);
  for (const auto& p : summary.superseded) {
    for (const auto& d : p.dropped) {
      fmt::print("  {} measured twice: kept {} ({}), dropped {} ({})\n", p.point, p.kept.source, p.kept.started_at, d.source,
                 d.started_at);
    }
  }
  return k_exit_ok;
}

}  // namespace

void add_campaign(CLI::App& app, CommandFn& selected) {
  auto args = std::make_shared<CampaignArgs>();
  auto* cmd = app.add_subcommand("campaign", "arms x scenarios x concurrency under the cold-cache protocol, resumable");
  cmd->require_subcommand(1);
  auto* run = cmd->add_subcommand("run", "run or resume a campaign file into a run directory");
  run->add_option("file", args->file, "campaign YAML")->required();
  run->add_option("--out", args->out, "run directory (default runs/<name>-<timestamp>); the same DIR resumes");
  run->add_option("--only", args->only, "run a subset: arm=NAME,scenario=NAME,c=N (repeat a key for several)");
  run->add_flag("--rerun-invalid", args->rerun_invalid, "also rerun points whose last record is invalid");
  run->add_flag("--allow-changed-assets", args->allow_changed_assets,
                "resume although an asset (binary, campaign file, hook script, assets: entry) changed; both checksums are kept");
  run->add_flag("--no-progress", args->no_progress,
                "on a terminal, print one line per finished point instead of redrawing the point in progress");
  run->add_flag("--dry-run", args->dry_run, "print the expanded matrix with caps and order; touch nothing");
  add_executor_options(*run, args->exec);
  run->footer("Exit: 0 all points ok or skipped, 1 a point failed or is invalid, 2 bad input, 3 a server did not "
              "start, 130/143 interrupted. Protocol and resume rules: docs/protocol.md.");
  auto* status = cmd->add_subcommand("status", "progress of a run directory (from its ledger and status.txt)");
  status->add_option("dir", args->status_dir, "run directory")->required();
  auto* verify = cmd->add_subcommand("verify-assets", "compare a run's asset checksums with the files now, another run or a directory");
  verify->add_option("dir", args->status_dir, "run directory")->required();
  verify->add_option("--against", args->against, "another machine's run directory, or a directory holding copies of the assets");
  verify->footer("Exit: 0 identical, 1 something differs, 2 no asset ledger.");
  auto* merge = cmd->add_subcommand("merge", "join the run directories of one campaign (cluster jobs) into one, each point once");
  merge->add_option("out", args->out, "the merged run directory (created; an earlier merge there is replaced)")->required();
  merge->add_option("dirs", args->merge_sources, "run directories to merge")->required();
  merge->footer("A point measured in several directories keeps its latest measurement (started_at); merge.json and the "
                "report list the measurements dropped. Report it with `servebench report OUT`. Exit: 0 merged, 2 bad input.");
  merge->callback([&selected, args] { selected = [args] { return merge_campaign(*args); }; });
  verify->callback([&selected, args] {
    selected = [args] {
      const auto v = unwrap(campaign::verify_assets(args->status_dir, args->against));
      fmt::print("{}", v.text);
      return v.identical ? k_exit_ok : k_exit_measured_failure;
    };
  });
  run->callback([&selected, args] { selected = [args] { return run_campaign(*args); }; });
  status->callback([&selected, args] {
    selected = [args] {
      fmt::print("{}", unwrap(campaign::status_report(args->status_dir)));
      return k_exit_ok;
    };
  });
}

}  // namespace servebench::cli
