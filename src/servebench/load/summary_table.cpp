#include "servebench/load/summary_table.hpp"

#include <cmath>

#include <fmt/format.h>

#include "servebench/load/result_formats.hpp"

namespace servebench::load {
namespace {

constexpr std::size_t k_width = 50;

// Centred in k_width columns, padded with `fill` (sglang's "{s:{c}^{n}}").
void title(std::string& out, std::string_view text, char fill) {
  const std::size_t pad = text.size() < k_width ? k_width - text.size() : 0;
  out.append(pad / 2, fill);
  out += text;
  out.append(pad - pad / 2, fill);
  out += '\n';
}
void line(std::string& out, std::string_view label, std::string_view value) {
  out += fmt::format("{:<40} {:<10}\n", label, value);
}
void line(std::string& out, std::string_view label, double value) {
  line(out, label, std::isfinite(value) ? fmt::format("{:.2f}", value) : std::string("n/a"));
}
void line(std::string& out, std::string_view label, std::int64_t value) { line(out, label, fmt::format("{}", value)); }

std::string upper_percentile(double p) {
  std::string k = percentile_key(p);
  k[0] = 'P';
  return k;
}

// "Mean TTFT (ms):", "Median TTFT (ms):", "P99 TTFT (ms):" for each shown percentile but 50.
void latency_block(std::string& out, std::string_view heading, std::string_view name, const stats::Summary& s,
                   const std::vector<double>& shown) {
  title(out, heading, '-');
  line(out, fmt::format("Mean {} (ms):", name), s.mean);
  line(out, fmt::format("Median {} (ms):", name), s.median);
  for (double p : shown) {
    if (p != 50) line(out, fmt::format("{} {} (ms):", upper_percentile(p), name), s.at(p));
  }
}

void servebench_block(std::string& out, const RunResult& r) {
  const RunMetrics& m = r.metrics;
  title(out, " servebench ", '-');
  if (r.interrupted) {
    line(out, "Interrupted: not sent:", r.not_sent);
    line(out, "Interrupted: cut off in flight:", r.cut_off);
  }
  line(out, "Failed requests:", m.failed);
  for (std::size_t k = 1; k < k_request_error_kinds; ++k) {
    if (m.errors_by_kind[k] > 0) line(out, fmt::format("  {}:", to_string(static_cast<RequestError>(k))), m.errors_by_kind[k]);
  }
  line(out, "Output token count mismatches:", m.output_mismatches);
  line(out, "Peak requests in flight (exact):", m.peak_in_flight);
  line(out, "Median ITL per token (ms):", m.itl_token_ms.median);
  line(out, "Median interactivity (tok/s/user):", interactivity(m.tpot_ms.median));
  if (m.total_throughput_per_gpu) line(out, "Total token throughput per GPU (tok/s):", *m.total_throughput_per_gpu);
  if (m.ttft_from_intended_ms) line(out, "Median TTFT from intended send (ms):", m.ttft_from_intended_ms->median);
  if (m.e2e_from_intended_ms) line(out, "Median E2E from intended send (ms):", m.e2e_from_intended_ms->median);
  if (m.goodput) line(out, "Request goodput (req/s):", m.goodput->request_goodput);
  line(out, "Cache flushed:", r.cache.flushed ? "yes" : "no");
  line(out, "Cache hit rate:", r.cache.hit_rate ? fmt::format("{:.4f}", *r.cache.hit_rate) : std::string("unknown"));
  line(out, "Percentile method:", stats::to_string(r.echo.metric_options.method));
  line(out, "Client lag p99 (ms):", fmt::format("{:.3f}", r.client.lag_p99_ms));
  line(out, "Client healthy:", r.client.healthy ? "yes" : "NO");
  if (!r.client.reason.empty()) out += fmt::format("  {}\n", r.client.reason);
}

}  // namespace

std::string summary_table(const RunResult& r) {
  const RunMetrics& m = r.metrics;
  const auto& shown = m.shown_percentiles;
  std::string out;
  title(out, " Serving Benchmark Result ", '=');
  line(out, "Backend:", r.echo.backend);
  line(out, "Traffic request rate:", r.echo.request_rate ? fmt::format("{}", *r.echo.request_rate) : "inf");
  line(out, "Max request concurrency:",
       r.echo.max_concurrency ? fmt::format("{}", *r.echo.max_concurrency) : std::string("not set"));
  if (r.time_scale != 1) {
    line(out, "Time base:", fmt::format("simulated (measured ÷ sim time scale {})", r.time_scale));
  }
  line(out, "Successful requests:", m.completed);
  line(out, "Benchmark duration (s):", util::to_seconds(m.duration));
  line(out, "Total input tokens:", m.total_input_tokens);
  line(out, "Total generated tokens:", m.total_output_tokens);
  line(out, "Total generated tokens (retokenized):", m.total_output_tokens);
  line(out, "Request throughput (req/s):", m.request_throughput);
  line(out, "Input token throughput (tok/s):", m.input_throughput);
  line(out, "Output token throughput (tok/s):", m.output_throughput);
  line(out, "Peak output token throughput (tok/s):", m.max_output_tokens_per_s);
  line(out, "Peak concurrent requests:", m.max_concurrent_requests);
  line(out, "Total token throughput (tok/s):", m.total_throughput);
  line(out, "Concurrency:", m.concurrency);
  if (r.accept_length) line(out, "Accept length:", *r.accept_length);
  latency_block(out, "End-to-End Latency", "E2E Latency", m.e2e_ms, shown);
  latency_block(out, "Time to First Token", "TTFT", m.ttft_ms, shown);
  latency_block(out, "Time per Output Token (excl. 1st token)", "TPOT", m.tpot_ms, shown);
  latency_block(out, "Inter-Token Latency", "ITL", m.itl_ms, shown);
  line(out, "Max ITL (ms):", m.itl_ms.max);
  servebench_block(out, r);
  title(out, "", '=');
  return out;
}

}  // namespace servebench::load
