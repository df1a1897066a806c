// servebench's own result keys and the statistic-key spelling shared by both output formats.
#include <cmath>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/load/result_formats.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::load {
namespace {

namespace json = boost::json;
using util::json_double_or_null;

json::value opt(const std::optional<double>& v) { return v ? json_double_or_null(*v) : json::value(nullptr); }

json::object client_json(const ClientHealthReport& c) {
  return {{"send_lag_p50_ms", json_double_or_null(c.send_lag_ms.at(50))},
          {"send_lag_p99_ms", json_double_or_null(c.send_lag_ms.at(99))},
          {"read_lag_p99_ms", c.read_lag_p99_ms},
          {"read_lag_max_ms", c.read_lag_max_ms},
          {"added_latency_p50_ms", opt(c.added_p50_ms)},
          {"added_latency_p99_ms", opt(c.added_p99_ms)},
          {"added_latency_p999_ms", opt(c.added_p999_ms)},
          {"stamped_chunks", c.stamped_chunks},
          {"threads", c.threads},
          {"cpu_seconds", c.cpu_seconds},
          {"max_loop_busy", c.max_loop_busy},
          {"noise_floor_ms", c.noise_floor_ms},
          {"measured_floor_ms", c.measured_floor_ms},
          {"gated_send_lag_ms", c.gated_send_lag_ms},
          {"send_lag_samples", c.send_lag_samples},
          {"gated_read_lag_ms", c.gated_read_lag_ms},
          {"read_lag_samples", c.read_lag_samples},
          {"gated_arrival_lag_ms", c.gated_arrival_lag_ms},
          {"arrival_lag_max_ms", c.arrival_lag_max_ms},
          {"arrival_lag_samples", c.arrival_lag_samples},
          {"gated_loop_lag_ms", c.gated_loop_lag_ms},
          {"loop_lag_max_ms", c.loop_lag_max_ms},
          {"loop_lag_samples", c.loop_lag_samples},
          {"sim_step_lateness_p99_ms", c.sim_steps ? json::value(c.sim_steps->p99_ms) : json::value(nullptr)},
          {"sim_steps", c.sim_steps ? json::value(c.sim_steps->steps) : json::value(nullptr)},
          {"sim_step_limit_ms", c.sim_steps ? json::value(c.sim_step_limit_ms) : json::value(nullptr)},
          {"lag_p99_ms", c.lag_p99_ms},
          {"limit_ms", json_double_or_null(c.limit_ms)},
          {"limit_basis", c.limit_basis},
          {"healthy", c.healthy},
          {"reason", c.reason}};
}

json::object goodput_json(const GoodputResult& g, const GoodputSlo& slo) {
  json::object s;
  if (slo.ttft) s["ttft_ms"] = util::to_ms(*slo.ttft);
  if (slo.tpot) s["tpot_ms"] = util::to_ms(*slo.tpot);
  if (slo.e2e) s["e2e_ms"] = util::to_ms(*slo.e2e);
  return {{"slo", std::move(s)},
          {"good_requests", g.good_requests},
          {"request_goodput", g.request_goodput},
          {"output_token_goodput", g.output_token_goodput},
          {"fraction", g.fraction}};
}

void add_interactivity(json::object& out, const stats::Summary& tpot) {
  out["mean_intvty"] = json_double_or_null(interactivity(tpot.mean));
  out["median_intvty"] = json_double_or_null(interactivity(tpot.median));
  for (std::size_t i = 0; i < tpot.percentile_points.size(); ++i) {
    out[percentile_key(tpot.percentile_points[i]) + "_intvty"] = json_double_or_null(interactivity(tpot.percentile_values[i]));
  }
}

json::object counts_json(const RunMetrics& m) {
  json::object errors;
  for (std::size_t k = 1; k < k_request_error_kinds; ++k) {
    if (m.errors_by_kind[k] > 0) errors[to_string(static_cast<RequestError>(k))] = m.errors_by_kind[k];
  }
  return errors;
}

}  // namespace

std::string percentile_key(double p) {
  if (p == std::floor(p)) return fmt::format("p{}", static_cast<std::int64_t>(p));
  return fmt::format("p{}", p);
}

void add_stat_keys(json::object& out, std::string_view name, const stats::Summary& s) {
  out[fmt::format("mean_{}_ms", name)] = json_double_or_null(s.mean);
  out[fmt::format("median_{}_ms", name)] = json_double_or_null(s.median);
  out[fmt::format("std_{}_ms", name)] = json_double_or_null(s.std);
  for (std::size_t i = 0; i < s.percentile_points.size(); ++i) {
    out[fmt::format("{}_{}_ms", percentile_key(s.percentile_points[i]), name)] = json_double_or_null(s.percentile_values[i]);
  }
  out[fmt::format("max_{}_ms", name)] = json_double_or_null(s.max);
}

json::object servebench_keys(const RunResult& r) {
  const RunMetrics& m = r.metrics;
  json::object out;
  out["schema"] = k_bench_schema;
  out["percentile_method"] = stats::to_string(r.echo.metric_options.method);
  json::array shown;
  for (double p : m.shown_percentiles) shown.push_back(p);
  out["percentiles"] = std::move(shown);
  json::object defs;
  for (const auto& [metric, id] : definition_ids()) defs[metric] = id;
  out["definitions"] = std::move(defs);
  out["model"] = r.echo.model;
  out["num_prompts"] = r.echo.num_prompts;
  out["started_at"] = util::format_utc(r.started_at);
  out["time_base"] = r.time_scale == 1 ? "real" : "simulated";
  out["sim_time_scale"] = r.time_scale == 1 ? json::value(nullptr) : json::value(r.time_scale);
  out["failed"] = m.failed;
  out["interrupted"] = r.interrupted;
  if (r.interrupted) {
    out["interrupted_not_sent"] = r.not_sent;
    out["interrupted_cut_off"] = r.cut_off;
  }
  out["reconnects"] = m.reconnects;
  out["errors_by_kind"] = counts_json(m);
  out["warmup_requests"] = r.echo.warmup_requests;
  out["warmup_failed"] = r.warmup_failed;
  out["total_output_tokens_requested"] = m.total_output_requested;
  out["output_token_mismatches"] = m.output_mismatches;
  out["input_token_mismatches"] = m.input_mismatches;
  out["output_count_fallbacks"] = m.output_count_fallbacks;
  out["peak_in_flight"] = m.peak_in_flight;
  add_stat_keys(out, "itl_token", m.itl_token_ms);
  add_interactivity(out, m.tpot_ms);
  out["gpus"] = r.echo.gpus ? json::value(*r.echo.gpus) : json::value(nullptr);
  out["output_throughput_per_gpu"] = opt(m.output_throughput_per_gpu);
  out["total_throughput_per_gpu"] = opt(m.total_throughput_per_gpu);
  if (m.ttft_from_intended_ms) add_stat_keys(out, "ttft_from_intended", *m.ttft_from_intended_ms);
  if (m.e2e_from_intended_ms) add_stat_keys(out, "e2e_latency_from_intended", *m.e2e_from_intended_ms);
  if (m.queue_ms) add_stat_keys(out, "queue", *m.queue_ms);
  if (m.goodput) out["goodput"] = goodput_json(*m.goodput, r.echo.metric_options.goodput);
  out["accept_length_source"] = r.accept_length_source;
  out["client"] = client_json(r.client);
  out["cache"] = json::object{{"flushed", r.cache.flushed}, {"hit_rate", opt(r.cache.hit_rate)}};
  out["server_facts"] = r.server_facts;
  return out;
}

}  // namespace servebench::load
