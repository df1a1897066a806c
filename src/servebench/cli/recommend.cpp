// `servebench recommend --model M --hw H --gpus N --workload ISL:OSL[:W] ... --slo KEY=MS,...`:
// SLO-driven deployment recommendations from the simulator, with a recipe catalog of the top
// commands and a campaign that verifies them on the real engine (docs/plan.md).
#include <memory>
#include <string>

#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/plan/recommend.hpp"
#include "servebench/results/error_budget.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cli {
namespace {

struct RecommendArgs {
  std::string model, hw, slo, levels, out, error_budget;
  int gpus = 1, top = 5;
  std::vector<std::string> workloads;
};

int run_recommend(const RecommendArgs& a) {
  plan::RecommendSpec spec;
  spec.model = a.model;
  spec.hardware = a.hw;
  spec.gpus = a.gpus;
  spec.top = a.top;
  for (const auto& w : a.workloads) spec.workloads.push_back(unwrap(plan::parse_workload(w)));
  spec.slo = unwrap(plan::parse_slo(a.slo));
  if (!a.levels.empty()) {
    spec.levels.clear();
    for (const auto part : util::split(a.levels, ',')) {
      const auto c = unwrap(util::parse_int(util::trim(part), "--levels"));
      if (c <= 0 || (!spec.levels.empty() && c <= spec.levels.back())) {
        throw CommandError(k_exit_bad_input, "--levels must be positive and ascending");
      }
      spec.levels.push_back(c);
    }
  }
  spec.progress = stderr;
  if (!a.error_budget.empty()) spec.error_budget = unwrap(results::read_error_budget(a.error_budget));
  const auto r = unwrap(plan::recommend(spec));
  fmt::print("{}", plan::recommendation_text(spec, r));
  if (!a.out.empty()) {
    const std::filesystem::path dir(a.out);
    unwrap(util::make_dirs(dir));
    const std::string catalog = plan::catalog_yaml(spec, r);
    unwrap(util::write_file_atomic(dir / "recommend-catalog.yaml", catalog));
    unwrap(util::write_file_atomic(dir / "recommend-campaign.yaml", unwrap(plan::verify_campaign_yaml(spec, catalog))));
    fmt::print("\nwrote {0}/recommend-catalog.yaml (the top commands as a recipe catalog) and "
               "{0}/recommend-campaign.yaml (measures them on the real engine: servebench campaign run)\n",
               dir.string());
  }
  return r.evaluations.empty() || !r.evaluations.front().meets() ? k_exit_measured_failure : k_exit_ok;
}

}  // namespace

void add_recommend(CLI::App& app, CommandFn& selected) {
  auto a = std::make_shared<RecommendArgs>();
  auto* cmd = app.add_subcommand("recommend", "rank the deployments of a model on N GPUs by the load they carry "
                                              "within an SLO, predicted by the simulator");
  cmd->add_option("--model", a->model, "model card (data/models/)")->required();
  cmd->add_option("--hw", a->hw, "GPU card (data/hardware.yaml)")->required();
  cmd->add_option("--gpus", a->gpus, "GPUs per deployment")->capture_default_str()->check(CLI::Range(1, 64));
  cmd->add_option("--workload", a->workloads, "ISL:OSL[:WEIGHT], repeatable")->required();
  cmd->add_option("--slo", a->slo, "ttft_p99_ms=…,ttft_p50_ms=…,tpot_p50_ms=…,tpot_p99_ms=…,e2e_p99_ms=…")->required();
  cmd->add_option("--levels", a->levels, "concurrency levels to search, ascending (default 1,8,32,64,128,256)");
  cmd->add_option("--top", a->top, "commands written to the catalog and campaign")->capture_default_str()->check(CLI::Range(1, 50));
  cmd->add_option("--out", a->out, "directory for recommend-catalog.yaml and recommend-campaign.yaml");
  cmd->add_option("--error-budget", a->error_budget,
                  "validation record (sim validate --record) of the cards; default: the one shipped for the pair");
  cmd->footer("Exit: 0 a deployment meets the SLO, 1 none does (the closest are listed), 2 bad input. docs/plan.md.");
  cmd->callback([&selected, a] { selected = [a] { return run_recommend(*a); }; });
}

}  // namespace servebench::cli
