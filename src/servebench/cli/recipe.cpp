// `servebench recipe list|render|lint|status|export|campaign|diff CATALOG …`: the deployment
// cookbook as data (docs/formats.md "Catalog"). Exit 2 on a bad catalog, selection or run directory
// (the message names file:line:col or what to change), 1 when lint finds errors or diff finds
// differences, else 0.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <boost/json/array.hpp>
#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/cli/recipe_verbs.hpp"
#include "servebench/recipe/command_text.hpp"
#include "servebench/recipe/page.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cli {
namespace {

namespace json = boost::json;
using recipe::Catalog;

recipe::PlaceholderValues placeholder_overrides(const Catalog& c, const std::vector<std::string>& sets) {
  recipe::PlaceholderValues out;
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw CommandError(k_exit_bad_input, fmt::format("--set '{}' must be NAME=value", s));
    const std::string name = s.substr(0, eq);
    const bool known = name == recipe::k_node_rank || name == recipe::k_node0_ip ||
                       std::any_of(c.placeholders.begin(), c.placeholders.end(), [&](const auto& p) { return p.name == name; });
    if (!known || name == recipe::k_model_name) {
      throw CommandError(k_exit_bad_input, fmt::format("--set {}: not a placeholder {} declares", name, c.file));
    }
    out.set(name, s.substr(eq + 1));
  }
  return out;
}

std::string status_of(const Catalog& c, const std::vector<recipe::Greyed>& greyed) {
  if (greyed.empty()) return "reachable";
  std::vector<std::string> why;
  for (const auto& g : greyed) why.push_back(fmt::format("{}={} ({}): {}", c.dims[g.dim].id, g.value, recipe::to_string(g.kind), g.reason));
  return "greyed out: " + util::join(why, "; ");
}

// What the page adds around the command: the badge, the warn banner, the speculative notice.
void print_page_notes(const recipe::PageView& page) {
  fmt::print(stderr, "servebench: badge {}\n", recipe::to_string(page.badge));
  if (page.warn) fmt::print(stderr, "servebench: warning: {}\n", *page.warn);
  if (page.spec_notice) {
    const auto& n = *page.spec_notice;
    if (n.value) {
      fmt::print(stderr, "servebench: note: {} with --max-running-requests pinned to {}\n", n.algorithm, *n.value);
    } else {
      fmt::print(stderr, "servebench: note: {} without --max-running-requests: SGLang then defaults it to 48\n", n.algorithm);
    }
  }
}

}  // namespace

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

int run_list(const RecipeArgs& a) {
  require_format(a.format, {"text", "json"});
  const Catalog c = unwrap(recipe::load_catalog(a.catalog));
  const auto filter = unwrap(recipe::parse_filter(c, a.filter));
  std::vector<std::pair<std::string, std::string>> lines;
  json::array out;
  std::size_t reachable = 0, greyed = 0, no_cell = 0;
  for (const auto& s : recipe::all_selections(c)) {
    if (!filter.accepts(s)) continue;
    const auto chips = recipe::greyed(c, s);
    const bool has_cell = recipe::find_cell(c, s) != nullptr;
    (chips.empty() ? reachable : greyed)++;
    no_cell += has_cell ? 0 : 1;
    const std::string text = recipe::to_string(c, s);
    lines.emplace_back(text, status_of(c, chips));
    json::array why;
    for (const auto& g : chips) {
      why.push_back(json::object{{"dim", c.dims[g.dim].id}, {"value", g.value}, {"kind", recipe::to_string(g.kind)}, {"reason", g.reason}});
    }
    out.push_back(json::object{{"selection", text}, {"reachable", chips.empty()}, {"cell_found", has_cell}, {"reasons", std::move(why)}});
  }
  if (a.format == "json") {
    print_json(out);
    return k_exit_ok;
  }
  std::size_t width = 0;
  for (const auto& [text, status] : lines) width = std::max(width, text.size());
  for (const auto& [text, status] : lines) fmt::print("{}  {}\n", padded(text, width), status);
  fmt::print("{} selections: {} reachable, {} greyed out, {} without a cell\n", lines.size(), reachable, greyed, no_cell);
  return k_exit_ok;
}

