#pragma once
// `servebench plan`: a campaign file run unchanged in virtual time. Each arm's launch command is
// parsed by serve-sim's own flag parser (handed in by the CLI, which owns the flag definitions)
// into a simulated deployment; the campaign's matrix, caps, structural skips, num_prompts rule,
// warmups, cold-cache flush and cache verification are applied as `campaign run` applies them,
// and the bench load model drives the engine directly (virtual_load.hpp). The result is a normal
// run directory — ledger, server facts, per-request logs, campaign.yaml — whose every point is
// marked predicted (ledger `predicted`, docs/plan.md), so `report` and the recipe commands read it
// unchanged. Arms the simulator cannot represent are listed with the reason and not simulated.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "servebench/campaign/matrix.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/plan/router.hpp"
#include "servebench/results/error_budget.hpp"
#include "servebench/results/point.hpp"
#include "servebench/sim/deployment.hpp"
#include "servebench/sim/server_info.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::plan {

struct SimLaunch {
  sim::Deployment deployment;
  sim::FrontFacts front;  // what serve-sim would report beyond the deployment (recorded flags, names)
};
// serve-sim's flag parser: the words after `servebench serve-sim` → the deployment it would serve.
using LaunchParser = std::function<util::Result<SimLaunch>(const std::vector<std::string>& args)>;

// The serve-sim arguments of an arm, or why the simulator cannot represent it (engine, attach,
// shell syntax, another program). {port} becomes 0.
util::Result<std::vector<std::string>> serve_sim_args(const campaign::ArmSpec& arm);
// The card-override file the arguments name (`--sim-overrides FILE` or `--sim-overrides=FILE`), or "".
std::string overrides_in(const std::vector<std::string>& args);

struct PlanOptions {
  std::filesystem::path out;
  int replicas = 1;  // > 1: each arm is a fleet of identical engines behind `router` (docs/plan.md)
  // A card-override file for every arm whose launch names none (`--sim-overrides` in the launch wins).
  std::string sim_overrides;
  // The validation record that labels the predictions (else the one shipped for each arm's cards).
  std::optional<results::ErrorBudget> error_budget;
  RouterKind router = RouterKind::round_robin;
  campaign::PointFilter only;
  results::ToolInfo tool;
  std::FILE* console = stdout;  // nullptr: quiet
  LaunchParser parse_launch;
  const util::WallClock* wall = &util::system_wall_clock();
};

struct PlanSummary {
  int points = 0, ok = 0, skipped = 0, not_ok = 0;
  std::vector<std::pair<std::string, std::string>> budgets;  // arm, its budget line (results::budget_line)
  std::vector<std::pair<std::string, std::string>> unsupported;  // arm, reason
  std::int64_t simulated_requests = 0, engine_steps = 0;
};

// Runs the plan into options.out. Fails (bad_input) when no arm can be simulated or the prompts
// source is not random-ids, (io) when the run directory cannot be written.
util::Result<PlanSummary> run_plan(const campaign::CampaignSpec& spec, const PlanOptions& options);

// Exit code of a finished plan: ok when every simulated point is ok or skipped, else measured_failure.
int exit_code_of(const PlanSummary& s);

}  // namespace servebench::plan
