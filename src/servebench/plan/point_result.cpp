#include "servebench/plan/point_result.hpp"

#include <limits>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/campaign/scenario_kind.hpp"
#include "servebench/load/client_health.hpp"
#include "servebench/load/conversation.hpp"
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

// Every GPU of the fleet: the arm's, once per replica.
std::int64_t fleet_gpus(const PointEnv& env) { return env.arm->gpus * static_cast<std::int64_t>(env.engines.size()); }

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
  r.gpus = fleet_gpus(env);
  r.prompts.source = std::string(campaign::to_string(env.spec->protocol.prompts.kind));
  r.server = env.server;
  r.tool = env.tool;
  r.started_at = util::format_utc(env.wall->now());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  r.ttft_ms = r.tpot_ms = r.itl_ms = r.e2e_ms = {nan, nan, nan, nan, nan, nan, nan};
  mark_predicted(r, env);
  return r;
}

VirtualLoad load_of(const PointEnv& env, const campaign::PlannedPoint& p, std::span<const load::Prompt> prompts,
                    std::vector<util::Nanos> offsets = {}) {
  const auto& request = env.spec->protocol.request;
  VirtualLoad l;
  l.prompts = prompts;
  l.offsets = std::move(offsets);
  l.max_concurrency = p.concurrency;
  l.ignore_eos = request.ignore_eos;
  l.temperature = request.temperature;
  l.seed = request.seed;
  return l;
}

// Prompt and cached tokens over the fleet, from the engines' counters.
std::pair<std::int64_t, std::int64_t> token_counts(std::span<sim::Engine* const> engines) {
  std::pair<std::int64_t, std::int64_t> n{0, 0};
  for (const sim::Engine* e : engines) {
    const auto c = e->counters();
    n.first += c.prompt_tokens_total;
    n.second += c.cached_tokens_total;
  }
  return n;
}

std::optional<double> hit_rate(std::pair<std::int64_t, std::int64_t> before, std::pair<std::int64_t, std::int64_t> after) {
  const auto prompt = after.first - before.first;
  if (prompt <= 0) return std::nullopt;
  return static_cast<double>(after.second - before.second) / static_cast<double>(prompt);
}

