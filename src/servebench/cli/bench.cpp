// `servebench bench`: one benchmark run, a drop-in for `python -m sglang.bench_serving` (same main
// flags, same JSONL keys). Flags become a load::RunSpec; load::run does the work.
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

struct BenchFlags {
  std::string backend = "sglang", base_url, host = "127.0.0.1", model, dataset_name = "random", dataset_path;
  std::optional<int> port;
  std::int64_t random_input_len = 1024, random_output_len = 1024, num_prompts = 1000, warmup_requests = 1;
  double random_range_ratio = 1.0, burstiness = 1.0, temperature = 0.0, request_timeout_s = 0;
  double stall_timeout_s = 300;
  double max_client_lag = load::k_default_client_lag_limit;
  std::int64_t plant_client_burn_us = 0;
  std::int64_t plant_client_stall_ms = 0;
  std::optional<std::int64_t> max_concurrency, sharegpt_output_len, vocab_size;
  std::string request_rate = "inf", arrival = "poisson", tag, extra_request_body, output_file, per_request;
  std::uint64_t seed = 1;
  bool disable_ignore_eos = false, flush_cache = false, output_details = false, no_progress = false;
  bool allow_failures = false;
  std::string api_key_env = "OPENAI_API_KEY", percentile_method = "nearest-rank", metric_percentiles = "50,90,95,99";
  std::string output_format = "sglang";
  std::vector<std::string> goodput;
  std::string slo;  // --slo ttft_p99_ms=…,tpot_p50_ms=… (load/slo.hpp)
  std::optional<int> num_gpus;
  int threads = 0;
  load::SharedPrefixWorkload gsp;
  load::ConversationWorkload mt;
  double mt_think_time_s = 0;
  load::TraceOptions trace;
  std::optional<std::int64_t> trace_max_requests;
  std::optional<double> trace_max_duration_s;
  CLI::Option* range_ratio_option = nullptr;
  CLI::Option* port_option = nullptr;
  CLI::Option* host_option = nullptr;
};