int run_render(const RecipeArgs& a) {
  require_format(a.format, {"shell", "docker", "json"});
  if (a.selects.size() != 1) throw CommandError(k_exit_bad_input, "render needs exactly one --select");
  const Catalog c = unwrap(recipe::load_catalog(a.catalog));
  const auto target = target_of(c, a.engine);
  const auto selection = unwrap(recipe::parse_selection(c, a.selects.front()));
  const auto overrides = placeholder_overrides(c, a.sets);
  const auto rendered = unwrap(recipe::render(c, selection, target, overrides));
  const auto page = recipe::page_view(c, selection, overrides);
  if (a.format == "json") {
    const auto command = unwrap(recipe::normalize(c, rendered));
    auto out = recipe::to_json(rendered, target == recipe::Target::sim ? "sim" : flags::to_string(c.engine), flags::fingerprint(command));
    out["verification"] = recipe::to_string(page.badge);
    out["warn"] = page.warn ? json::value(*page.warn) : json::value(nullptr);
    print_json(out);
    return k_exit_ok;
  }
  if (target == recipe::Target::sim) {
    fmt::print("{}", recipe::to_shell(rendered));
  } else {
    fmt::print("{}\n", a.format == "docker" ? page.docker_command.value_or("") : page.command.value_or(""));
  }
  print_page_notes(page);
  return k_exit_ok;
}

void add_recipe(CLI::App& app, CommandFn& selected) {
  auto args = std::make_shared<RecipeArgs>();
  auto* cmd = app.add_subcommand("recipe", "the deployment cookbook: list, render, lint, status, export, campaign, diff");
  cmd->require_subcommand(1);
  const auto verb = [&](const char* name, const char* help, int (*run)(const RecipeArgs&)) {
    auto* v = cmd->add_subcommand(name, help);
    v->add_option("catalog", args->catalog, "catalog YAML file")->required();
    v->callback([&selected, args, run] { selected = [args, run] { return run(*args); }; });
    return v;
  };
  const auto filter = [&](CLI::App* c) { c->add_option("--filter", args->filter, "partial selection, e.g. hw=gb300,strategy=low-latency"); };
  const auto format = [&](CLI::App* c, const char* help) { c->add_option("--format", args->format, help); };
  const auto evidence = [&](CLI::App* c) { c->add_option("--evidence", args->evidence, "run directories (ledger.jsonl + arms/)"); };

  auto* list = verb("list", "every selection: reachable, or greyed out with each chip's reason", run_list);
  filter(list);
  format(list, "text (default) or json");

  auto* render = verb("render", "the launch command of one selection", run_render);
  render->add_option("--select", args->selects, "hw=…,strategy=…,quant=…[,overlay=option…]")->required()->allow_extra_args(false);
  render->add_option("--engine", args->engine, "the catalog's engine (default) or sim (servebench serve-sim)");
  render->add_option("--set", args->sets, "placeholder value NAME=value (repeatable)")->allow_extra_args(false);
  render->callback([args, &selected] {
    if (args->format == "text") args->format = "shell";
    selected = [args] { return run_render(*args); };
  });
  format(render, "shell (default: the page's command), docker (the page's Docker command) or json");

  auto* lint = verb("lint", "check every reachable selection; exit 1 on errors", run_lint);
  format(lint, "text (default) or json");

  auto* status = verb("status", "verified / stale / unverified per selection, from ledger evidence", run_status);
  evidence(status);
  filter(status);
  format(status, "text (default) or json");

  auto* exp = verb("export", "cookbook benchmark rows for verified selections, or every selection as the page shows it", run_export);
  evidence(exp);
  filter(exp);
  format(exp, "cookbook-rows (default; needs --evidence) or cookbook-selections (JSON Lines)");
  exp->add_option("-o,--output", args->output, "write here instead of stdout");

  auto* campaign = verb("campaign", "a campaign file whose arms are the selected cells", run_campaign);
  campaign->add_option("--select", args->selects, "a selection (repeatable: one arm each)")->required()->allow_extra_args(false);
  campaign->add_option("--engine", args->engine, "sim (default): serve-sim arms; or the catalog's engine");
  campaign->add_option("--name", args->name, "campaign name (default <catalog>-recipe)");
  campaign->add_option("-o,--output", args->output, "campaign file to write")->required();

  auto* diff = verb("diff", "selection-level differences between two catalogs or cookbook-selections exports", run_diff);
  diff->add_option("other", args->other, "the second catalog (.yaml) or export (.jsonl)")->required();
  format(diff, "text (default) or json");
}

}  // namespace servebench::cli
