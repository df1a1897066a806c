#include "servebench/campaign/protocol.hpp"

#include <cmath>
#include <limits>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/campaign/point_window.hpp"
#include "servebench/campaign/scenario_kind.hpp"
#include "servebench/load/conversation.hpp"
#include "servebench/load/point_mapping.hpp"
#include "servebench/load/request_log.hpp"
#include "servebench/load/runner.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::campaign {
namespace {

namespace json = boost::json;
using results::PointStatus;

const ScenarioSpec& scenario_of(const ArmContext& a, const PlannedPoint& p) { return a.spec->scenarios[p.scenario]; }

// Fields every record of the arm carries, whatever its status.
results::PointRecord base_record(const ArmContext& a, const PlannedPoint& p) {
  const ScenarioSpec& s = scenario_of(a, p);
  results::PointRecord r;
  r.campaign = a.spec->name;
  r.arm = a.arm->name;
  r.scenario = s.name;
  r.isl = s.isl;
  r.osl = s.osl;
  r.concurrency = p.concurrency;
  r.repeat = p.repeat;
  r.num_prompts = p.num_prompts;
  r.gpus = a.arm->gpus;
  r.gate = a.gate;
  if (!a.quality.empty()) r.extra["quality"] = a.quality;
  r.prompts.source = std::string(to_string(a.spec->protocol.prompts.kind));
  r.server = a.server_ref;
  r.tool = a.tool;
  r.started_at = util::format_utc(a.clock.wall->now());
  const double undefined = std::numeric_limits<double>::quiet_NaN();
  const results::LatencyStats none{undefined, undefined, undefined, undefined, undefined, undefined, undefined};
  r.ttft_ms = r.tpot_ms = r.itl_ms = r.e2e_ms = none;
  return r;
}

load::RunSpec run_spec(const ArmContext& a, const PlannedPoint& p, PointPrompts prompts) {
  const ProtocolSpec& proto = a.spec->protocol;
  load::RunSpec spec;
  spec.backend = backend_of(*a.arm, proto.request.api);
  spec.base_url = a.server->base_url();
  spec.api_key = a.server->api_key();
  spec.model = a.arm->model;
  spec.prompts = std::move(prompts.measured);
  spec.warmup_prompts = std::move(prompts.warmup);
  spec.send_offsets = std::move(prompts.send_offsets);
  spec.max_concurrency = p.concurrency;
  spec.seed = proto.request.seed;
  spec.request.stream = proto.request.stream;
  spec.request.ignore_eos = proto.request.ignore_eos;
  spec.request.temperature = proto.request.temperature;
  spec.request.seed = proto.request.seed;
  spec.request.cache_prompt = !proto.cold_cache;
  spec.request.timeout = proto.request.timeout;
  spec.request.stall_timeout = proto.request.stall_timeout;
  spec.metrics.method = proto.percentile;
  spec.metrics.gpus = a.arm->gpus;
  spec.flush_cache = true;  // PointWindow::flush_cache is where the protocol's flush and first snapshot happen
  spec.client_lag_limit = proto.client_lag_limit;
  // started_at is campaign time; the measured phase keeps the load generator's own steady clock.
  spec.wall_clock = a.clock.wall;
  spec.setting_names = &load::k_campaign_keys;
  spec.on_progress = a.on_progress;
  return spec;
}

json::object protocol_extra(const PointOutcome& out, const ArmContext& a, const std::string& accept_source) {
  json::array rates;
  for (const double h : out.hit_rates) rates.push_back(util::json_double_or_null(h));
  json::object o{{"attempt_hit_rates", std::move(rates)}, {"overhead_s", util::to_seconds(out.overhead)}};
  if (!accept_source.empty()) o["accept_length_source"] = accept_source;
  if (a.time_scale) o["sim_time_scale"] = *a.time_scale;
  return o;
}

// Verification and gate verdicts on top of what the load generator decided (failed > invalid).
void judge(results::PointRecord& r, const ArmContext& a, const PlannedPoint& p, const PointWindow& w, int attempts) {
  const ProtocolSpec& proto = a.spec->protocol;
  const ScenarioSpec& s = scenario_of(a, p);
  r.cache.flushed = w.flushed();
  r.cache.hit_rate = w.hit_rate();
  r.cache.attempts = attempts;
  const auto expected = expected_hit_rate(s, p.num_prompts, proto.warmup_requests);
  const auto verified = hit_rate_verified(s, proto, expected, w.hit_rate());
  r.cache.verified = verified.value_or(false);
  if (r.status == PointStatus::failed) return;
  if (verified == false) {
    r.status = PointStatus::invalid;
    r.reason = w.hit_rate() ? hit_rate_problem(proto, expected, *w.hit_rate(), attempts)
                            : fmt::format("cache hit rate unknown: {}", w.hit_rate_error());
  } else if (!a.gate_failure.empty()) {
    r.status = PointStatus::invalid;
    r.reason = a.gate_failure;
  }
}

results::PointRecord measured_record(const ArmContext& a, const PlannedPoint& p, const PointCap& cap,
                                     const load::RunResult& result, bool recycled) {
  const ScenarioSpec& s = scenario_of(a, p);
  results::PointRecord r = load::to_point_record(result, {a.spec->name, a.arm->name, s.name, s.isl, s.osl, p.concurrency});
  const auto base = base_record(a, p);
  r.effective_concurrency = cap.effective;
  r.repeat = p.repeat;
  r.gpus = base.gpus;
  r.gate = base.gate;
  if (!a.quality.empty()) r.extra["quality"] = a.quality;
  r.prompts = {base.prompts.source, recycled};
  r.server = base.server;
  r.tool = base.tool;
  return r;
}

util::Result<void> write_requests(const ArmContext& a, const PlannedPoint& p, const load::RunResult& result) {
  const auto log = results::RunLayout(a.run_dir).requests(a.arm->name, scenario_of(a, p).name, p.concurrency, p.repeat);
  if (auto ok = util::make_dirs(log.parent_path()); !ok) return ok;
  return load::write_request_log(log, result);
}

bool should_retry(const results::PointRecord& r, const PointWindow& w, const ScenarioSpec& s, const ProtocolSpec& proto,
                  std::optional<double> expected) {
  return r.status != PointStatus::failed && w.hit_rate() && hit_rate_verified(s, proto, expected, w.hit_rate()) == false;
}

}  // namespace

