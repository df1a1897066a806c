// `servebench recipe list|render|lint|status|export|campaign CATALOG …`: the deployment cookbook as
// data (docs/formats.md "Catalog"). Exit 2 on a bad catalog, selection or run directory (the message
// names file:line:col or what to change), 1 when lint finds errors, else 0.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <boost/json/array.hpp>
#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/recipe/campaign_writer.hpp"
#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/command_text.hpp"
#include "servebench/recipe/export_rows.hpp"
#include "servebench/recipe/lint.hpp"
#include "servebench/recipe/render.hpp"
#include "servebench/recipe/verification.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cli {
namespace {

namespace json = boost::json;
using recipe::Catalog;

struct RecipeArgs {
  std::string catalog, filter, engine, format = "text", output, name;
  std::vector<std::string> selects, evidence, sets;
};

void print_json(const json::value& v) { fmt::print("{}\n", util::to_json_text_pretty(v)); }

void require_format(const std::string& format, std::initializer_list<std::string_view> allowed) {
  if (std::find(allowed.begin(), allowed.end(), format) != allowed.end()) return;
  throw CommandError(k_exit_bad_input, fmt::format("--format must be one of: {}", fmt::join(allowed, ", ")));
}

std::string padded(const std::string& s, std::size_t width) { return s + std::string(width > s.size() ? width - s.size() : 0, ' '); }

recipe::Target target_of(const Catalog& c, const std::string& engine) {
  if (engine.empty() || engine == flags::to_string(c.engine)) return recipe::Target::engine;
  if (engine == "sim") return recipe::Target::sim;
  throw CommandError(k_exit_bad_input, fmt::format("--engine must be {} or sim for {}", flags::to_string(c.engine), c.file));
}

recipe::PlaceholderValues placeholder_overrides(const std::vector<std::string>& sets) {
  recipe::PlaceholderValues out;
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw CommandError(k_exit_bad_input, fmt::format("--set '{}' must be NAME=value", s));
    out.set(s.substr(0, eq), s.substr(eq + 1));
  }
  return out;
}

int run_list(const RecipeArgs& a) {
  require_format(a.format, {"text", "json"});
  const Catalog c = unwrap(recipe::load_catalog(a.catalog));
  const auto filter = unwrap(recipe::parse_filter(c, a.filter));
  std::vector<std::pair<std::string, std::string>> lines;
  json::array out;
  std::size_t enabled = 0, disabled = 0, no_cell = 0;
  for (const auto& s : recipe::all_selections(c)) {
    if (!filter.accepts(s)) continue;
    const auto reasons = recipe::disable_reasons(c, s);
    const bool has_cell = recipe::find_cell(c, s) != nullptr;
    const std::string status = !reasons.empty() ? "disabled" : has_cell ? "enabled" : "no cell";
    (status == "enabled" ? enabled : status == "disabled" ? disabled : no_cell)++;
    const std::string text = recipe::to_string(c, s);
    lines.emplace_back(text, reasons.empty() ? status : status + ": " + util::join(reasons, "; "));
    json::array why;
    for (const auto& r : reasons) why.emplace_back(r);
    out.push_back(json::object{{"selection", text}, {"status", status}, {"reasons", std::move(why)}});
  }
  if (a.format == "json") {
    print_json(out);
    return k_exit_ok;
  }
  std::size_t width = 0;
  for (const auto& [text, status] : lines) width = std::max(width, text.size());
  for (const auto& [text, status] : lines) fmt::print("{}  {}\n", padded(text, width), status);
  fmt::print("{} selections: {} enabled, {} disabled, {} without a cell\n", lines.size(), enabled, disabled, no_cell);
  return k_exit_ok;
}

int run_render(const RecipeArgs& a) {
  require_format(a.format, {"shell", "json"});
  if (a.selects.size() != 1) throw CommandError(k_exit_bad_input, "render needs exactly one --select");
  const Catalog c = unwrap(recipe::load_catalog(a.catalog));
  const auto target = target_of(c, a.engine);
  const auto selection = unwrap(recipe::parse_selection(c, a.selects.front()));
  const auto rendered = unwrap(recipe::render(c, selection, target, placeholder_overrides(a.sets)));
  if (a.format == "shell") {
    fmt::print("{}", recipe::to_shell(rendered));
    return k_exit_ok;
  }
  const auto command = unwrap(recipe::normalize(c, rendered));
  print_json(recipe::to_json(rendered, target == recipe::Target::sim ? "sim" : flags::to_string(c.engine), flags::fingerprint(command)));
  return k_exit_ok;
}

