#include "servebench/cli/bench_flags.hpp"

#include <unistd.h>

#include <cstdlib>

#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/load/engine_control.hpp"
#include "servebench/load/option_parsing.hpp"
#include "servebench/load/run_settings.hpp"
#include "servebench/load/slo.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cli {

void define_bench_flags(CLI::App& c, BenchFlags& f) {
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

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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
  return s;
}

}  // namespace servebench::cli