util::Result<PointOutcome> run_point(const ArmContext& a, const PlannedPoint& p, const PointCap& cap, StopSignal& stop) {
  const ProtocolSpec& proto = a.spec->protocol;
  const ScenarioSpec& s = scenario_of(a, p);
  const auto expected = expected_hit_rate(s, p.num_prompts, proto.warmup_requests);
  const bool verifies = hit_rate_verified(s, proto, expected, 0.0).has_value();
  const int max_attempts = 1 + (verifies ? proto.retries : 0);
  PointOutcome out;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    auto prompts = a.prompts->take({a.arm->name, s.name, s.isl, s.osl, p.concurrency, p.num_prompts,
                                    proto.warmup_requests, attempt, &s, p.repeat},
                                   *a.control);
    if (!prompts) return std::unexpected(prompts.error());
    const bool recycled = prompts->recycled;
    const std::vector<std::int32_t> turns = load::turns_of(prompts->measured);
    PointWindow window(*a.control, a.server->adapter(), a.server->exchange(),
                       proto.cold_cache ? Flush::before_point : Flush::never, *a.clock.steady);
    auto result = load::run(run_spec(a, p, std::move(*prompts)), window);
    out.overhead += window.overhead();
    if (stop.requested()) {
      out.interrupted = true;
      return out;
    }
    if (!result) {
      if (result.error().kind == util::ErrorKind::bad_input) return std::unexpected(result.error());
      out.record = failed_record(a, p, result.error().message);
      out.record.effective_concurrency = cap.effective;
      out.server_died = !a.server->alive();
      if (out.server_died) out.record.reason = "the server died during the point: " + a.server->death_report();
      return out;
    }
    out.hit_rates.push_back(window.hit_rate().value_or(std::numeric_limits<double>::quiet_NaN()));
    if (auto ok = write_requests(a, p, *result); !ok) return std::unexpected(ok.error());
    results::PointRecord r = measured_record(a, p, cap, *result, recycled);
    if (r.status == PointStatus::failed && !a.server->alive()) {
      out.server_died = true;
      r.reason = fmt::format("the server died during the point ({}): {}", r.reason, a.server->death_report());
    }
    if (!out.server_died && should_retry(r, window, s, proto, expected) && attempt < max_attempts) continue;
    judge(r, a, p, window, attempt);
    r.extra["protocol"] = protocol_extra(out, a, result->accept_length_source);
    if (s.kind != ScenarioKind::fixed) {
      r.prompts.source = std::string(to_string(s.kind));
      r.extra["workload"] = workload_extra(s, expected, result->records, turns, proto.percentile);
    }
    out.record = std::move(r);
    return out;
  }
  SB_CHECK(false);  // the last attempt always returns
  return out;
}

results::PointRecord skipped_record(const ArmContext& a, const PlannedPoint& p, const PointCap& cap) {
  auto r = base_record(a, p);
  r.status = PointStatus::skipped;
  r.reason = cap.skip_reason;
  r.effective_concurrency = 0;
  r.completed = 0;
  return r;
}

results::PointRecord failed_record(const ArmContext& a, const PlannedPoint& p, std::string reason) {
  auto r = base_record(a, p);
  r.status = PointStatus::failed;
  r.reason = std::move(reason);
  r.failed = 0;
  return r;
}

}  // namespace servebench::campaign