int run_lint(const RecipeArgs& a) {
  require_format(a.format, {"text", "json"});
  const Catalog c = unwrap(recipe::load_catalog(a.catalog));
  const auto facts = unwrap(recipe::load_lint_facts());
  const auto report = unwrap(recipe::lint(c, facts));
  const auto errors = report.count(recipe::Severity::error), warnings = report.count(recipe::Severity::warning);
  if (a.format == "json") {
    json::array findings;
    for (const auto& f : report.findings) findings.push_back(recipe::to_json(f));
    print_json(json::object{{"catalog", c.file}, {"selections_checked", report.selections_checked}, {"errors", errors},
                            {"warnings", warnings}, {"findings", std::move(findings)}});
  } else {
    for (const auto& f : report.findings) fmt::print("{}\n", recipe::to_text(f));
    fmt::print("{}: {} selections checked, {} error(s), {} warning(s)\n", c.file, report.selections_checked, errors, warnings);
  }
  return errors > 0 ? k_exit_measured_failure : k_exit_ok;
}

recipe::Evidence evidence_of(const RecipeArgs& a) {
  if (a.evidence.empty()) throw CommandError(k_exit_bad_input, "--evidence needs at least one run directory");
  std::vector<std::filesystem::path> dirs(a.evidence.begin(), a.evidence.end());
  auto evidence = unwrap(recipe::read_evidence(dirs));
  for (const auto& issue : evidence.issues) fmt::print(stderr, "servebench: {}\n", issue);
  return evidence;
}

std::string status_detail(const recipe::SelectionStatus& s) {
  std::vector<std::string> ids;
  for (const auto& e : s.evidence) ids.push_back(fmt::format("{}:{}", e.run_dir, e.point));
  std::string out;
  if (!s.diff.empty()) {
    std::vector<std::string> changes;
    for (const auto& d : s.diff) changes.push_back(flags::to_string(d));
    out += "measured → current: " + util::join(changes, "; ") + "  ";
  }
  if (!s.note.empty()) out += "(" + s.note + ")  ";
  if (!ids.empty()) out += "evidence: " + util::join(ids, ", ");
  return out;
}

int run_status(const RecipeArgs& a) {
  require_format(a.format, {"text", "json"});
  const Catalog c = unwrap(recipe::load_catalog(a.catalog));
  const auto evidence = evidence_of(a);
  const auto statuses = unwrap(recipe::verify_all(c, evidence, unwrap(recipe::parse_filter(c, a.filter))));
  if (a.format == "json") {
    json::array out;
    for (const auto& s : statuses) out.push_back(recipe::to_json(s));
    print_json(out);
    return k_exit_ok;
  }
  std::size_t label_w = 0, sel_w = 0;
  bool simulated = false;
  for (const auto& s : statuses) {
    label_w = std::max(label_w, s.label().size());
    sel_w = std::max(sel_w, s.selection.size());
    simulated = simulated || std::find(s.engines.begin(), s.engines.end(), "sim") != s.engines.end();
  }
  for (const auto& s : statuses) fmt::print("{}  {}  {}\n", padded(s.label(), label_w), padded(s.selection, sel_w), status_detail(s));
  if (simulated) fmt::print("(sim): evidence from servebench serve-sim, a simulation, not a GPU measurement\n");
  return k_exit_ok;
}

int run_export(const RecipeArgs& a) {
  const Catalog c = unwrap(recipe::load_catalog(a.catalog));
  const auto evidence = evidence_of(a);
  const auto statuses = unwrap(recipe::verify_all(c, evidence, unwrap(recipe::parse_filter(c, a.filter))));
  json::array rows;
  for (const auto& row : recipe::export_rows(c, statuses, evidence)) rows.push_back(results::to_json(row));
  const std::string text = util::to_json_text_pretty(rows) + "\n";
  if (a.output.empty()) {
    fmt::print("{}", text);
  } else {
    unwrap(util::write_file_atomic(a.output, text));
    fmt::print(stderr, "servebench: {} row(s) written to {}\n", rows.size(), a.output);
  }
  return k_exit_ok;
}

