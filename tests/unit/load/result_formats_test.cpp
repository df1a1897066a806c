#include "servebench/load/result_formats.hpp"

#include <gtest/gtest.h>

#include "run_fixture.hpp"

namespace servebench::load {
namespace {

namespace json = boost::json;

// The keys sglang bench_serving writes (without --cache-report), listed from its source.
const char* const k_sglang_keys[] = {
    "tag", "backend", "dataset_name", "request_rate", "max_concurrency", "sharegpt_output_len", "random_input_len",
    "random_output_len", "random_range_ratio", "server_info", "duration", "completed", "total_input_tokens",
    "total_input_text_tokens", "total_input_vision_tokens", "total_output_tokens", "total_output_tokens_retokenized",
    "request_throughput", "input_throughput", "output_throughput", "total_throughput", "mean_e2e_latency_ms",
    "median_e2e_latency_ms", "std_e2e_latency_ms", "p90_e2e_latency_ms", "p95_e2e_latency_ms", "p99_e2e_latency_ms",
    "mean_ttft_ms", "median_ttft_ms", "std_ttft_ms", "p90_ttft_ms", "p95_ttft_ms", "p99_ttft_ms", "mean_tpot_ms",
    "median_tpot_ms", "std_tpot_ms", "p90_tpot_ms", "p95_tpot_ms", "p99_tpot_ms", "mean_itl_ms", "median_itl_ms",
    "std_itl_ms", "p90_itl_ms", "p95_itl_ms", "p99_itl_ms", "concurrency", "accept_length",
    "max_output_tokens_per_s", "max_concurrent_requests"};

const char* const k_our_keys[] = {"schema", "percentile_method", "definitions", "failed", "errors_by_kind",
                                  "client", "cache", "server_facts"};

TEST(ResultFormats, SglangResultHasEverySglangKeyAndOurs) {
  const RunResult r = testing::small_run();
  const json::object o = sglang_result(r, {.dataset_name = "random", .random_input_len = 10, .tag = ""}, Details::summary);
  for (const char* k : k_sglang_keys) EXPECT_TRUE(o.contains(k)) << k;
  for (const char* k : k_our_keys) EXPECT_TRUE(o.contains(k)) << k;
  EXPECT_EQ(o.at("schema"), "servebench.bench/1");
  EXPECT_EQ(o.at("percentile_method"), "nearest-rank");
  EXPECT_EQ(o.at("completed").as_int64(), 2);
  EXPECT_EQ(o.at("failed").as_int64(), 1);
  EXPECT_EQ(o.at("errors_by_kind").as_object().at("timeout").as_int64(), 1);
  EXPECT_EQ(o.at("request_rate"), "inf");
  EXPECT_EQ(o.at("random_input_len").as_int64(), 10);
  EXPECT_TRUE(o.at("accept_length").is_null());
  // TTFT 100 and 50 ms: nearest-rank p90 is the larger.
  EXPECT_DOUBLE_EQ(o.at("p90_ttft_ms").as_double(), 100.0);
  EXPECT_DOUBLE_EQ(o.at("mean_ttft_ms").as_double(), 75.0);
  EXPECT_EQ(o.at("definitions").as_object().at("tpot"), "tpot_excl_first");
  EXPECT_FALSE(o.contains("itls"));
}

TEST(ResultFormats, DetailsAddPerRequestArrays) {
  const RunResult r = testing::small_run();
  const json::object o = sglang_result(r, {}, Details::per_request);
  ASSERT_TRUE(o.contains("itls"));
  const auto& itls = o.at("itls").as_array();
  ASSERT_EQ(itls.size(), 3u);
  ASSERT_EQ(itls[0].as_array().size(), 2u);
  EXPECT_NEAR(itls[0].as_array()[0].as_double(), 0.015, 1e-12);  // 100 -> 115 ms
  EXPECT_TRUE(itls[2].as_array().empty());
  EXPECT_EQ(o.at("errors").as_array()[2], "request timed out after 0.1 s");
  EXPECT_EQ(o.at("output_lens").as_array()[2].as_int64(), 0);
}

TEST(ResultFormats, VllmResultUsesVllmKeys) {
  RunResult r = testing::small_run();
  r.echo.request_rate = 4.0;
  r.accept_length = 2.5;
  const json::object o = vllm_result(r, {.tag = "x"}, Details::summary);
  for (const char* k : {"date", "backend", "label", "model_id", "num_prompts", "request_rate", "burstiness",
                        "max_concurrency", "duration", "completed", "failed", "total_token_throughput",
                        "request_goodput", "mean_e2el_ms", "p99_e2el_ms", "p99_ttft_ms", "median_itl_ms"}) {
    EXPECT_TRUE(o.contains(k)) << k;
  }
  EXPECT_DOUBLE_EQ(o.at("request_rate").as_double(), 4.0);
  EXPECT_DOUBLE_EQ(o.at("spec_decode_acceptance_length").as_double(), 2.5);
  EXPECT_EQ(o.at("label"), "x");
}

TEST(ResultFormats, UndefinedStatisticsAreNull) {
  RunResult r = testing::small_run();
  for (auto& rec : r.records) rec.error = RequestError::reset;
  r.metrics = compute_metrics(r.records, r.chunks, r.echo.metric_options);
  const json::object o = sglang_result(r, {}, Details::summary);
  EXPECT_TRUE(o.at("mean_ttft_ms").is_null());
  EXPECT_TRUE(o.at("p99_tpot_ms").is_null());
}

TEST(ResultFormats, PercentileKeysSpellFractions) {
  EXPECT_EQ(percentile_key(99), "p99");
  EXPECT_EQ(percentile_key(99.9), "p99.9");
  RunResult r = testing::small_run();
  r.echo.metric_options.percentiles = {50, 99.9};
  r.metrics = compute_metrics(r.records, r.chunks, r.echo.metric_options);
  const json::object o = sglang_result(r, {}, Details::summary);
  EXPECT_TRUE(o.contains("p99.9_ttft_ms"));
  EXPECT_TRUE(o.contains("p95_ttft_ms"));  // sglang's set is always there
}

}  // namespace
}  // namespace servebench::load