void define_flags(CLI::App& c, BenchFlags& f) {
  c.add_option("--backend", f.backend, "sglang (native /generate), sglang-oai, sglang-oai-chat, vllm, vllm-chat, "
                                        "llamacpp, trtllm, openai, openai-chat, sim")->capture_default_str();
  c.add_option("--base-url", f.base_url, "server URL, e.g. http://127.0.0.1:30000 (else --host/--port)");
  f.host_option = c.add_option("--host", f.host, "server host")->capture_default_str();
  f.port_option = c.add_option("--port", f.port, "server port (default: the backend's usual port)");
  c.add_option("--model", f.model, "model name sent in requests (default: first of /v1/models)");
  c.add_option("--dataset-name", f.dataset_name, "random, random-ids, corpus, custom, sharegpt, "
                                                   "generated-shared-prefix, multi-turn, trace")->capture_default_str();
  c.add_option("--dataset-path", f.dataset_path, "corpus text, custom JSONL, ShareGPT JSON or Mooncake trace file");
  c.add_option("--random-input-len", f.random_input_len)->capture_default_str();
  c.add_option("--random-output-len", f.random_output_len)->capture_default_str();
  f.range_ratio_option = c.add_option("--random-range-ratio", f.random_range_ratio,
                                      "lengths uniform in [floor(r*L), L] (sglang semantics)")->capture_default_str();
  c.add_option("--num-prompts", f.num_prompts)->capture_default_str();
  c.add_option("--max-concurrency", f.max_concurrency, "cap on requests in flight");
  c.add_option("--request-rate", f.request_rate, "inf, or requests/s (open loop)")->capture_default_str();
  c.add_option("--burstiness", f.burstiness, "gamma shape of inter-arrival times (1 = Poisson)")->capture_default_str();
  c.add_option("--arrival", f.arrival, "poisson, gamma or constant inter-arrival times")->capture_default_str();
  c.add_option("--seed", f.seed)->capture_default_str();
  c.add_option("--warmup-requests", f.warmup_requests)->capture_default_str();
  c.add_flag("--disable-ignore-eos", f.disable_ignore_eos);
  c.add_option("--temperature", f.temperature)->capture_default_str();
  c.add_flag("--flush-cache", f.flush_cache, "flush the server's prefix cache before the run");
  c.add_option("--output-file", f.output_file, "append one JSON line (default: sglang's file name)");
  c.add_flag("--output-details", f.output_details, "per-request arrays in the JSON line");
  c.add_option("--tag", f.tag);
  c.add_option("--extra-request-body", f.extra_request_body, "JSON object merged into every request");
  c.add_option("--sharegpt-output-len", f.sharegpt_output_len, "output length for custom/sharegpt prompts");
  c.add_option("--gsp-num-groups", f.gsp.num_groups)->capture_default_str();
  c.add_option("--gsp-prompts-per-group", f.gsp.prompts_per_group)->capture_default_str();
  c.add_option("--gsp-system-prompt-len", f.gsp.system_len)->capture_default_str();
  c.add_option("--gsp-question-len", f.gsp.question_len)->capture_default_str();
  c.add_option("--gsp-output-len", f.gsp.output_len)->capture_default_str();
  c.add_option("--mt-num-conversations", f.mt.conversations, "multi-turn: conversations (each runs closed loop)")
      ->capture_default_str();
  c.add_option("--mt-turns", f.mt.turns, "multi-turn: turns per conversation; user tokens per turn are "
                                         "--random-input-len, replies --random-output-len")->capture_default_str();
  c.add_option("--mt-think-time", f.mt_think_time_s, "multi-turn: seconds between a reply and the next turn")
      ->capture_default_str();
  c.add_option("--trace-block-size", f.trace.block_size, "trace: tokens per hash id (Mooncake: 512)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20))->capture_default_str();
  c.add_option("--trace-time-scale", f.trace.time_scale, "trace: send time = timestamp x this (0.5: twice as fast)")
      ->check(finite_range(0, 1e6))->capture_default_str();
  c.add_option("--trace-max-requests", f.trace_max_requests, "trace: only the first N requests")
      ->check(CLI::PositiveNumber);
  c.add_option("--trace-max-duration", f.trace_max_duration_s, "trace: only requests with timestamp <= this many s")
      ->check(finite_range(0, 1e9));
  c.add_option("--api-key-env", f.api_key_env, "environment variable holding the API key")->capture_default_str();
  c.add_option("--percentile-method", f.percentile_method, "nearest-rank or linear")->capture_default_str();
  c.add_option("--metric-percentiles", f.metric_percentiles)->capture_default_str();
  c.add_option("--goodput", f.goodput, "SLOs in ms: ttft:MS tpot:MS e2e:MS");
  c.add_option("--slo", f.slo, "SLO keys, e.g. ttft_p99_ms=2000,tpot_p50_ms=30: goodput per request, met per run");
  c.add_option("--num-gpus", f.num_gpus, "GPUs behind the server (default: tp_size x pp_size from /server_info)");
  c.add_option("--per-request", f.per_request, "write one JSON line per request to this file");
  c.add_option("--output-format", f.output_format, "sglang or vllm keys")->capture_default_str();
  c.add_option("--request-timeout", f.request_timeout_s, "seconds per whole request (0: none)")->capture_default_str();
  c.add_option("--stall-timeout", f.stall_timeout_s,
               "seconds without a response byte before a request counts as stalled (0: none)")
      ->capture_default_str();
  c.add_option("--vocab-size", f.vocab_size, "vocabulary size when the server does not report it");
  c.add_option("--max-client-lag", f.max_client_lag,
               "client lag p99 allowed, as a fraction of the median TPOT, before the run is invalid")
      ->capture_default_str();
  // Hidden: makes the client slow on purpose, so tests can show the health gate fails such a run.
  c.add_option("--plant-client-burn-us", f.plant_client_burn_us, "burn this much CPU after every socket read")
      ->check(CLI::NonNegativeNumber)
      ->group("");
  c.add_option("--plant-client-stall-ms", f.plant_client_stall_ms, "each loop thread burns this much CPU every 100 ms")
      ->check(CLI::Range(0, 100))
      ->group("");
  c.add_flag("--no-progress", f.no_progress);
  c.add_option("--threads", f.threads, "event-loop threads (0: one per core)")->capture_default_str();
  c.add_flag("--allow-failures", f.allow_failures, "exit 0 even if requests failed");
}

template <class T>
T need(util::Result<T> r) {
  return unwrap(std::move(r));
}

int default_port(wire::Backend b) {
  switch (b) {
    case wire::Backend::vllm:
    case wire::Backend::vllm_chat:
    case wire::Backend::trtllm:
    case wire::Backend::openai:
    case wire::Backend::openai_chat: return 8000;
    case wire::Backend::llamacpp: return 8080;
    default: return 30000;
  }
}

std::string base_url_of(const BenchFlags& f, wire::Backend backend) {
  if (!f.base_url.empty()) {
    if (f.host_option->count() > 0 || f.port_option->count() > 0) {
      throw CommandError(k_exit_bad_input, "--base-url cannot be combined with --host or --port");
    }
    return f.base_url;
  }
  return fmt::format("http://{}:{}", f.host, f.port.value_or(default_port(backend)));
}

load::MetricOptions metric_options(const BenchFlags& f) {
  load::MetricOptions m;
  m.method = need(stats::parse_percentile_method(f.percentile_method));
  m.percentiles = need(load::parse_percentile_list(f.metric_percentiles));
  m.goodput = need(load::parse_goodput(f.goodput));
  if (!f.slo.empty()) {
    if (!f.goodput.empty()) throw CommandError(k_exit_bad_input, "give --slo or --goodput, not both");
    m.goodput = load::per_request_thresholds(need(load::parse_slo(f.slo)));
  }
  if (f.num_gpus) {
    if (*f.num_gpus <= 0) throw CommandError(k_exit_bad_input, "--num-gpus must be positive");
    m.gpus = *f.num_gpus;
  }
  return m;
}

load::Arrival arrival_of(const BenchFlags& f) {
  if (f.arrival == "constant") return load::Arrival::constant;
  if (f.arrival == "gamma" || f.burstiness != 1.0) return load::Arrival::gamma;
  if (f.arrival == "poisson") return load::Arrival::poisson;
  throw CommandError(k_exit_bad_input, fmt::format("--arrival '{}' is not poisson, gamma or constant", f.arrival));
}

load::WorkloadOptions workload_options(const BenchFlags& f) {
  load::WorkloadOptions w;
  w.kind = need(load::parse_dataset_kind(f.dataset_name));
  w.path = f.dataset_path;
  w.num_prompts = f.num_prompts;
  w.warmup_prompts = f.warmup_requests;
  w.input_len = f.random_input_len;
  w.output_len = f.random_output_len;
  w.range_ratio = f.random_range_ratio;
  w.fixed_output_len = f.sharegpt_output_len;
  w.shared_prefix = f.gsp;
  w.conversation = f.mt;
  w.conversation.user_len = f.random_input_len;
  w.conversation.reply_len = f.random_output_len;
  w.conversation.think = util::from_seconds(f.mt_think_time_s);
  w.trace = f.trace;
  w.trace.max_requests = f.trace_max_requests;
  w.trace.max_duration_s = f.trace_max_duration_s;
  w.seed = f.seed;
  if (f.vocab_size) w.vocabulary = load::safe_vocabulary(*f.vocab_size);
  return w;
}

void check_flags(const BenchFlags& f) {
  const auto bad = [](const std::string& m) { throw CommandError(k_exit_bad_input, m); };
  // The rules load::run applies, checked before the network is touched (--request-rate is
  // checked where it is parsed).
  const load::RunSettings settings{.num_prompts = f.num_prompts,
                                   .warmup_requests = f.warmup_requests,
                                   .max_concurrency = f.max_concurrency,
                                   .request_rate = std::nullopt,  // checked where it is parsed
                                   .burstiness = f.burstiness,
                                   .threads = f.threads,
                                   .client_lag_limit = f.max_client_lag,
                                   .request_timeout = util::from_seconds(f.request_timeout_s),
                                   .stall_timeout = util::from_seconds(f.stall_timeout_s)};
  need(load::check_settings(settings, load::k_bench_flags));
  if (f.burstiness != 1.0 && f.request_rate == "inf") bad("--burstiness needs a finite --request-rate");
  if (f.output_format != "sglang" && f.output_format != "vllm") bad("--output-format must be sglang or vllm");
  if (!f.extra_request_body.empty()) {
    auto body = util::parse_json(f.extra_request_body, "--extra-request-body");
    if (!body || !body->is_object()) bad("--extra-request-body must be a JSON object");
  }
}

void show_progress(const load::PhaseProgress& p) {
  fmt::print(stderr, "\r{}\x1b[K", load::progress_line(p));
  std::fflush(stderr);
}

// Every flag checked and converted before the network is touched, so bad usage exits 2 even
// when no server is running.
load::RunSpec run_spec(const BenchFlags& f) {
  check_flags(f);
  load::RunSpec s;
  s.backend = need(wire::parse_backend(f.backend));
  s.base_url = base_url_of(f, s.backend);
  s.model = f.model;
  if (const char* key = std::getenv(f.api_key_env.c_str())) s.api_key = key;
  s.max_concurrency = f.max_concurrency;
  s.request_rate = need(load::parse_request_rate(f.request_rate));
  s.arrival = arrival_of(f);
  s.burstiness = f.burstiness;
  s.seed = f.seed;
  s.request.ignore_eos = !f.disable_ignore_eos;
  s.request.temperature = f.temperature;
  s.request.seed = f.seed;
  s.request.extra_body = f.extra_request_body;
  s.request.timeout = util::from_seconds(f.request_timeout_s);
  s.request.stall_timeout = util::from_seconds(f.stall_timeout_s);
  s.threads = f.threads;
  s.metrics = metric_options(f);
  s.flush_cache = f.flush_cache;
  s.client_lag_limit = f.max_client_lag;
  s.client_burn_per_read = std::chrono::microseconds(f.plant_client_burn_us);
  s.client_loop_stall = std::chrono::milliseconds(f.plant_client_stall_ms);
  if (!f.no_progress && isatty(STDERR_FILENO)) s.on_progress = show_progress;
  return s;
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
    const load::Slo slo = need(load::parse_slo(f.slo));
    const load::SloVerdict v = load::check_slo(slo, r.metrics);
    boost::json::object keys;
    for (const auto& k : slo.keys) keys[k.name] = k.limit_ms;
    line["slo"] = boost::json::object{{"keys", std::move(keys)}, {"met", v.met}, {"summary", v.summary}};
  }
  if (w.expected_hit_rate) line["expected_cache_hit_rate"] = *w.expected_hit_rate;
  if (!w.turns.empty()) line["ttft_ms_by_turn"] = load::to_json(w.turns);
  need(util::append_durable(path, util::to_json_text(line) + "\n"));
  if (!f.per_request.empty()) need(load::write_request_log(f.per_request, r));
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
  const std::string out_path = output_path(f, spec);
  need(check_writable(out_path, "--output-file"));
  need(check_writable(f.per_request, "--per-request"));
  util::raise_open_file_limit();
  const load::WorkloadOptions workload = workload_options(f);
  auto control = need(load::EngineControl::create(spec.backend, spec.base_url, spec.api_key));
  need(control->check_health());
  if (spec.model.empty()) spec.model = need(control->first_model());
  control->set_model(spec.model);
  note_range_ratio(f);
  load::Workload prompts = need(load::make_workload(workload, *control));
  WorkloadReport report{prompts.expected_hit_rate, {}};
  const std::vector<std::int32_t> turns = load::turns_of(prompts.prompts);
  spec.prompts = std::move(prompts.prompts);
  spec.warmup_prompts = std::move(prompts.warmup);
  spec.send_offsets = std::move(prompts.send_offsets);
  if (!spec.metrics.gpus) spec.metrics.gpus = load::gpus_from_server_info(control->server_info());
  spec.interrupt = &g_interrupted;
  catch_stop_signals();  // from here on a Ctrl-C keeps what was measured
  const load::RunResult result = need(load::run(spec, *control));
  if (spec.on_progress) fmt::print(stderr, "\n");
  fmt::print("{}", load::summary_table(result));
  if (workload.kind == load::DatasetKind::multi_turn) {
    report.turns = load::ttft_by_turn(result.records, turns, spec.metrics.method);
  }
  print_workload_report(report, result);
  if (!f.slo.empty()) {
    const load::SloVerdict v = load::check_slo(need(load::parse_slo(f.slo)), result.metrics);
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
  define_flags(*cmd, *flags);
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
  define_flags(*s, sweep->bench);
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
      o.slo = need(load::parse_slo(sweep->bench.slo));
      if (sweep->search != "concurrency" && sweep->search != "rate") {
        throw CommandError(k_exit_bad_input, "--search must be concurrency or rate");
      }
      o.search = {sweep->search == "rate" ? load::SearchKind::rate : load::SearchKind::concurrency, sweep->low,
                  sweep->high, sweep->max_runs, sweep->rate_tolerance};
      need(load::check_search(o.search));
      o.out = sweep->out;
      o.arm = sweep->arm;
      o.scenario = sweep->scenario;
      return run_sweep(run_spec(sweep->bench), workload_options(sweep->bench), o);
    };
  });
}

}  // namespace servebench::cli
