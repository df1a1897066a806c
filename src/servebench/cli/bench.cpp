// `servebench bench`: one benchmark run, a drop-in for `python -m sglang.bench_serving` (same main
// flags, same JSONL keys; cli/bench_flags.hpp turns them into a load::RunSpec), and `servebench sweep`.
// load::run does the work; this file runs it, prints the summary and writes the results.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "servebench/cli/bench_flags.hpp"
#include "servebench/cli/command.hpp"
#include "servebench/cli/sweep.hpp"
#include "servebench/load/engine_control.hpp"
#include "servebench/load/option_parsing.hpp"
#include "servebench/load/progress_line.hpp"
#include "servebench/load/request_log.hpp"
#include "servebench/load/result_formats.hpp"
#include "servebench/load/run_settings.hpp"
#include "servebench/load/runner.hpp"
#include "servebench/load/summary_table.hpp"
#include "servebench/load/workload.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/process_limits.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cli {
namespace {

// SIGINT/SIGTERM during the run: the handler only records it; the measured phase sees the flag,
// stops sending, gives the requests in flight their grace and the result is written as usual.
// SA_RESETHAND: a second signal ends the process at once.
std::atomic<bool> g_interrupted{false};
volatile std::sig_atomic_t g_signal = 0;

extern "C" void record_stop_signal(int sig) {
  g_signal = sig;
  g_interrupted.store(true);
}

void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = record_stop_signal;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}




bool wants_progress(const BenchFlags& f) { return !f.no_progress && isatty(STDERR_FILENO); }

void show_progress(const load::PhaseProgress& p) {
  fmt::print(stderr, "\r{}\x1b[K", load::progress_line(p));
  std::fflush(stderr);
}


// Shared-prefix workloads: the hit rate a prefix cache should reach, and TTFT per turn.
struct WorkloadReport {
  std::optional<double> expected_hit_rate;
  std::vector<load::TurnLatency> turns;
};

void print_workload_report(const WorkloadReport& w, const load::RunResult& r) {
  if (w.expected_hit_rate) {
    fmt::print("Expected cache hit rate: {:.4f} (measured {})\n", *w.expected_hit_rate,
               r.cache.hit_rate ? fmt::format("{:.4f}", *r.cache.hit_rate) : std::string("unknown"));
  }
  for (const auto& t : w.turns) {
    fmt::print("TTFT turn {} (ms): median {:.2f}, p99 {:.2f} over {} requests\n", t.turn, t.ttft_median_ms,
               t.ttft_p99_ms, t.requests);
  }
}

std::string output_path(const BenchFlags& f, const load::RunSpec& spec) {
  return !f.output_file.empty() ? f.output_file
                                : load::default_output_name(f.backend, f.dataset_name, f.num_prompts,
                                                            f.random_input_len, f.random_output_len,
                                                            spec.wall_clock->now());
}

// Before the first request: a result that cannot be written must not cost a run.
util::Result<void> check_writable(const std::string& path, std::string_view flag) {
  if (path.empty()) return {};
  const std::filesystem::path p(path);
  const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  const bool exists = std::filesystem::exists(p, ec);
  if (exists ? ::access(p.c_str(), W_OK) != 0 : ::access(dir.c_str(), W_OK) != 0) {
    return util::failf(util::ErrorKind::bad_input, "{} {}: cannot write there ({})", flag, path,
                       exists ? "the file is not writable" : "no writable directory " + dir.string());
  }
  return {};
}

