#include "servebench/sim/metrics_text.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "servebench/engines/adapter.hpp"
#include "servebench/wire/prometheus.hpp"

using namespace servebench;
using namespace servebench::sim;

namespace {

// Serves one body for GET /metrics, as a server would.
class MetricsExchange final : public http::Exchange {
 public:
  explicit MetricsExchange(std::string body) : m_body(std::move(body)) {}
  util::Result<http::Response> send(const http::Request& request, std::chrono::milliseconds) override {
    if (request.target != "/metrics") return http::Response{404, "", "text/plain"};
    return http::Response{200, m_body, "text/plain; version=0.0.4"};
  }
  const std::string& base_url() const override { return m_url; }

 private:
  std::string m_body, m_url = "http://127.0.0.1:1";
};

ServerStats stats_with(std::int64_t prompt, std::int64_t cached, std::int64_t verify, std::int64_t accepted) {
  ServerStats s;
  s.counters.prompt_tokens_total = prompt;
  s.counters.cached_tokens_total = cached;
  s.counters.generation_tokens_total = 4321;
  s.counters.spec_verify_steps_total = verify;
  s.counters.spec_accepted_tokens_total = accepted;
  s.counters.running = 3;
  s.counters.queued = 2;
  s.counters.max_total_num_tokens = 276480;
  s.counters.token_usage = 0.25;
  return s;
}

}  // namespace

TEST(MetricsText, SimAdapterSnapshotReadsTheEngineCounters) {
  auto adapter = engines::make_adapter("sim");
  ASSERT_TRUE(adapter) << adapter.error().message;
  std::string before_text, after_text;
  append_metrics_text(before_text, stats_with(1000, 10, 100, 150), "m");
  append_metrics_text(after_text, stats_with(3000, 30, 400, 1050), "m");
  MetricsExchange before_ex(before_text), after_ex(after_text);
  const auto before = (*adapter)->snapshot(before_ex);
  const auto after = (*adapter)->snapshot(after_ex);
  ASSERT_TRUE(before) << before.error().message;
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(after->prompt_tokens, 3000);
  EXPECT_EQ(after->cached_tokens, 30);
  EXPECT_EQ(after->generation_tokens, 4321);
  EXPECT_EQ(after->spec_drafts, 400);
  EXPECT_EQ(after->spec_accepted_tokens, 1050);
  EXPECT_EQ(after->running, 3);
  EXPECT_EQ(after->queued, 2);
  EXPECT_DOUBLE_EQ((*adapter)->hit_rate(*before, *after).value(), 20.0 / 2000.0);
  // 900 accepted draft tokens over 300 verify steps: 3 per step plus the bonus token.
  EXPECT_DOUBLE_EQ((*adapter)->accept_length(*before, *after).value(), 4.0);
}

TEST(MetricsText, EveryMetricHasHelpTypeAndOneSample) {
  std::string text;
  append_metrics_text(text, stats_with(1, 0, 0, 0), "m");
  wire::PrometheusParser parser;
  std::vector<wire::Sample> samples;
  parser.feed(text, samples);
  parser.finish(samples);
  EXPECT_EQ(parser.malformed_lines(), 0u) << parser.first_error();
  std::size_t types = 0;
  for (std::size_t at = text.find("# TYPE "); at != std::string::npos; at = text.find("# TYPE ", at + 1)) ++types;
  // One sample per counter and gauge; the step-lateness histogram has a bucket per edge, +Inf, _sum, _count.
  EXPECT_EQ(samples.size(), types - 1 + StepLateness::k_edges_s.size() + 3);
  EXPECT_EQ(wire::sum_metric(samples, "sglang:max_total_num_tokens"), 276480);
  EXPECT_EQ(wire::sum_metric(samples, "sglang:token_usage"), 0.25);
}

TEST(MetricsText, ModelNameLabelIsEscaped) {
  std::string text;
  append_metrics_text(text, stats_with(1, 0, 0, 0), "org/\"quoted\"\\name");
  const auto samples = wire::parse_prometheus(text);
  ASSERT_FALSE(samples.empty());
  EXPECT_EQ(samples.front().label("model_name"), "org/\"quoted\"\\name");
}

TEST(MetricsText, StepLatenessIsAHistogramTheAdaptersRead) {
  ServerStats s = stats_with(1, 0, 0, 0);
  for (int i = 0; i < 97; ++i) s.step_lateness.record(std::chrono::microseconds(30));  // (25, 50] µs
  s.step_lateness.record(std::chrono::milliseconds(3));                               // (2.5, 5] ms
  s.step_lateness.record(std::chrono::milliseconds(4));
  s.step_lateness.record(std::chrono::seconds(2));  // beyond the last edge
  std::string text;
  append_metrics_text(text, s, "m");
  EXPECT_NE(text.find("# TYPE servebench:sim_step_lateness_seconds histogram"), std::string::npos);
  const auto samples = wire::parse_prometheus(text);
  const auto b = wire::histogram_buckets(samples, "servebench:sim_step_lateness_seconds");
  ASSERT_EQ(b.size(), StepLateness::k_edges_s.size() + 1);
  EXPECT_DOUBLE_EQ(b[0].le, 25e-6);
  EXPECT_EQ(b[0].count, 0);
  EXPECT_EQ(b[1].count, 97);
  EXPECT_EQ(b[7].count, 99);   // le 5 ms
  EXPECT_EQ(b[13].count, 99);  // le 1 s
  EXPECT_TRUE(std::isinf(b.back().le));
  EXPECT_EQ(b.back().count, 100);
  EXPECT_NEAR(wire::sum_metric(samples, "servebench:sim_step_lateness_seconds_sum").value_or(0),
              97 * 30e-6 + 0.007 + 2.0, 1e-9);
  // Every adapter that scrapes /metrics carries the buckets, so a bench against the simulator sees them.
  for (const char* engine : {"sim", "sglang", "vllm", "llamacpp"}) {
    auto adapter = engines::make_adapter(engine);
    ASSERT_TRUE(adapter) << engine;
    MetricsExchange ex(text);
    const auto c = (*adapter)->snapshot(ex);
    ASSERT_TRUE(c) << engine << ": " << c.error().message;
    EXPECT_EQ(c->sim_step_lateness.size(), b.size()) << engine;
  }
}

TEST(StepLateness, QuantilesAreUpperBucketEdges) {
  StepLateness l;
  EXPECT_EQ(l.quantile_upper_s(0.99), 0);
  for (int i = 0; i < 99; ++i) l.record(std::chrono::microseconds(80));  // (50, 100] µs
  l.record(std::chrono::microseconds(-5));                              // early counts as on time
  EXPECT_EQ(l.steps, 100u);
  EXPECT_EQ(l.buckets[0], 1u);
  EXPECT_DOUBLE_EQ(l.quantile_upper_s(0.99), 80e-6);  // the bucket's edge 100 µs, capped by the maximum
  EXPECT_DOUBLE_EQ(l.quantile_upper_s(0.01), 25e-6);
  l.record(std::chrono::microseconds(90));
  l.record(std::chrono::microseconds(95));
  EXPECT_DOUBLE_EQ(l.quantile_upper_s(0.99), 95e-6);
  l.record(std::chrono::milliseconds(30));  // one step in (25, 50] ms: the p99 of 103 is still ≤ 100 µs
  EXPECT_DOUBLE_EQ(l.quantile_upper_s(0.99), 100e-6);
  EXPECT_NEAR(l.max_s, 30e-3, 1e-12);
}
