#include "servebench/load/point_mapping.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace servebench::load {
namespace {

std::string failure_reason(const RunMetrics& m) {
  std::string kinds;
  for (std::size_t k = 1; k < k_request_error_kinds; ++k) {
    if (m.errors_by_kind[k] == 0) continue;
    if (!kinds.empty()) kinds += ", ";
    kinds += fmt::format("{} {}", to_string(static_cast<RequestError>(k)), m.errors_by_kind[k]);
  }
  if (m.completed == 0) return fmt::format("all {} requests failed ({})", m.num_requests, kinds);
  return fmt::format("{} of {} requests failed ({})", m.failed, m.num_requests, kinds);
}

results::Throughput throughput(const RunMetrics& m) {
  results::Throughput t;
  t.request_per_s = m.request_throughput;
  t.input_tok_per_s = m.input_throughput;
  t.output_tok_per_s = m.output_throughput;
  t.total_tok_per_s = m.total_throughput;
  t.output_tok_per_s_per_gpu = m.output_throughput_per_gpu.value_or(m.output_throughput);
  t.total_tok_per_s_per_gpu = m.total_throughput_per_gpu.value_or(m.total_throughput);
  return t;
}

}  // namespace

results::LatencyStats latency_stats(const stats::Summary& s) {
  return {.mean = s.mean, .median = s.median, .std = s.std, .p90 = s.at(90), .p95 = s.at(95), .p99 = s.at(99),
          .max = s.max};
}

results::PointRecord to_point_record(const RunResult& r, const PointContext& ctx) {
  const RunMetrics& m = r.metrics;
  results::PointRecord p;
  p.campaign = ctx.campaign;
  p.arm = ctx.arm;
  p.scenario = ctx.scenario;
  p.isl = ctx.isl;
  p.osl = ctx.osl;
  p.concurrency = ctx.concurrency;
  p.effective_concurrency = std::min(r.echo.max_concurrency.value_or(r.echo.num_prompts), r.echo.num_prompts);
  p.request_rate = r.echo.request_rate;
  p.num_prompts = r.echo.num_prompts;
  p.completed = m.completed;
  p.failed = m.failed;
  if (m.failed > 0) {
    p.status = results::PointStatus::failed;
    p.reason = failure_reason(m);
  } else if (!r.client.healthy) {
    p.status = results::PointStatus::invalid;
    p.reason = r.client.reason;
  }
  p.started_at = util::format_utc(r.started_at);
  p.duration_s = util::to_seconds(m.duration);
  p.gpus = r.echo.gpus.value_or(1);
  p.ttft_ms = latency_stats(m.ttft_ms);
  p.tpot_ms = latency_stats(m.tpot_ms);
  p.itl_ms = latency_stats(m.itl_ms);
  p.e2e_ms = latency_stats(m.e2e_ms);
  p.throughput = throughput(m);
  p.accept_length = r.accept_length;
  p.cache.flushed = r.cache.flushed;
  p.cache.hit_rate = r.cache.hit_rate;
  p.client.send_lag_p99_ms = r.client.send_lag_ms.at(99);
  p.client.read_lag_p99_ms = r.client.read_lag_p99_ms;
  p.client.healthy = r.client.healthy;
  p.extra["time_base"] = r.time_scale == 1 ? "real" : "simulated";
  // duration_s is in the modeled deployment's time like every other number; how long the point
  // actually took on the wall clock (for the measured span) is kept beside it.
  if (r.time_scale != 1) p.extra["wall_duration_s"] = p.duration_s * r.time_scale;
  return p;
}

}  // namespace servebench::load