void write_outputs(const BenchFlags& f, const load::RunResult& r, const std::string& path, const WorkloadReport& w) {
  const load::OutputLabels labels{.dataset_name = f.dataset_name, .random_input_len = f.random_input_len,
                                  .random_output_len = f.random_output_len,
                                  .sharegpt_output_len = f.sharegpt_output_len,
                                  .random_range_ratio = f.random_range_ratio, .tag = f.tag};
  const auto format = f.output_format == "vllm" ? load::OutputFormat::vllm : load::OutputFormat::sglang;
  const auto details = f.output_details ? load::Details::per_request : load::Details::summary;
  boost::json::object line = load::format_result(format, r, labels, details);
  if (!f.slo.empty()) {
    const load::Slo slo = unwrap(load::parse_slo(f.slo));
    const load::SloVerdict v = load::check_slo(slo, r.metrics);
    boost::json::object keys;
    for (const auto& k : slo.keys) keys[k.name] = k.limit_ms;
    line["slo"] = boost::json::object{{"keys", std::move(keys)}, {"met", v.met}, {"summary", v.summary}};
  }
  if (w.expected_hit_rate) line["expected_cache_hit_rate"] = *w.expected_hit_rate;
  if (!w.turns.empty()) line["ttft_ms_by_turn"] = load::to_json(w.turns);
  unwrap(util::append_durable(path, util::to_json_text(line) + "\n"));
  if (!f.per_request.empty()) unwrap(load::write_request_log(f.per_request, r));
}

void note_range_ratio(const BenchFlags& f) {
  const bool random = f.dataset_name == "random" || f.dataset_name == "random-ids";
  if (random && f.range_ratio_option->count() == 0) {
    fmt::print(stderr, "note: --random-range-ratio defaults to 1.0 here (every prompt exactly {} tokens); "
                       "sglang's default 0.0 draws lengths in [1, {}], about half on average\n",
                f.random_input_len, f.random_input_len);
  }
}

int run_bench(const BenchFlags& f) {
  load::RunSpec spec = run_spec(f);
  if (wants_progress(f)) spec.on_progress = show_progress;
  const std::string out_path = output_path(f, spec);
  unwrap(check_writable(out_path, "--output-file"));
  unwrap(check_writable(f.per_request, "--per-request"));
  util::raise_open_file_limit();
  const load::WorkloadOptions workload = workload_options(f);
  auto control = unwrap(load::EngineControl::create(spec.backend, spec.base_url, spec.api_key));
  unwrap(control->check_health());
  if (spec.model.empty()) spec.model = unwrap(control->first_model());
  control->set_model(spec.model);
  note_range_ratio(f);
  load::Workload prompts = unwrap(load::make_workload(workload, *control));
  WorkloadReport report{prompts.expected_hit_rate, {}};
  const std::vector<std::int32_t> turns = load::turns_of(prompts.prompts);
  spec.prompts = std::move(prompts.prompts);
  spec.warmup_prompts = std::move(prompts.warmup);
  spec.send_offsets = std::move(prompts.send_offsets);
  if (!spec.metrics.gpus) spec.metrics.gpus = load::gpus_from_server_info(control->server_info());
  spec.interrupt = &g_interrupted;
  catch_stop_signals();  // from here on a Ctrl-C keeps what was measured
  const load::RunResult result = unwrap(load::run(spec, *control));
  if (spec.on_progress) fmt::print(stderr, "\n");
  fmt::print("{}", load::summary_table(result));
  if (workload.kind == load::DatasetKind::multi_turn) {
    report.turns = load::ttft_by_turn(result.records, turns, spec.metrics.method);
  }
  print_workload_report(report, result);
  if (!f.slo.empty()) {
    const load::SloVerdict v = load::check_slo(unwrap(load::parse_slo(f.slo)), result.metrics);
    const auto& g = result.metrics.goodput;
    fmt::print("SLO {}: {}; goodput {:.3f} req/s ({} of {} requests good)\n", v.met ? "met" : "missed", v.summary,
               g ? g->request_goodput : 0.0, g ? g->good_requests : 0, result.metrics.completed);
  }
  std::fflush(stdout);  // the summary first, then any final error line, also when both go to one file
  write_outputs(f, result, out_path, report);
  if (result.interrupted) {
    const int sig = g_signal != 0 ? static_cast<int>(g_signal) : SIGINT;
    fmt::print(stderr, "servebench: interrupted by {}: the result holds the {} requests that ended ({} not sent, "
                       "{} cut off in flight)\n",
               sig == SIGTERM ? "SIGTERM" : "SIGINT", result.records.size(), result.not_sent, result.cut_off);
    return util::exit_code_for_signal(sig);
  }
  if (!result.client.healthy) {
    fmt::print(stderr, "servebench: run invalid: {}\n", result.client.reason);
    return k_exit_measured_failure;
  }
  if (result.metrics.failed > 0 && !f.allow_failures) {
    fmt::print(stderr, "servebench: {} of {} requests failed (see errors_by_kind; --allow-failures to accept)\n",
               result.metrics.failed, result.metrics.num_requests);
    return k_exit_measured_failure;
  }
  return k_exit_ok;
}

