#include "servebench/sim/metrics_text.hpp"

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
  EXPECT_EQ(samples.size(), types);
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
