// `servebench sim validate POINTS [--sim-overrides YAML] [--loco] [--json] [--record FILE]` and
// `servebench sim calibrate POINTS -o OVERRIDES.yaml [--only-concurrency C] [--fit k1,k2,...]`
// (docs/sim.md "sim validate and sim calibrate"). POINTS is a benchmark-row JSONL
// (data/calibration/*.jsonl layout), a campaign run directory (its ledger's points, each arm's
// launch command read as serve-sim reads it; --hw/--model fill in what a real engine's command
// does not say) or a bench result JSONL (its runs, served by --launch, else by each line's
// server_info, else by --hw / --model). Exit 2 on
// unreadable points or a point the cards cannot represent.
#include <filesystem>
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>

#include <boost/json/serialize.hpp>
#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/cli/serve_sim_parser.hpp"
#include "servebench/cli/version.hpp"
#include "servebench/plan/error_budget_lookup.hpp"
#include "servebench/results/error_budget.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/results/server_facts_file.hpp"
#include "servebench/sim/bench_points.hpp"
#include "servebench/sim/calibration.hpp"
#include "servebench/sim/server_info_launch.hpp"
#include "servebench/sim/validation.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/clock.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cli {
namespace {

struct SimArgs {
  std::string points, overrides, output, fit, hw, model, record, launch;
  bool json = false, loco = false;
  std::vector<int> only_concurrency;
};

sim::EfficiencyOverrides load_overrides(const std::string& path) {
  if (path.empty()) return {};
  return unwrap(sim::read_sim_overrides(path)).efficiency;
}

std::vector<sim::KnobBounds> knobs_of(const std::string& fit) {
  if (fit.empty()) return sim::default_knobs();
  std::vector<sim::KnobBounds> out;
  const auto all = sim::default_knobs();
  for (const auto part : util::split(std::string_view(fit), ',')) {
    const auto k = unwrap(sim::parse_knob(std::string(util::trim(part))));
    for (const auto& b : all) {
      if (b.knob == k) out.push_back(b);
    }
  }
  return out;
}

// The serve-sim arguments of a launch command: the words after `serve-sim`, `sglang.launch_server`
// or `sglang serve` (SGLang's flags are serve-sim's), with --hw/--model added when it lacks them.
// `who` names the server in errors ("arm 'x'", "the --launch server").
util::Result<std::vector<std::string>> launch_args(const std::string& launch, const SimArgs& a, const std::string& who) {
  auto words = util::shell_split(launch);
  if (!words) return std::unexpected(words.error());
  std::size_t start = 0;
  bool simulated = false;
  const bool flags_only = !words->empty() && words->front().starts_with("--");  // read as SGLang's flags
  for (std::size_t i = 0; i < words->size() && start == 0 && !flags_only; ++i) {
    const std::string& w = (*words)[i];
    if (w == "serve-sim") start = i + 1, simulated = true;
    if (w == "sglang.launch_server") start = i + 1;
    if ((w == "sglang" || w.ends_with("/sglang")) && i + 1 < words->size() && (*words)[i + 1] == "serve") start = i + 2;
  }
  if ((start > 0 || flags_only) && !simulated && a.hw.empty()) {  // never a default GPU for a measurement made on real ones
    return util::failf(util::ErrorKind::bad_input, "{} ran SGLang: give --hw (the card of the GPUs it ran on)", who);
  }
  if (start == 0 && !flags_only) {
    return util::failf(util::ErrorKind::bad_input,
                       "{}: its launch is neither serve-sim nor SGLang ({}); the simulator reads SGLang's flags "
                       "only", who, launch);
  }
  std::vector<std::string> args(words->begin() + static_cast<std::ptrdiff_t>(start), words->end());
  for (auto& w : args) {
    if (auto at = w.find("{port}"); at != std::string::npos) w.replace(at, 6, "0");
  }
  const auto has = [&](std::string_view flag) { return std::find(args.begin(), args.end(), flag) != args.end(); };
  if (!a.hw.empty() && !has("--hw")) args.insert(args.end(), {"--hw", a.hw});
  if (!a.model.empty() && !has("--model")) args.insert(args.end(), {"--model", a.model});
  return args;
}

// Every closed-loop, cold-cache, ok point of a run directory's ledger (the last record per point;
// each repeat is its own point), with the arm's deployment as serve-sim would build it.
util::Result<std::vector<sim::MeasuredPoint>> run_points(const std::filesystem::path& dir, const SimArgs& a) {
  const results::RunLayout layout(dir);
  auto ledger = results::read_ledger(layout.ledger());
  if (!ledger) return std::unexpected(ledger.error());
  std::vector<sim::MeasuredPoint> out;
  std::map<std::string, sim::SimConfig> arms;
  for (const auto& r : ledger->latest()) {
    if (r.status != results::PointStatus::ok || r.request_rate || r.completed == 0) continue;
    if (r.cache.hit_rate && *r.cache.hit_rate > 0.05) continue;  // the replay sends unique prompts
    if (!arms.contains(r.arm)) {
      auto facts = results::read_server_facts(layout.server_facts(r.arm));
      if (!facts) return std::unexpected(facts.error());
      if (!*facts || (*facts)->launch.empty()) {
        return util::failf(util::ErrorKind::bad_input, "{}: arm '{}' has no launch command in {}", dir.string(), r.arm,
                           layout.server_facts(r.arm).string());
      }
      auto args = launch_args((*facts)->launch, a, fmt::format("arm '{}'", r.arm));
      if (!args) return std::unexpected(args.error());
      auto launch = parse_serve_sim_args(*args);
      if (!launch) {
        return util::failf(util::ErrorKind::bad_input, "arm '{}': {} (give --hw/--model for a real engine's launch)",
                           r.arm, launch.error().message);
      }
      arms.emplace(r.arm, launch->deployment.config);
    }
    sim::MeasuredPoint p;
    p.source = dir.string() + " arm " + r.arm;
    p.label = fmt::format("{} {} C{}{}", r.arm, r.scenario, r.concurrency, r.repeat ? fmt::format(" #{}", *r.repeat) : "");
    p.config = arms.at(r.arm);
    p.isl = r.isl;
    p.osl = r.osl;
    p.concurrency = static_cast<int>(r.concurrency);
    p.num_prompts = static_cast<int>(r.num_prompts);
    p.accept_length = r.accept_length;
    p.ttft_ms = r.ttft_ms.mean;
    p.tpot_ms = r.tpot_ms.mean;
    p.total_tok_s_per_gpu = r.throughput.total_tok_per_s_per_gpu;
    p.output_tok_s = r.throughput.output_tok_per_s;
    out.push_back(std::move(p));
  }
  if (out.empty()) return util::failf(util::ErrorKind::bad_input, "{}: no closed-loop, cold-cache, ok point in its ledger", dir.string());
  return out;
}

// The deployment serve-sim arguments build.
util::Result<sim::ServedBy> served_by_args(const std::vector<std::string>& args, const std::string& who) {
  auto launch = parse_serve_sim_args(args);
  if (!launch) return util::failf(util::ErrorKind::bad_input, "{}: {}", who, launch.error().message);
  return sim::ServedBy{launch->deployment.config, launch->deployment.gpus()};
}

// The runs of a bench result JSONL. Served by the deployment --launch names, else by the one each
// line's server_info describes (servebench bench records it), else by --hw/--model's defaults.
util::Result<std::vector<sim::MeasuredPoint>> bench_points(const std::string& text, const SimArgs& a) {
  std::optional<sim::ServedBy> fixed;
  if (!a.launch.empty()) {
    auto words = launch_args(a.launch, a, "the --launch server");
    if (!words) return std::unexpected(words.error());
    auto s = served_by_args(*words, "--launch");
    if (!s) return std::unexpected(s.error());
    fixed = std::move(*s);
  }
  const auto per_line = [&](const boost::json::object& line, const std::string& where) -> util::Result<sim::ServedBy> {
    if (fixed) return *fixed;
    const auto* info = line.if_contains("server_info");
    auto words = info != nullptr && info->is_object() ? sim::launch_args_of_server_info(info->get_object())
                                                      : std::nullopt;
    if (words) {
      const auto has = [&](std::string_view flag) { return std::find(words->begin(), words->end(), flag) != words->end(); };
      if (!has("--hw") && a.hw.empty()) {  // never a default GPU for a measurement made on real ones
        return util::failf(util::ErrorKind::bad_input,
                           "{}: its server_info is a real engine's (no simulator cards): give --hw (the card of the "
                           "GPUs it ran on)",
                           where);
      }
      if (!a.hw.empty() && !has("--hw")) words->insert(words->end(), {"--hw", a.hw});
      if (!a.model.empty() && !has("--model")) words->insert(words->end(), {"--model", a.model});
      return served_by_args(*words, where + ": its server_info");
    }
    if (!a.hw.empty() && !a.model.empty()) return served_by_args({"--hw", a.hw, "--model", a.model}, "--hw/--model");
    return util::failf(util::ErrorKind::bad_input,
                       "{}: a bench run that does not say what served it (no server_info): give --launch '<the "
                       "server's launch command>' and --hw, or --hw and --model",
                       where);
  };
  return sim::parse_bench_points(text, a.points, per_line);
}

util::Result<std::vector<sim::MeasuredPoint>> read_points(const SimArgs& a) {
  if (std::filesystem::is_directory(a.points)) return run_points(a.points, a);
  auto text = util::read_file(a.points);
  if (!text) return std::unexpected(text.error());
  if (sim::is_bench_results(*text)) return bench_points(*text, a);
  return sim::parse_measured_points(*text, a.points);
}

std::vector<sim::MeasuredPoint> keep(const std::vector<sim::MeasuredPoint>& points, const std::set<int>& drop_c,
                                     bool invert) {
  std::vector<sim::MeasuredPoint> out;
  for (const auto& p : points) {
    if (drop_c.contains(p.concurrency) == invert) out.push_back(p);
  }
  return out;
}

// The validation summary plan and recommend label their predictions with (docs/sim.md "The validation record").
void write_record(const sim::Validation& v, const SimArgs& a) {
  plan::RecordContext context;
  context.measured_file = a.points;
  context.overrides = unwrap(plan::file_hash(a.overrides));
  context.servebench_version = fmt::format("{} ({})", version(), git_hash());
  context.date = util::format_utc(util::system_wall_clock().now());
  const auto record = unwrap(plan::validation_record(v, context));
  unwrap(util::write_file_atomic(a.record, results::error_budget_text(record)));
  std::fprintf(stderr, "wrote the validation record of %s on %s (%d points) to %s\n", record.model.c_str(),
               record.hardware.c_str(), record.points, a.record.c_str());
}

int run_validate(const SimArgs& a) {
  const auto points = unwrap(read_points(a));
  const auto o = load_overrides(a.overrides);
  std::vector<sim::Validation> folds;
  folds.push_back(unwrap(sim::validate(points, o)));
  folds.back().fold = a.overrides.empty() ? "all points, card defaults" : "all points, overrides " + a.overrides;
  // Leave-one-concurrency-out: calibrate on the other concurrencies, predict the held-out one.
  std::vector<std::vector<sim::MeasuredPoint>> held;  // keeps the points the folds point into
  if (a.loco) {
    std::set<int> cs;
    for (const auto& p : points) cs.insert(p.concurrency);
    sim::Validation loco;
    loco.fold = "leave one concurrency out (calibrated on the other concurrencies)";
    held.reserve(cs.size());
    for (int c : cs) {
      const auto train = keep(points, {c}, false);
      held.push_back(keep(points, {c}, true));
      if (train.empty()) continue;
      sim::CalibrationOptions opt;
      opt.start = o;
      const auto fit = unwrap(sim::calibrate(train, opt));
      sim::EfficiencyOverrides fold_o = o;
      sim::apply(fit.overrides.efficiency, fold_o);
      auto v = unwrap(sim::validate(held.back(), fold_o));
      for (auto& r : v.points) loco.points.push_back(r);
    }
    loco.metrics = sim::summarize(loco.points);
    folds.push_back(std::move(loco));
  }
  if (!a.record.empty()) write_record(folds.front(), a);
  if (a.json) {
    boost::json::array arr;
    for (const auto& v : folds) arr.push_back(sim::to_json(v));
    fmt::print("{}\n", boost::json::serialize(boost::json::object{{"points_file", a.points}, {"folds", arr}}));
  } else {
    for (const auto& v : folds) fmt::print("{}\n", sim::render_markdown(v));
  }
  return k_exit_ok;
}

int run_calibrate(const SimArgs& a) {
  if (a.output.empty()) throw CommandError(k_exit_bad_input, "sim calibrate needs -o/--output FILE.yaml");
  auto points = unwrap(read_points(a));
  if (!a.only_concurrency.empty()) {
    points = keep(points, std::set<int>(a.only_concurrency.begin(), a.only_concurrency.end()), true);
    if (points.empty()) throw CommandError(k_exit_bad_input, "--only-concurrency leaves no measured point");
  }
  sim::CalibrationOptions opt;
  opt.knobs = knobs_of(a.fit);
  opt.start = load_overrides(a.overrides);
  const auto fit = unwrap(sim::calibrate(points, opt));
  std::string note = fmt::format("servebench sim calibrate {} ({} points); rms log error {:.3f} -> {:.3f}", a.points,
                                 points.size(), fit.rms_log_error_start, fit.rms_log_error);
  for (const auto& k : fit.knobs) {
    // How much the points narrowed the knob's prior: below 0.5 they pin it; near 1 it stays by its prior.
    const std::string pinned = !k.identified ? "  not identified: " + k.why + "; left out"
                               : k.narrowed < 0.5 ? fmt::format("  sd {:.2f} of its prior", k.narrowed)
                                                  : fmt::format("  sd {:.2f} of its prior: held by the prior", k.narrowed);
    fmt::print("{:<18} {:>12.4g}  (start {:.4g}){}{}\n", sim::to_string(k.knob), k.value, k.start, pinned,
               k.at_bound ? "  at its bound" : "");
    if (k.at_bound) note += fmt::format("\n{} ended on its bound", sim::to_string(k.knob));
    if (!k.identified) note += fmt::format("\n{} not identified by these points ({}); left at the card's value", sim::to_string(k.knob), k.why);
    if (k.identified && k.narrowed >= 0.5) {
      note += fmt::format("\n{} barely constrained by these points (posterior sd {:.2f} of the prior's); the prior holds "
                          "it near the card's value", sim::to_string(k.knob), k.narrowed);
    }
  }
  unwrap(util::write_file_atomic(a.output, sim::to_yaml(fit.overrides, note)));
  fmt::print("rms log error {:.3f} -> {:.3f} over {} evaluations; wrote {}\n", fit.rms_log_error_start,
             fit.rms_log_error, fit.evaluations, a.output);
  return k_exit_ok;
}

}  // namespace