// The flags of a sweep that decide its runs, each as given or defaulted: what a resume must repeat.
// Where the server is, how progress is shown and bench's own output files may change between the two.
std::map<std::string, std::string> sweep_settings(const CLI::App& sweep) {
  static const std::set<std::string> k_not_settings{
      "--help",        "--base-url",    "--host",          "--port",         "--out",        "--api-key-env",
      "--no-progress", "--output-file", "--output-format", "--output-details", "--per-request", "--tag"};
  std::map<std::string, std::string> out;
  for (const CLI::Option* o : sweep.get_options()) {
    if (o->get_lnames().empty()) continue;
    const std::string name = "--" + o->get_lnames().front();  // hidden options too (get_name() omits them)
    if (k_not_settings.contains(name)) continue;
    out[name] = o->count() > 0 ? util::join(o->results(), " ") : o->get_default_str();
  }
  return out;
}

}  // namespace

void add_bench(CLI::App& app, CommandFn& selected) {
  auto flags = std::make_shared<BenchFlags>();
  auto* cmd = app.add_subcommand("bench", "one benchmark run against a server (a drop-in for sglang.bench_serving)");
  define_bench_flags(*cmd, *flags);
  cmd->callback([&selected, flags] { selected = [flags] { return run_bench(*flags); }; });

  // `sweep`: bench's flags plus the search (cli/sweep.hpp).
  struct SweepFlags {
    BenchFlags bench;
    std::string search = "concurrency", out, arm = "server", scenario = "slo-search";
    double low = 1, high = 256, rate_tolerance = 0.05;
    int max_runs = 12;
  };
  auto sweep = std::make_shared<SweepFlags>();
  auto* s = app.add_subcommand("sweep", "the highest load that meets an SLO (--slo, --search rate|concurrency)");
  define_bench_flags(*s, sweep->bench);
  s->add_option("--search", sweep->search, "concurrency or rate")->capture_default_str();
  s->add_option("--low", sweep->low, "lowest load tried first")->capture_default_str();
  s->add_option("--high", sweep->high, "highest load tried")->capture_default_str();
  s->add_option("--max-runs", sweep->max_runs, "bound on the number of runs (2..100)")->capture_default_str();
  s->add_option("--rate-tolerance", sweep->rate_tolerance, "a rate bracket this narrow (relative) ends the search")
      ->capture_default_str();
  s->add_option("--out", sweep->out, "run directory for the ledger, per-request records and slo_search.json")
      ->required();
  s->add_option("--arm", sweep->arm, "the arm name of the runs in the ledger")->capture_default_str();
  s->add_option("--scenario", sweep->scenario, "the scenario name of the runs in the ledger")->capture_default_str();
  s->callback([&selected, sweep, s] {
    selected = [sweep, settings = sweep_settings(*s)] {
      SweepOptions o;
      o.settings = settings;
      if (sweep->bench.slo.empty()) throw CommandError(k_exit_bad_input, "sweep needs --slo, e.g. --slo ttft_p99_ms=2000");
      o.slo = unwrap(load::parse_slo(sweep->bench.slo));
      if (sweep->search != "concurrency" && sweep->search != "rate") {
        throw CommandError(k_exit_bad_input, "--search must be concurrency or rate");
      }
      o.search = {sweep->search == "rate" ? load::SearchKind::rate : load::SearchKind::concurrency, sweep->low,
                  sweep->high, sweep->max_runs, sweep->rate_tolerance};
      unwrap(load::check_search(o.search));
      o.out = sweep->out;
      o.arm = sweep->arm;
      o.scenario = sweep->scenario;
      load::RunSpec spec = run_spec(sweep->bench);
      if (wants_progress(sweep->bench)) spec.on_progress = show_progress;
      return run_sweep(std::move(spec), workload_options(sweep->bench), o);
    };
  });
}

}  // namespace servebench::cli
