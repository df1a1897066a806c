// `servebench report DIR... [-o PREFIX] [--baseline DIR|FILE] [--baseline-structure FILE.yaml]
//  [--slo-tpot-ms N] [--format md,html,json]`
// and `servebench report export DIR...` (the JSON/CSV exports only). Pure function of the files:
// never measures, never reads the clock. Exit 2 on an unreadable input (the message names it).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/report/report_files.hpp"

namespace servebench::cli {
namespace {

struct ReportArgs {
  std::vector<std::string> dirs;
  std::string prefix;
  std::string baseline;
  std::string structure;
  double slo_tpot_ms = 50;
  std::string formats = "md,html";
};

void add_common_options(CLI::App* cmd, ReportArgs& args) {
  cmd->add_option("dirs", args.dirs, "run directories (several merge; arms from different runs stay distinct)");
  cmd->add_option("-o,--output", args.prefix, "path prefix of the written files (default: DIR/report)");
  cmd->add_option("--baseline", args.baseline,
                  "baseline: a run directory, a ledger .jsonl or a .csv of published numbers");
}

int run_report(const ReportArgs& args, const std::vector<report::OutputFormat>& formats) {
  if (args.dirs.empty()) throw CommandError(k_exit_bad_input, "report needs at least one run directory");
  if (!(args.slo_tpot_ms > 0))
    throw CommandError(k_exit_bad_input, "--slo-tpot-ms must be a positive number of milliseconds");
  std::vector<std::filesystem::path> dirs(args.dirs.begin(), args.dirs.end());
  std::optional<std::filesystem::path> baseline;
  if (!args.baseline.empty()) baseline = args.baseline;
  std::optional<std::filesystem::path> structure;
  if (!args.structure.empty()) structure = args.structure;
  const auto inputs = unwrap(report::load_report_inputs(dirs, baseline, structure));
  const std::filesystem::path prefix =
      args.prefix.empty() ? dirs.front() / "report" : std::filesystem::path(args.prefix);
  const auto written = unwrap(report::write_report(inputs, report::ReportOptions{args.slo_tpot_ms}, formats, prefix));
  for (const auto& path : written) fmt::print("{}\n", path.string());
  for (const auto& issue : inputs.set.issues) fmt::print(stderr, "servebench: {}: {}\n", issue.file, issue.message);
  return k_exit_ok;
}

}  // namespace

void add_report(CLI::App& app, CommandFn& selected) {
  auto args = std::make_shared<ReportArgs>();
  auto export_args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand("report", "Markdown + self-contained HTML report (and exports) from run directories");
  add_common_options(cmd, *args);
  cmd->add_option("--slo-tpot-ms", args->slo_tpot_ms, "mean-TPOT SLO for the sweet-spot verdict (default 50)");
  cmd->add_option("--format", args->formats, "comma list of md, html, json (default md,html)");
  cmd->add_option("--baseline-structure", args->structure,
                  "a baseline report's chapters, scenarios and numbers (YAML): the report follows its chapters");
  auto* exp = cmd->add_subcommand("export", "cookbook rows, InferenceX-style CSV and vLLM-style JSON only");
  add_common_options(exp, *export_args);
  cmd->callback([&selected, args, exp] {
    if (exp->parsed()) return;
    selected = [args] { return run_report(*args, unwrap(report::parse_formats(args->formats))); };
  });
  exp->callback([&selected, export_args] {
    selected = [export_args] { return run_report(*export_args, {report::OutputFormat::json}); };
  });
}

}  // namespace servebench::cli