void add_sim(CLI::App& app, CommandFn& selected) {
  auto* cmd = app.add_subcommand("sim", "validate the simulator against measured points, or calibrate it");
  cmd->require_subcommand(1);
  auto va = std::make_shared<SimArgs>();
  auto* v = cmd->add_subcommand("validate", "predict each measured point; error per point and per metric");
  v->add_option("points", va->points,
                "benchmark-row JSONL (data/calibration/*.jsonl layout), a run directory, or a bench result JSONL")
      ->required();
  v->add_option("--launch", va->launch, "a bench result's server: its launch command (SGLang's or serve-sim's flags)");
  v->add_option("--hw", va->hw, "hardware card for a run directory's real-engine arms (their launch does not say)");
  v->add_option("--model", va->model, "model card when the arms' --model-path does not pick one");
  v->add_option("--sim-overrides", va->overrides, "card-override YAML (from sim calibrate)");
  v->add_flag("--loco", va->loco, "add a leave-one-concurrency-out fold (calibrates once per concurrency)");
  v->add_flag("--json", va->json, "JSON instead of Markdown tables");
  v->add_option("--record", va->record,
                "also write the validation record (servebench.validation/1) that plan and recommend label "
                "predictions with");
  v->callback([&selected, va] { selected = [va] { return run_validate(*va); }; });
  auto ca = std::make_shared<SimArgs>();
  auto* c = cmd->add_subcommand("calibrate", "fit efficiency parameters to measured points; write an override YAML");
  c->add_option("points", ca->points,
                "benchmark-row JSONL (data/calibration/*.jsonl layout), a run directory, or a bench result JSONL")
      ->required();
  c->add_option("--launch", ca->launch, "a bench result's server: its launch command (SGLang's or serve-sim's flags)");
  c->add_option("--hw", ca->hw, "hardware card for a run directory's real-engine arms (their launch does not say)");
  c->add_option("--model", ca->model, "model card when the arms' --model-path does not pick one");
  c->add_option("-o,--output", ca->output, "override YAML to write (for serve-sim --sim-overrides)")->required();
  c->add_option("--only-concurrency", ca->only_concurrency, "fit on the points of these concurrencies only");
  c->add_option("--fit", ca->fit, "comma list of parameters (default: all six)");
  c->add_option("--sim-overrides", ca->overrides, "starting values (override YAML)");
  c->callback([&selected, ca] { selected = [ca] { return run_calibrate(*ca); }; });
}

}  // namespace servebench::cli
