// `servebench plan CAMPAIGN.yaml [--out DIR] [--only arm=a,scenario=s,c=8] [--replicas N --router R]`: the campaign file run
// unchanged in virtual time; every number it writes is a prediction of the simulator (docs/plan.md).
#include <chrono>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "servebench/campaign/runner.hpp"
#include "servebench/cli/command.hpp"
#include "servebench/cli/serve_sim_parser.hpp"
#include "servebench/cli/version.hpp"
#include "servebench/plan/planner.hpp"
#include "servebench/results/error_budget.hpp"

namespace servebench::cli {
namespace {

struct PlanArgs {
  std::string file, out, only, router = "round-robin", sim_overrides, error_budget;
  int replicas = 1;
};

int run_plan(const PlanArgs& args) {
  const auto started = std::chrono::steady_clock::now();
  const auto spec = unwrap(campaign::read_campaign(args.file));
  plan::PlanOptions options;
  options.out = args.out.empty()
                    ? std::filesystem::path(campaign::default_out_dir(spec, util::system_wall_clock().now()).string() + "-plan")
                    : std::filesystem::path(args.out);
  if (!args.only.empty()) options.only = unwrap(campaign::parse_only(args.only, spec));
  options.tool = {std::string(version()), std::string(git_hash())};
  options.parse_launch = parse_serve_sim_args;
  options.replicas = args.replicas;
  options.router = unwrap(plan::parse_router(args.router));
  options.sim_overrides = args.sim_overrides;
  if (!args.error_budget.empty()) options.error_budget = unwrap(results::read_error_budget(args.error_budget));
  const auto summary = unwrap(plan::run_plan(spec, options));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  fmt::print("plan: {} points predicted ({} ok, {} skipped, {} not ok), {} simulated requests, {} engine steps, "
             "{:.2f} s\n",
             summary.points, summary.ok, summary.skipped, summary.not_ok, summary.simulated_requests,
             summary.engine_steps, seconds);
  if (!summary.unsupported.empty()) {
    fmt::print("plan: {} arm{} not simulated (listed above)\n", summary.unsupported.size(),
               summary.unsupported.size() == 1 ? "" : "s");
  }
  fmt::print("Every number in {} is a prediction of the simulator's cards, not a measurement "
             "(ledger key `predicted`; docs/plan.md).\n",
             options.out.string());
  for (const auto& [arm, line] : summary.budgets) fmt::print("arm {}: predicted; {}\n", arm, line);
  return plan::exit_code_of(summary);
}

}  // namespace

void add_plan(CLI::App& app, CommandFn& selected) {
  auto args = std::make_shared<PlanArgs>();
  auto* cmd = app.add_subcommand("plan", "run a campaign file in virtual time on the simulator: predicted results "
                                         "in a normal run directory, in seconds");
  cmd->add_option("file", args->file, "campaign YAML")->required();
  cmd->add_option("--out", args->out, "run directory (default runs/<name>-<timestamp>-plan)");
  cmd->add_option("--only", args->only, "plan a subset: arm=NAME,scenario=NAME,c=N (repeat a key for several)");
  cmd->add_option("--replicas", args->replicas, "simulate each arm as N identical engines behind a router")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--router", args->router, "with --replicas: round-robin, least-outstanding or prefix-aware")
      ->check(CLI::IsMember({"round-robin", "least-outstanding", "prefix-aware"}));
  cmd->add_option("--sim-overrides", args->sim_overrides,
                  "card-override YAML (sim calibrate) for every arm whose launch names none");
  cmd->add_option("--error-budget", args->error_budget,
                  "validation record (sim validate --record) that labels the predictions; default: the one shipped "
                  "for each arm's model and hardware");
  cmd->footer("Arms whose launch command the simulator cannot represent are listed with the reason and not "
              "simulated. Exit: 0 every simulated point ok or skipped, 1 a point failed or is invalid, 2 bad input. "
              "How predictions are labelled: docs/plan.md.");
  cmd->callback([&selected, args] { selected = [args] { return run_plan(*args); }; });
}

}  // namespace servebench::cli
