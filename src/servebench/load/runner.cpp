#include "servebench/load/runner.hpp"

#include <algorithm>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "servebench/http/url.hpp"
#include "servebench/load/conversation.hpp"
#include "servebench/load/text_realign.hpp"
#include "servebench/load/time_base.hpp"

namespace servebench::load {
namespace {

using util::ErrorKind;

constexpr std::int64_t k_warmup_max_tokens = 32;  // warmup warms the path, not the decode length

bool is_chat(wire::Backend b) { return wire::route_of(b) == wire::Route::chat_completions; }

// The prompt in the form the route takes; chat routes get token-id prompts realigned to text.
util::Result<wire::Prompt> wire_prompt(Prompt p, wire::Backend backend, ServerControl& control, std::mt19937_64& rng) {
  if (!is_chat(backend)) {
    if (!p.ids.empty()) return wire::Prompt{std::move(p.ids)};
    return wire::Prompt{p.messages.empty() ? std::move(p.text) : prompt_text(p)};
  }
  if (!p.messages.empty()) {
    std::vector<wire::ChatMessage> messages;
    for (auto& m : p.messages) messages.push_back({std::move(m.role), std::move(m.content)});
    return wire::Prompt{std::move(messages)};
  }
  if (!p.ids.empty()) {
    TextCodec* codec = control.codec();
    const auto vocab = control.vocabulary();
    if (codec == nullptr || !vocab) {
      return util::failf(ErrorKind::bad_input,
                         "backend {} takes text, and the server offers no /tokenize and /detokenize to turn token-id "
                         "prompts into text of exact length; use a completions backend or a text dataset",
                         wire::to_string(backend));
    }
    if (auto ok = realign_to_text(p, *codec, *vocab, rng); !ok) return std::unexpected(ok.error());
  }
  return wire::Prompt{std::vector<wire::ChatMessage>{{"user", std::move(p.text)}}};
}

util::Result<std::vector<PreparedRequest>> prepare(const std::vector<Prompt>& prompts, const RunSpec& spec,
                                                   const std::string& model, ServerControl& control,
                                                   std::optional<std::int64_t> max_tokens_cap) {
  std::mt19937_64 rng(spec.seed ^ 0x5eedULL);
  std::vector<PreparedRequest> out;
  out.reserve(prompts.size());
  for (const Prompt& p : prompts) {
    wire::GenerationRequest g;
    auto wire = wire_prompt(p, spec.backend, control, rng);
    if (!wire) return std::unexpected(wire.error());
    g.prompt = std::move(*wire);
    g.model = model;
    g.max_tokens = max_tokens_cap ? std::min(p.output_tokens, *max_tokens_cap) : p.output_tokens;
    if (spec.request.ignore_eos) g.min_tokens = g.max_tokens;
    g.ignore_eos = spec.request.ignore_eos;
    g.temperature = spec.request.temperature;
    g.seed = spec.request.seed;
    g.stream = spec.request.stream;
    g.include_usage = true;
    g.continuous_usage = true;  // exact tokens per chunk where the engine offers it
    g.cache_prompt = spec.request.cache_prompt;
    g.extra_body = spec.request.extra_body;
    PreparedRequest r;
    if (auto ok = wire::build_request_body(spec.backend, g, r.body); !ok) return std::unexpected(ok.error());
    r.input_tokens_planned = p.input_tokens;
    r.output_tokens_requested = g.max_tokens;
    if (p.after) {
      out[*p.after].next = static_cast<std::uint32_t>(out.size());
      out[*p.after].think = p.think;
      r.waits = true;
    }
    out.push_back(std::move(r));
  }
  return out;
}

int thread_count(const RunSpec& spec) {
  int t = spec.threads > 0 ? spec.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const auto streams = std::min<std::int64_t>(spec.max_concurrency.value_or(std::ssize(spec.prompts)),
                                              std::ssize(spec.prompts));
  return static_cast<int>(std::clamp<std::int64_t>(streams, 1, t));
}

util::Result<PhaseSpec> phase_spec(const RunSpec& spec, std::vector<PreparedRequest> requests, Schedule schedule) {
  auto url = http::parse_url(spec.base_url);
  if (!url) return std::unexpected(url.error());
  PhaseSpec p;
  p.url = std::move(*url);
  p.target = std::string(wire::path_of(wire::route_of(spec.backend)));
  if (!spec.api_key.empty()) p.headers.push_back({"Authorization", "Bearer " + spec.api_key});
  p.streaming = spec.request.stream ? Streaming::sse : Streaming::whole_body;
  p.requests = std::move(requests);
  p.schedule = std::move(schedule);
  p.max_concurrency = spec.max_concurrency;
  p.threads = thread_count(spec);
  p.timeout = spec.request.timeout;
  p.stall_timeout = spec.request.stall_timeout;
  p.clock = spec.clock;
  p.interrupt = spec.interrupt;
  return p;
}

util::Result<std::int64_t> warm_up(const RunSpec& spec, const std::string& model, ServerControl& control) {
  if (spec.warmup_prompts.empty()) return 0;
  auto requests = prepare(spec.warmup_prompts, spec, model, control, k_warmup_max_tokens);
  if (!requests) return std::unexpected(requests.error());
  auto schedule = make_schedule({.num_requests = std::ssize(spec.warmup_prompts)});
  auto p = phase_spec(spec, std::move(*requests), std::move(*schedule));
  if (!p) return std::unexpected(p.error());
  auto warm = run_phase(std::move(*p));
  if (!warm) return std::unexpected(warm.error());
  const auto failed = std::count_if(warm->records.begin(), warm->records.end(), [](auto& r) { return !r.ok(); });
  if (warm->interrupted) return failed;  // the measured phase stops at once too
  if (failed == std::ssize(warm->records)) {
    return util::failf(ErrorKind::failed, "every warmup request failed; the first: {}: {}",
                       to_string(warm->records[0].error), warm->records[0].error_message);
  }
  return failed;
}

RunEcho echo_of(const RunSpec& spec, std::string model) {
  RunEcho e;
  e.backend = std::string(wire::to_string(spec.backend));
  e.model = std::move(model);
  e.base_url = spec.base_url;
  e.num_prompts = std::ssize(spec.prompts);
  e.warmup_requests = std::ssize(spec.warmup_prompts);
  e.max_concurrency = spec.max_concurrency;
  e.request_rate = spec.request_rate;
  e.burstiness = spec.burstiness;
  e.gpus = spec.metrics.gpus;
  e.metric_options = spec.metrics;
  e.metric_options.open_loop = spec.request_rate.has_value() || !spec.send_offsets.empty();
  return e;
}

void finish(RunResult& r, PhaseResult phase, const CounterWindow& window, double lag_limit) {
  r.interrupted = phase.interrupted;
  r.not_sent = phase.not_sent;
  r.cut_off = phase.cut_off;
  r.records = std::move(phase.records);
  r.chunks = std::move(phase.chunks);
  r.wall_span = phase.span;
  r.metrics = compute_metrics(r.records, r.chunks, r.echo.metric_options);
  const LoopLoad loops{util::to_seconds(phase.loop_cpu), phase.max_loop_busy, phase.threads};
  // Client lag is real time, so it is judged against the real TPOT, before any conversion.
  const auto scale = sim_time_scale(r.server_info);
  r.client = assess_client({.records = r.records,
                            .lags = &phase.lags,
                            .loops = loops,
                            .median_tpot_ms = r.metrics.tpot_ms.median,
                            .limit_fraction = lag_limit,
                            .method = r.echo.metric_options.method,
                            .open_loop = r.echo.metric_options.open_loop,
                            .sim_time_scale = scale,
                            .sim_steps = window.sim_steps});
  if (scale) {
    to_simulated_time(r.records, r.chunks, r.wall_span, *scale);
    r.metrics = compute_metrics(r.records, r.chunks, r.echo.metric_options);
    r.time_scale = *scale;
  }
  r.cache.hit_rate = window.hit_rate;
  if (r.metrics.native_accept_length) {
    r.accept_length = r.metrics.native_accept_length;
    r.accept_length_source = "native_meta";
  } else if (window.accept_length) {
    r.accept_length = window.accept_length;
    r.accept_length_source = "counter_delta";
  } else if (window.reported_accept_length) {
    r.accept_length = window.reported_accept_length;
    r.accept_length_source = "server_reported";
  }
}

}  // namespace

util::Result<void> validate(const RunSpec& spec) {
  const RunSettings settings{.num_prompts = std::ssize(spec.prompts),
                              .warmup_requests = std::ssize(spec.warmup_prompts),
                              .max_concurrency = spec.max_concurrency,
                              .request_rate = spec.request_rate,
                              .burstiness = spec.burstiness,
                              .threads = spec.threads,
                              .client_lag_limit = spec.client_lag_limit,
                              .request_timeout = spec.request.timeout,
                              .stall_timeout = spec.request.stall_timeout};
  if (auto ok = check_settings(settings, *spec.setting_names); !ok) return ok;
  for (const Prompt& p : spec.prompts) {
    if (p.output_tokens <= 0) return util::fail(ErrorKind::bad_input, "every prompt needs a positive output length");
  }
  if (auto ok = check_conversations(spec.prompts, spec.request_rate.has_value()); !ok) return ok;
  if (!spec.send_offsets.empty()) {
    if (spec.send_offsets.size() != spec.prompts.size()) {
      return util::fail(ErrorKind::bad_input, "a send time is needed for every prompt");
    }
    if (!std::is_sorted(spec.send_offsets.begin(), spec.send_offsets.end())) {
      return util::fail(ErrorKind::bad_input, "send times must not go back");
    }
    if (spec.request_rate) return util::fail(ErrorKind::bad_input, "a trace sets its own send times; drop --request-rate");
  }
  for (const Prompt& p : spec.warmup_prompts) {
    if (p.after) return util::fail(ErrorKind::bad_input, "warmup prompts cannot be conversation turns");
  }
  if (auto url = http::parse_url(spec.base_url); !url) return std::unexpected(url.error());
  return {};
}

util::Result<RunResult> run(const RunSpec& spec, ServerControl& control) {
  if (auto ok = validate(spec); !ok) return std::unexpected(ok.error());
  if (auto ok = control.check_health(); !ok) return std::unexpected(ok.error());
  std::string model = spec.model;
  if (model.empty()) {
    auto first = control.first_model();
    if (!first) return std::unexpected(first.error());
    model = std::move(*first);
  }
  RunResult result;
  result.echo = echo_of(spec, model);
  result.server_info = control.server_info();
  result.server_facts = control.facts();
  auto requests = prepare(spec.prompts, spec, model, control, std::nullopt);
  if (!requests) return std::unexpected(requests.error());
  auto schedule = make_schedule({.num_requests = std::ssize(spec.prompts), .rate = spec.request_rate,
                                 .arrival = spec.arrival, .burstiness = spec.burstiness, .seed = spec.seed});
  if (!schedule) return std::unexpected(schedule.error());
  if (!spec.send_offsets.empty()) {  // a trace: each request at its own time
    schedule->offsets = spec.send_offsets;
    schedule->open_loop = true;
  }
  if (spec.flush_cache) {
    if (auto ok = control.flush_cache(); !ok) return std::unexpected(util::with_context(ok.error(), "--flush-cache"));
    result.cache.flushed = true;
  }
  auto warm = warm_up(spec, model, control);
  if (!warm) return std::unexpected(warm.error());
  result.warmup_failed = *warm;
  auto p = phase_spec(spec, std::move(*requests), std::move(*schedule));
  if (!p) return std::unexpected(p.error());
  p->on_progress = spec.on_progress;
  p->measure_noise_floor = true;
  p->burn_per_read = spec.client_burn_per_read;
  p->loop_stall = spec.client_loop_stall;
  p->loop_lag_period = k_loop_lag_period;
  control.begin_window();
  result.started_at = spec.wall_clock->now();
  auto phase = run_phase(std::move(*p));
  const CounterWindow window = control.end_window();
  if (!phase) return std::unexpected(phase.error());
  finish(result, std::move(*phase), window, spec.client_lag_limit);
  return result;
}

}  // namespace servebench::load
