#include "servebench/wire/prometheus.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "support/fixture.hpp"

namespace servebench::wire {
namespace {

using testing::read_fixture;

TEST(PrometheusParser, RecordedLlamacppMetrics) {
  const auto samples = parse_prometheus(read_fixture("llamacpp/metrics.prom"));
  EXPECT_EQ(samples.size(), 15u);
  EXPECT_EQ(sum_metric(samples, "llamacpp:prompt_tokens_total"), 53);
  EXPECT_EQ(sum_metric(samples, "llamacpp:prompt_tokens_cached_total"), 5);
  EXPECT_EQ(sum_metric(samples, "llamacpp:tokens_predicted_total"), 26);
  EXPECT_EQ(sum_metric(samples, "llamacpp:spec_decode_num_drafts_total"), 0);
  EXPECT_EQ(sum_metric(samples, "llamacpp:prompt_seconds_total"), 0.022501);
  EXPECT_EQ(sum_metric(samples, "llamacpp:requests_processing"), 0);
  EXPECT_FALSE(sum_metric(samples, "llamacpp:no_such_metric"));
}

TEST(PrometheusParser, SumsOverLabelSetsAndAcceptsBothCounterSpellings) {
  const auto samples = parse_prometheus(read_fixture("engines/sglang_metrics.prom"));
  EXPECT_EQ(sum_metric(samples, "sglang:prompt_tokens_total"), 12000);
  EXPECT_EQ(sum_metric(samples, "sglang:prompt_tokens"), 12000);
  const auto vllm = parse_prometheus("vllm:spec_decode_num_drafts{engine=\"0\"} 3\nvllm:spec_decode_num_drafts{engine=\"1\"} 4\n");
  EXPECT_EQ(sum_metric(vllm, "vllm:spec_decode_num_drafts_total"), 7);
}

TEST(PrometheusParser, CreatedSamplesAreDropped) {
  const auto samples = parse_prometheus(read_fixture("engines/vllm_metrics.prom"));
  for (const auto& s : samples) EXPECT_FALSE(s.name.ends_with("_created")) << s.name;
  EXPECT_EQ(sum_metric(samples, "vllm:prefix_cache_queries_total"), 8000);
}

TEST(PrometheusParser, LabelsAreUnescapedAndSelectable) {
  const auto samples = parse_prometheus(
      "m{path=\"a\\\"b\\\\c\\nd\", mode=\"x\",} 1\n"
      "sglang:realtime_tokens_total{mode=\"prefill_cache\"} 30\n"
      "sglang:realtime_tokens_total{mode=\"prefill_compute\"} 70\n");
  ASSERT_EQ(samples.size(), 3u);
  EXPECT_EQ(samples[0].label("path"), "a\"b\\c\nd");
  EXPECT_EQ(samples[0].label("mode"), "x");
  EXPECT_FALSE(samples[0].label("nope"));
  EXPECT_EQ(sum_metric(samples, "sglang:realtime_tokens_total", LabelMatch{"mode", "prefill_cache"}), 30);
  EXPECT_EQ(sum_metric(samples, "sglang:realtime_tokens_total"), 100);
}

TEST(PrometheusParser, SpecialValuesTimestampsAndExemplars) {
  const auto samples = parse_prometheus(
      "a NaN\nb +Inf\nc -Inf 1700000000000\nd 1.5e3 # {trace_id=\"x\"} 1\r\ne{} 2\n  \n# EOF\n");
  ASSERT_EQ(samples.size(), 5u);
  EXPECT_TRUE(std::isnan(samples[0].value));
  EXPECT_EQ(samples[1].value, INFINITY);
  EXPECT_EQ(samples[2].value, -INFINITY);
  EXPECT_EQ(samples[3].value, 1500);
  EXPECT_EQ(samples[4].value, 2);
}

TEST(PrometheusParser, MalformedLinesAreSkippedAndCounted) {
  PrometheusParser parser;
  std::vector<Sample> out;
  parser.feed("ok 1\nbad{x=1} 2\nnovalue\nlabel{x=\"1\" 3\nfine 4\n", out);
  parser.finish(out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].name, "fine");
  EXPECT_EQ(parser.malformed_lines(), 3u);
  EXPECT_EQ(parser.first_error(), "line 2: expected a quoted label value");
}

TEST(PrometheusParser, InputSplitAtEveryOffsetGivesTheSameSamples) {
  const std::string text = read_fixture("engines/vllm_metrics.prom");
  const auto whole = parse_prometheus(text);
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    PrometheusParser parser;
    std::vector<Sample> out;
    parser.feed(std::string_view(text).substr(0, cut), out);
    parser.feed(std::string_view(text).substr(cut), out);
    parser.finish(out);
    ASSERT_EQ(out.size(), whole.size()) << cut;
    for (std::size_t i = 0; i < out.size(); ++i) {
      ASSERT_EQ(out[i].name, whole[i].name) << cut;
      ASSERT_EQ(out[i].labels, whole[i].labels) << cut;
      ASSERT_EQ(out[i].value, whole[i].value) << cut;
    }
  }
}

TEST(PrometheusParser, LastLineWithoutNewlineNeedsFinish) {
  PrometheusParser parser;
  std::vector<Sample> out;
  parser.feed("a 1\nb 2", out);
  EXPECT_EQ(out.size(), 1u);
  parser.finish(out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].value, 2);
}

}  // namespace
}  // namespace servebench::wire
