#include "servebench/load/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace servebench::load {
namespace {

using util::Nanos;

double ms(Nanos d) { return util::to_ms(d); }

std::vector<double> computed_percentiles(const std::vector<double>& shown) {
  std::vector<double> ps = shown;
  for (double p : {90.0, 95.0, 99.0}) ps.push_back(p);
  std::sort(ps.begin(), ps.end());
  ps.erase(std::unique(ps.begin(), ps.end()), ps.end());
  return ps;
}

// TPOT of one completed request in ms; nullopt when it produced at most one token.
std::optional<double> tpot_ms(const RequestRecord& r) {
  const std::int64_t n = r.output_tokens();
  if (n <= 1 || !r.first_token || !r.last_token) return std::nullopt;
  return ms(*r.last_token - *r.first_token) / static_cast<double>(n - 1);
}

// Tokens a later chunk of `r` carried, for per-token ITL: exact when the chunks said, else the
// request's average over its chunks after the first.
double chunk_token_count(const RequestRecord& r, const ChunkMark& c) {
  if (r.chunk_tokens_exact || r.token_chunks <= 1) return std::max<double>(1.0, c.tokens);
  const double later = static_cast<double>(r.output_tokens() - 1) / static_cast<double>(r.token_chunks - 1);
  return std::max(1.0, later);
}

struct Samples {
  std::vector<double> ttft, tpot, itl, itl_token, e2e, ttft_intended, e2e_intended, queue;
};

void collect_itl(std::span<const RequestRecord> records, std::span<const ChunkMark> chunks, Samples& s) {
  for (std::size_t i = 1; i < chunks.size(); ++i) {
    const ChunkMark& prev = chunks[i - 1];
    const ChunkMark& cur = chunks[i];
    if (prev.request != cur.request) continue;
    const RequestRecord& r = records[cur.request];
    if (!r.ok()) continue;
    const double gap = ms(Nanos{cur.at_ns - prev.at_ns});
    s.itl.push_back(gap);
    s.itl_token.push_back(gap / chunk_token_count(r, cur));
  }
}

void collect_request(const RequestRecord& r, Samples& s) {
  if (!r.ok() || !r.first_token || !r.last_token) return;
  s.ttft.push_back(ms(*r.first_token - r.sent));
  s.e2e.push_back(ms(*r.last_token - r.sent));
  if (auto t = tpot_ms(r)) s.tpot.push_back(*t);
  s.ttft_intended.push_back(ms(*r.first_token - r.intended));
  s.e2e_intended.push_back(ms(*r.last_token - r.intended));
  s.queue.push_back(ms(r.released - r.intended));
}

void count_tokens(const RequestRecord& r, RunMetrics& m) {
  m.total_input_tokens += r.input_tokens();
  m.total_input_planned += r.input_tokens_planned;
  m.total_output_tokens += r.output_tokens();
  m.total_output_requested += r.output_tokens_requested;
  if (r.output_tokens_served && *r.output_tokens_served != r.output_tokens_requested) ++m.output_mismatches;
  if (!r.output_tokens_served) ++m.output_count_fallbacks;
  if (r.input_tokens_served && r.input_tokens_planned > 0 && *r.input_tokens_served != r.input_tokens_planned) {
    ++m.input_mismatches;
  }
}

// Peak output tokens and peak concurrent requests over 1-s buckets from the first send (sglang).
void peak_buckets(std::span<const RequestRecord> records, std::span<const ChunkMark> chunks, Nanos origin,
                  Nanos last, RunMetrics& m) {
  const auto bucket = [origin](Nanos t) {
    return static_cast<std::size_t>(std::max<std::int64_t>(0, (t - origin).count() / 1'000'000'000));
  };
  std::vector<double> tokens(bucket(last) + 1, 0.0);
  std::vector<std::int64_t> active(tokens.size(), 0);
  for (const ChunkMark& c : chunks) {
    if (records[c.request].ok()) tokens[std::min(bucket(Nanos{c.at_ns}), tokens.size() - 1)] += c.tokens;
  }
  for (const RequestRecord& r : records) {
    if (!r.ok()) continue;
    for (std::size_t b = bucket(r.sent); b <= bucket(r.done) && b < active.size(); ++b) ++active[b];
  }
  m.max_output_tokens_per_s = *std::max_element(tokens.begin(), tokens.end());
  m.max_concurrent_requests = *std::max_element(active.begin(), active.end());
}

// The exact peak of requests in flight (sent, not yet done), failed ones included: a sweep over
// the start and end instants, ends before starts at the same instant.
std::int64_t peak_in_flight(std::span<const RequestRecord> records) {
  std::vector<std::pair<std::int64_t, int>> edges;
  edges.reserve(records.size() * 2);
  for (const RequestRecord& r : records) {
    edges.emplace_back(r.sent.count(), +1);
    edges.emplace_back(std::max(r.done, r.sent).count(), -1);
  }
  std::sort(edges.begin(), edges.end());
  std::int64_t now = 0, peak = 0;
  for (const auto& [at, delta] : edges) peak = std::max(peak, now += delta);
  return peak;
}

GoodputResult goodput(std::span<const RequestRecord> records, const GoodputSlo& slo, double seconds,
                      std::int64_t completed) {
  GoodputResult g;
  std::int64_t good_tokens = 0;
  for (const RequestRecord& r : records) {
    if (!r.ok() || !r.first_token || !r.last_token) continue;
    // An undefined TPOT (one output token) meets any TPOT SLO, as vLLM counts it.
    const double tpot = tpot_ms(r).value_or(0.0);
    if (slo.ttft && *r.first_token - r.sent > *slo.ttft) continue;
    if (slo.tpot && tpot > ms(*slo.tpot)) continue;
    if (slo.e2e && *r.last_token - r.sent > *slo.e2e) continue;
    ++g.good_requests;
    good_tokens += r.output_tokens();
  }
  g.request_goodput = seconds > 0 ? static_cast<double>(g.good_requests) / seconds : 0;
  g.output_token_goodput = seconds > 0 ? static_cast<double>(good_tokens) / seconds : 0;
  g.fraction = completed > 0 ? static_cast<double>(g.good_requests) / static_cast<double>(completed) : 0;
  return g;
}

std::optional<double> native_accept_length(std::span<const RequestRecord> records) {
  std::int64_t tokens = 0, verify = 0;
  for (const RequestRecord& r : records) {
    if (!r.ok() || !r.spec_verify_ct || *r.spec_verify_ct <= 0) continue;
    tokens += r.output_tokens();
    verify += *r.spec_verify_ct;
  }
  if (verify == 0) return std::nullopt;
  return static_cast<double>(tokens) / static_cast<double>(verify);
}

void throughputs(RunMetrics& m, const MetricOptions& o) {
  const double s = util::to_seconds(m.duration);
  if (s <= 0) return;
  m.request_throughput = static_cast<double>(m.completed) / s;
  m.input_throughput = static_cast<double>(m.total_input_tokens) / s;
  m.output_throughput = static_cast<double>(m.total_output_tokens) / s;
  m.total_throughput = m.input_throughput + m.output_throughput;
  if (o.gpus && *o.gpus > 0) {
    m.output_throughput_per_gpu = m.output_throughput / *o.gpus;
    m.total_throughput_per_gpu = m.total_throughput / *o.gpus;
  }
}

}  // namespace

void sort_chunks(std::vector<ChunkMark>& chunks) {
  std::stable_sort(chunks.begin(), chunks.end(),
                   [](const ChunkMark& a, const ChunkMark& b) { return a.request < b.request; });
}

double interactivity(double tpot) {
  if (!(tpot > 0) || !std::isfinite(tpot)) return std::numeric_limits<double>::quiet_NaN();
  return 1000.0 / tpot;
}

RunMetrics compute_metrics(std::span<const RequestRecord> records, std::span<const ChunkMark> chunks,
                           const MetricOptions& options) {
  RunMetrics m;
  m.num_requests = static_cast<std::int64_t>(records.size());
  m.shown_percentiles = options.percentiles;
  Samples s;
  Nanos first_sent = Nanos::max(), last_done = Nanos::min();
  double e2e_sum_s = 0;
  for (const RequestRecord& r : records) {
    SB_CHECK(r.index < records.size() && &records[r.index] == &r);
    first_sent = std::min(first_sent, r.sent);
    last_done = std::max(last_done, r.done);
    ++m.errors_by_kind[static_cast<std::size_t>(r.error)];
    m.reconnects += r.reconnects;
    if (!r.ok()) {
      ++m.failed;
      continue;
    }
    ++m.completed;
    count_tokens(r, m);
    collect_request(r, s);
    if (r.last_token) e2e_sum_s += util::to_seconds(*r.last_token - r.sent);
  }
  collect_itl(records, chunks, s);
  m.duration = records.empty() ? Nanos{0} : last_done - first_sent;
  const std::vector<double> ps = computed_percentiles(options.percentiles);
  const auto sum = [&](const std::vector<double>& v) { return stats::summarize(v, options.method, ps); };
  m.ttft_ms = sum(s.ttft);
  m.tpot_ms = sum(s.tpot);
  m.itl_ms = sum(s.itl);
  m.itl_token_ms = sum(s.itl_token);
  m.e2e_ms = sum(s.e2e);
  if (options.open_loop) {
    m.ttft_from_intended_ms = sum(s.ttft_intended);
    m.e2e_from_intended_ms = sum(s.e2e_intended);
    m.queue_ms = sum(s.queue);
  }
  throughputs(m, options);
  const double seconds = util::to_seconds(m.duration);
  m.concurrency = seconds > 0 ? e2e_sum_s / seconds : 0;
  if (!records.empty()) peak_buckets(records, chunks, first_sent, last_done, m);
  m.peak_in_flight = peak_in_flight(records);
  if (options.goodput.any()) m.goodput = goodput(records, options.goodput, seconds, m.completed);
  m.native_accept_length = native_accept_length(records);
  return m;
}

std::span<const std::pair<std::string_view, std::string_view>> definition_ids() {
  static constexpr std::pair<std::string_view, std::string_view> k_ids[] = {
      {"ttft", "ttft_first_token_chunk"},
      {"e2e_latency", "e2e_last_token_chunk"},
      {"tpot", "tpot_excl_first"},
      {"itl", "itl_chunk_pooled"},
      {"itl_token", "itl_token_pooled"},
      {"output_tokens", "output_tokens_server"},
      {"input_tokens", "input_tokens_server_else_planned"},
      {"throughput", "tokens_over_first_send_to_last_end"},
      {"concurrency", "concurrency_littles_law"},
      {"peaks", "peaks_1s_buckets"},
      {"latency_from_intended", "latency_from_intended_send"},
      {"goodput", "goodput_all_slos"},
      {"interactivity", "interactivity_1000_over_tpot"},
      {"client_lag", "client_lag_send_and_read"},
      {"arrival_lag", "client_arrival_lag"},
      {"loop_lag", "client_loop_lag"},
      {"noise_floor", "client_noise_floor"},
      {"sim_step_lateness", "sim_step_lateness"},
  };
  return k_ids;
}

}  // namespace servebench::load