int run_campaign(const RecipeArgs& a) {
  if (a.output.empty()) throw CommandError(k_exit_bad_input, "campaign needs -o campaign.yaml");
  if (a.selects.empty()) throw CommandError(k_exit_bad_input, "campaign needs at least one --select");
  const Catalog c = unwrap(recipe::load_catalog(a.catalog));
  recipe::CampaignRequest request;
  request.target = a.engine.empty() ? recipe::Target::sim : target_of(c, a.engine);
  request.name = a.name;
  for (const auto& s : a.selects) request.selections.push_back(unwrap(recipe::parse_selection(c, s)));
  const auto facts = unwrap(recipe::load_lint_facts());
  const auto* engine = facts.engine(c.engine);
  const auto text = unwrap(recipe::campaign_yaml(c, request, engine != nullptr ? engine->parallelism : recipe::ParallelismFlags{}));
  unwrap(util::write_file_atomic(a.output, text));
  fmt::print("{}\n", a.output);
  return k_exit_ok;
}

using Runner = int (*)(const RecipeArgs&);

CLI::App* add_verb(CLI::App* parent, CommandFn& selected, const std::shared_ptr<RecipeArgs>& args, const char* name,
                   const char* help, Runner run) {
  auto* cmd = parent->add_subcommand(name, help);
  cmd->add_option("catalog", args->catalog, "catalog YAML file")->required();
  cmd->callback([&selected, args, run] { selected = [args, run] { return run(*args); }; });
  return cmd;
}

}  // namespace

void add_recipe(CLI::App& app, CommandFn& selected) {
  auto args = std::make_shared<RecipeArgs>();
  auto* cmd = app.add_subcommand("recipe", "the deployment cookbook: list, render, lint, status, export, campaign");
  cmd->require_subcommand(1);
  const auto filter = [&](CLI::App* c) { c->add_option("--filter", args->filter, "partial selection, e.g. hw=gb300,strategy=low-latency"); };
  const auto format = [&](CLI::App* c, const char* help) { c->add_option("--format", args->format, help); };
  const auto evidence = [&](CLI::App* c) { c->add_option("--evidence", args->evidence, "run directories (ledger.jsonl + arms/)")->required(); };

  auto* list = add_verb(cmd, selected, args, "list", "every selection with its status (enabled, disabled: reasons, no cell)", run_list);
  filter(list);
  format(list, "text (default) or json");

  auto* render = add_verb(cmd, selected, args, "render", "the launch command of one selection", run_render);
  render->add_option("--select", args->selects, "hw=…,strategy=…,quant=…[,overlay=option…]")->required()->allow_extra_args(false);
  render->add_option("--engine", args->engine, "the catalog's engine (default) or sim (servebench serve-sim)");
  render->add_option("--set", args->sets, "placeholder value NAME=value (repeatable)")->allow_extra_args(false);
  render->callback([args, render, &selected] {
    if (args->format == "text") args->format = "shell";
    selected = [args] { return run_render(*args); };
  });
  format(render, "shell (default) or json");

  auto* lint = add_verb(cmd, selected, args, "lint", "check every enabled selection; exit 1 on errors", run_lint);
  format(lint, "text (default) or json");

  auto* status = add_verb(cmd, selected, args, "status", "verified / stale / unverified per selection, from ledger evidence", run_status);
  evidence(status);
  filter(status);
  format(status, "text (default) or json");

  auto* exp = add_verb(cmd, selected, args, "export", "cookbook benchmark rows (JSON) for verified selections", run_export);
  evidence(exp);
  filter(exp);
  exp->add_option("-o,--output", args->output, "write the rows here instead of stdout");

  auto* campaign = add_verb(cmd, selected, args, "campaign", "a campaign file whose arms are the selected cells", run_campaign);
  campaign->add_option("--select", args->selects, "a selection (repeatable: one arm each)")->required()->allow_extra_args(false);
  campaign->add_option("--engine", args->engine, "sim (default): serve-sim arms; or the catalog's engine");
  campaign->add_option("--name", args->name, "campaign name (default <catalog>-recipe)");
  campaign->add_option("-o,--output", args->output, "campaign file to write")->required();
}

}  // namespace servebench::cli
