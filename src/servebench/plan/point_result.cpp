#include "servebench/plan/point_result.hpp"

#include <limits>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/load/client_health.hpp"
#include "servebench/load/metrics.hpp"
#include "servebench/load/point_mapping.hpp"
#include "servebench/load/request_log.hpp"
#include "servebench/plan/virtual_load.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/wire/client_request.hpp"

namespace servebench::plan {
namespace {

namespace json = boost::json;
using results::PointStatus;

constexpr std::int64_t k_warmup_max_tokens = 32;  // the bench's warmup cap

// What every record of a predicted point carries.
void mark_predicted(results::PointRecord& r, const PointEnv& env) {
  r.extra["time_base"] = "simulated";
  r.extra["predicted"] = env.provenance;
}

results::PointRecord base_record(const PointEnv& env, const campaign::PlannedPoint& p) {
  const auto& s = env.spec->scenarios[p.scenario];
  results::PointRecord r;
  r.campaign = env.spec->name;
  r.arm = env.arm->name;
  r.scenario = s.name;
  r.isl = s.isl;
  r.osl = s.osl;
  r.concurrency = p.concurrency;
  r.repeat = p.repeat;
  r.num_prompts = p.num_prompts;
  r.gpus = env.arm->gpus;
  r.prompts.source = std::string(campaign::to_string(env.spec->protocol.prompts.kind));
  r.server = env.server;
  r.tool = env.tool;
  r.started_at = util::format_utc(env.wall->now());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  r.ttft_ms = r.tpot_ms = r.itl_ms = r.e2e_ms = {nan, nan, nan, nan, nan, nan, nan};
  mark_predicted(r, env);
  return r;
}

VirtualLoad load_of(const PointEnv& env, const campaign::PlannedPoint& p, std::span<const load::Prompt> prompts) {
  const auto& request = env.spec->protocol.request;
  VirtualLoad l;
  l.prompts = prompts;
  l.max_concurrency = p.concurrency;
  l.ignore_eos = request.ignore_eos;
  l.temperature = request.temperature;
  l.seed = request.seed;
  return l;
}

std::optional<double> hit_rate(const sim::EngineCounters& before, const sim::EngineCounters& after) {
  const auto prompt = after.prompt_tokens_total - before.prompt_tokens_total;
  if (prompt <= 0) return std::nullopt;
  return static_cast<double>(after.cached_tokens_total - before.cached_tokens_total) / static_cast<double>(prompt);
}

load::RunResult run_result(const PointEnv& env, const campaign::PlannedPoint& p, VirtualPhase phase,
                           std::int64_t warmups, std::optional<double> hit) {
  const auto& proto = env.spec->protocol;
  load::RunResult r;
  r.echo.backend = std::string(wire::to_string(campaign::backend_of(*env.arm, proto.request.api)));
  r.echo.model = env.arm->model;
  r.echo.num_prompts = p.num_prompts;
  r.echo.warmup_requests = warmups;
  r.echo.max_concurrency = p.concurrency;
  r.echo.gpus = env.arm->gpus;
  r.echo.metric_options.method = proto.percentile;
  r.echo.metric_options.gpus = env.arm->gpus;
  r.records = std::move(phase.records);
  r.chunks = std::move(phase.chunks);
  r.wall_span = phase.span;
  r.metrics = load::compute_metrics(r.records, r.chunks, r.echo.metric_options);
  const load::LagHistograms no_lag;  // no client: nothing lags
  load::HealthInputs health;
  health.records = r.records;
  health.lags = &no_lag;
  health.median_tpot_ms = r.metrics.tpot_ms.median;
  health.limit_fraction = proto.client_lag_limit;
  health.method = proto.percentile;
  r.client = load::assess_client(health);
  r.cache.flushed = proto.cold_cache;
  r.cache.hit_rate = hit;
  if (r.metrics.native_accept_length) {
    r.accept_length = r.metrics.native_accept_length;
    r.accept_length_source = "native_meta";
  }
  r.started_at = env.wall->now();
  r.time_scale = 1;
  return r;
}

// The campaign's verdicts: cache verification, then retries are the caller's.
void judge(results::PointRecord& r, const campaign::ProtocolSpec& proto, std::optional<double> hit, int attempts) {
  r.cache.flushed = proto.cold_cache;
  r.cache.hit_rate = hit;
  r.cache.attempts = attempts;
  r.cache.verified = proto.max_cache_hit_rate && hit && *hit <= *proto.max_cache_hit_rate;
  if (r.status == PointStatus::failed || !proto.max_cache_hit_rate || r.cache.verified) return;
  r.status = PointStatus::invalid;
  r.reason = hit ? fmt::format("cache hit rate {:.4g} > {} after {} attempt{}", *hit, *proto.max_cache_hit_rate,
                               attempts, attempts == 1 ? "" : "s")
                 : std::string("cache hit rate unknown: no prompt token was counted");
}

}  // namespace

util::Result<VirtualPoint> run_virtual_point(const PointEnv& env, const campaign::PlannedPoint& p,
                                             const campaign::ArmLimits& limits) {
  const auto& proto = env.spec->protocol;
  const auto& s = env.spec->scenarios[p.scenario];
  const auto cap = campaign::cap_point(s.isl, s.osl, p.concurrency, limits);
  VirtualPoint out;
  if (!cap.skip_reason.empty()) {
    out.record = base_record(env, p);
    out.record.status = PointStatus::skipped;
    out.record.reason = cap.skip_reason;
    return out;
  }
  const int max_attempts = 1 + (proto.verifies() ? proto.retries : 0);
  json::array rates;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    auto prompts = env.prompts->take(
        {env.arm->name, s.name, s.isl, s.osl, p.concurrency, p.num_prompts, proto.warmup_requests, attempt, nullptr, p.repeat},
        *env.control);
    if (!prompts) return std::unexpected(prompts.error());
    sim::Engine& engine = *env.engine;
    if (proto.cold_cache) SB_CHECK(engine.flush_cache());  // the engine is idle between points
    const auto before = engine.counters();
    VirtualLoad warm = load_of(env, p, prompts->warmup);
    warm.max_tokens_cap = k_warmup_max_tokens;
    auto warmup = run_virtual(engine, warm);
    if (!warmup) return std::unexpected(warmup.error());
    auto phase = run_virtual(engine, load_of(env, p, prompts->measured));
    if (!phase) return std::unexpected(phase.error());
    out.requests += warmup->requests + phase->requests;
    out.steps += warmup->steps + phase->steps;
    const auto hit = hit_rate(before, engine.counters());
    rates.push_back(hit ? json::value(*hit) : json::value(nullptr));
    const load::RunResult result =
        run_result(env, p, std::move(*phase), static_cast<std::int64_t>(prompts->warmup.size()), hit);
    results::PointRecord r = load::to_point_record(result, {env.spec->name, env.arm->name, s.name, s.isl, s.osl, p.concurrency});
    const bool retry = r.status != PointStatus::failed && proto.max_cache_hit_rate && hit && *hit > *proto.max_cache_hit_rate;
    if (retry && attempt < max_attempts) continue;
    const auto base = base_record(env, p);
    r.effective_concurrency = cap.effective;
    r.repeat = p.repeat;
    r.gpus = base.gpus;
    r.prompts = {base.prompts.source, prompts->recycled};
    r.server = base.server;
    r.tool = base.tool;
    judge(r, proto, hit, attempt);
    r.extra["protocol"] = json::object{{"attempt_hit_rates", rates}, {"overhead_s", 0.0}};
    mark_predicted(r, env);
    const auto log = results::RunLayout(env.run_dir).requests(env.arm->name, s.name, p.concurrency, p.repeat);
    if (auto ok = util::make_dirs(log.parent_path()); !ok) return std::unexpected(ok.error());
    if (auto ok = load::write_request_log(log, result); !ok) return std::unexpected(ok.error());
    out.record = std::move(r);
    return out;
  }
  SB_CHECK(false);  // the last attempt always returns
  return out;
}

}  // namespace servebench::plan
