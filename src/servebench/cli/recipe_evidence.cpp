// `servebench recipe status|export|campaign`: verification from ledger evidence, the exports (cookbook
// benchmark rows; every selection as the page shows it) and campaign generation.
#include <algorithm>
#include <filesystem>

#include <boost/json/array.hpp>
#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/cli/recipe_verbs.hpp"
#include "servebench/recipe/campaign_writer.hpp"
#include "servebench/recipe/export_rows.hpp"
#include "servebench/recipe/lint_facts.hpp"
#include "servebench/recipe/page_json.hpp"
#include "servebench/recipe/verification.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cli {
namespace {

namespace json = boost::json;

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

void write_output(const RecipeArgs& a, const std::string& text, std::size_t items, const char* what) {
  if (a.output.empty()) {
    fmt::print("{}", text);
    return;
  }
  unwrap(util::write_file_atomic(a.output, text));
  fmt::print(stderr, "servebench: {} {} written to {}\n", items, what, a.output);
}

int export_selections(const RecipeArgs& a, const recipe::Catalog& c) {
  if (!a.evidence.empty()) throw CommandError(k_exit_bad_input, "--format cookbook-selections takes no --evidence");
  const auto filter = unwrap(recipe::parse_filter(c, a.filter));
  std::string text;
  std::size_t n = 0;
  for (const auto& s : recipe::all_selections(c)) {
    if (!filter.accepts(s)) continue;
    text += util::to_json_text(recipe::to_json(c, recipe::page_view(c, s))) + "\n";
    ++n;
  }
  write_output(a, text, n, "selection(s)");
  return k_exit_ok;
}

}  // namespace

int run_status(const RecipeArgs& a) {
  require_format(a.format, {"text", "json"});
  const recipe::Catalog c = unwrap(recipe::load_catalog(a.catalog));
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
  const std::string format = a.format == "text" ? "cookbook-rows" : a.format;
  require_format(format, {"cookbook-rows", "cookbook-selections"});
  const recipe::Catalog c = unwrap(recipe::load_catalog(a.catalog));
  if (format == "cookbook-selections") return export_selections(a, c);
  const auto evidence = evidence_of(a);
  const auto statuses = unwrap(recipe::verify_all(c, evidence, unwrap(recipe::parse_filter(c, a.filter))));
  json::array rows;
  for (const auto& row : recipe::export_rows(c, statuses, evidence)) rows.push_back(results::to_json(row));
  write_output(a, util::to_json_text_pretty(rows) + "\n", rows.size(), "row(s)");
  return k_exit_ok;
}

int run_campaign(const RecipeArgs& a) {
  if (a.output.empty()) throw CommandError(k_exit_bad_input, "campaign needs -o campaign.yaml");
  if (a.selects.empty()) throw CommandError(k_exit_bad_input, "campaign needs at least one --select");
  const recipe::Catalog c = unwrap(recipe::load_catalog(a.catalog));
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

}  // namespace servebench::cli