load::RunResult run_result(const PointEnv& env, const campaign::PlannedPoint& p, VirtualPhase phase,
                           std::int64_t warmups, std::optional<double> hit, bool open_loop) {
  const auto& proto = env.spec->protocol;
  load::RunResult r;
  r.echo.backend = std::string(wire::to_string(campaign::backend_of(*env.arm, proto.request.api)));
  r.echo.model = env.arm->model;
  r.echo.num_prompts = p.num_prompts;
  r.echo.warmup_requests = warmups;
  r.echo.max_concurrency = p.concurrency;
  r.echo.gpus = fleet_gpus(env);
  r.echo.metric_options.method = proto.percentile;
  r.echo.metric_options.gpus = fleet_gpus(env);
  r.echo.metric_options.open_loop = open_loop;
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

// The campaign's verdicts: cache verification (the caller retried). A fleet's hit rate on a
// shared-prefix kind is the router's doing: recorded, not held to one engine's expected rate.
void judge(results::PointRecord& r, const PointEnv& env, const campaign::ScenarioSpec& s, std::optional<double> expected,
           std::optional<double> hit, int attempts) {
  const auto& proto = env.spec->protocol;
  r.cache.flushed = proto.cold_cache;
  r.cache.hit_rate = hit;
  r.cache.attempts = attempts;
  const bool fleet_shared = env.engines.size() > 1 && s.kind != campaign::ScenarioKind::fixed;
  const auto verified = fleet_shared ? std::nullopt : campaign::hit_rate_verified(s, proto, expected, hit);
  r.cache.verified = verified.value_or(false);
  if (r.status == PointStatus::failed || verified != false) return;
  r.status = PointStatus::invalid;
  r.reason = hit ? campaign::hit_rate_problem(proto, expected, *hit, attempts)
                 : std::string("cache hit rate unknown: no prompt token was counted");
}

bool should_retry(const results::PointRecord& r, const PointEnv& env, const campaign::ScenarioSpec& s,
                  std::optional<double> expected, std::optional<double> hit) {
  if (r.status == PointStatus::failed || !hit || (env.engines.size() > 1 && s.kind != campaign::ScenarioKind::fixed)) {
    return false;
  }
  return campaign::hit_rate_verified(s, env.spec->protocol, expected, hit) == false;
}

// The fleet on the terminal's and the ledger's terms: replicas, router, every GPU.
boost::json::object fleet_extra(const PointEnv& env, std::span<const load::RequestRecord> records) {
  std::vector<std::int64_t> per_replica(env.engines.size(), 0);
  for (const auto& rec : records) {
    if (rec.replica >= 0 && static_cast<std::size_t>(rec.replica) < per_replica.size()) per_replica[static_cast<std::size_t>(rec.replica)] += 1;
  }
  json::array counts;
  for (const auto n : per_replica) counts.push_back(n);
  return {{"replicas", env.engines.size()}, {"router", to_string(env.router)}, {"gpus_per_replica", env.arm->gpus},
          {"requests_per_replica", std::move(counts)}};
}

// One attempt on the engines: flush, warmup, measured requests, the hit rate over both.
struct Attempt {
  VirtualPhase warmup, measured;
  std::optional<double> hit;
};

util::Result<Attempt> run_attempt(const PointEnv& env, const campaign::PlannedPoint& p, const campaign::PointPrompts& prompts) {
  if (env.spec->protocol.cold_cache) {
    for (sim::Engine* e : env.engines) SB_CHECK(e->flush_cache());  // the engines are idle between points
  }
  std::optional<Router> router;  // its memory of prompts sent starts with the flushed caches
  if (env.engines.size() > 1) router.emplace(env.router, static_cast<int>(env.engines.size()));
  const Fleet fleet{env.engines, router ? &*router : nullptr};
  const auto before = token_counts(env.engines);
  VirtualLoad warm = load_of(env, p, prompts.warmup);
  warm.max_tokens_cap = k_warmup_max_tokens;
  auto warmup = run_virtual(fleet, warm);
  if (!warmup) return std::unexpected(warmup.error());
  auto measured = run_virtual(fleet, load_of(env, p, prompts.measured, prompts.send_offsets));
  if (!measured) return std::unexpected(measured.error());
  return Attempt{std::move(*warmup), std::move(*measured), hit_rate(before, token_counts(env.engines))};
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
  const auto expected = campaign::expected_hit_rate(s, p.num_prompts, proto.warmup_requests);
  const bool verifies = campaign::hit_rate_verified(s, proto, expected, 0.0).has_value();
  const int max_attempts = 1 + (verifies ? proto.retries : 0);
  json::array rates;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    auto prompts = env.prompts->take(
        {env.arm->name, s.name, s.isl, s.osl, p.concurrency, p.num_prompts, proto.warmup_requests, attempt, &s, p.repeat},
        *env.control);
    if (!prompts) return std::unexpected(prompts.error());
    const std::vector<std::int32_t> turns = load::turns_of(prompts->measured);
    auto run = run_attempt(env, p, *prompts);
    if (!run) return std::unexpected(run.error());
    out.requests += run->warmup.requests + run->measured.requests;
    out.steps += run->warmup.steps + run->measured.steps;
    rates.push_back(run->hit ? json::value(*run->hit) : json::value(nullptr));
    const bool open_loop = !prompts->send_offsets.empty();
    const load::RunResult result = run_result(env, p, std::move(run->measured),
                                              static_cast<std::int64_t>(prompts->warmup.size()), run->hit, open_loop);
    results::PointRecord r = load::to_point_record(result, {env.spec->name, env.arm->name, s.name, s.isl, s.osl, p.concurrency});
    if (should_retry(r, env, s, expected, run->hit) && attempt < max_attempts) continue;
    const auto base = base_record(env, p);
    r.effective_concurrency = cap.effective;
    r.repeat = p.repeat;
    r.gpus = base.gpus;
    r.prompts = {base.prompts.source, prompts->recycled};
    r.server = base.server;
    r.tool = base.tool;
    judge(r, env, s, expected, run->hit, attempt);
    r.extra["protocol"] = json::object{{"attempt_hit_rates", rates}, {"overhead_s", 0.0}};
    if (s.kind != campaign::ScenarioKind::fixed) {
      r.prompts.source = std::string(campaign::to_string(s.kind));
      r.extra["workload"] = campaign::workload_extra(s, expected, result.records, turns, proto.percentile);
    }
    if (env.engines.size() > 1) r.extra["fleet"] = fleet_extra(env, result.records);
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
