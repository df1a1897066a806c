#include "servebench/report/exports.hpp"

#include <sstream>

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include "report_test_support.hpp"
#include "servebench/results/cookbook_row.hpp"
#include "servebench/util/strings.hpp"

using namespace servebench::report;
using namespace servebench::report::test_support;

TEST(Exports, CookbookRowsPerArmWithTotalTokensPerGpu) {
  std::ostringstream out;
  write_cookbook_rows(fixture_set({"two-arm"}), out);
  const auto rows = boost::json::parse(out.str()).as_array();
  ASSERT_EQ(rows.size(), 2u);
  const auto row = servebench::results::cookbook_row_from_json(rows[0].as_object());
  ASSERT_TRUE(row) << row.error().message;
  EXPECT_EQ(row->match[0], (std::pair<std::string, std::string>{"arm", "e7b"}));
  EXPECT_EQ(row->sglang_version, "0.5.9");
  EXPECT_EQ(row->latency_percentile, "Mean");
  ASSERT_EQ(row->speed.size(), 6u);  // e7b ok points: 16k-512 C1, C8, C16 (C32 is invalid); 1k-4k C1, C8, C32
  const auto& c8 = row->speed[1];
  EXPECT_EQ(c8.workload.isl, 16384);
  EXPECT_EQ(c8.workload.max_concurrency, 8);
  EXPECT_EQ(c8.workload.num_prompts, 16);
  // 110 out tok/s × (16384 + 512) / 512 / 8 GPUs = 453.75 → 453.8 (1 decimal in cookbook rows).
  EXPECT_DOUBLE_EQ(c8.tokens_per_sec_per_gpu, 453.8);
  EXPECT_DOUBLE_EQ(c8.tpot_ms, 26.0);
  EXPECT_NE(row->notes.find("cache hit threshold: ≤ 0.01"), std::string::npos);
}

TEST(Exports, InferencexCsvUsesSecondsAndInteractivity) {
  std::ostringstream out;
  write_inferencex_csv(fixture_set({"two-arm"}), out);
  const std::string text = out.str();
  const auto lines = servebench::util::split(text, '\n');
  ASSERT_EQ(lines.size(), 1u + 15u + 1u);  // header, 15 ok points, trailing empty
  const auto header = servebench::util::split(lines[0], ',');
  const auto first = servebench::util::split(lines[1], ',');  // e7b 16k-512 C1
  ASSERT_EQ(header.size(), first.size());
  const auto column = [&](std::string_view name) {
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return std::string(first[i]);
    }
    return std::string("(no column)");
  };
  EXPECT_EQ(column("conc"), "1");
  EXPECT_EQ(column("mean_ttft"), "0.61");           // 610 ms
  EXPECT_EQ(column("mean_intvty"), "72.9927");      // 1000 / 13.7 = 72.99270…
  EXPECT_EQ(column("median_intvty"), "74.4602");    // 1000 / 13.43 = 74.46016…
  EXPECT_EQ(column("p90_ttft"), "0.76921");         // 769.21 ms, without binary noise
  EXPECT_EQ(column("tput_per_gpu"), "204.6");       // 49.6 × 33 / 8
  EXPECT_EQ(column("output_tput_per_gpu"), "6.2");  // 49.6 / 8
  EXPECT_EQ(column("point_id"), "e7b/16k-512/c1");
}

TEST(Exports, VllmResultsPerOkPoint) {
  std::ostringstream out;
  write_vllm_results(fixture_set({"two-arm"}), out);
  const auto results = boost::json::parse(out.str()).as_array();
  ASSERT_EQ(results.size(), 15u);
  const auto& r = results[0].as_object();
  EXPECT_EQ(r.at("label").as_string(), "e7b/16k-512/c1");
  EXPECT_EQ(r.at("request_rate").as_string(), "inf");
  EXPECT_EQ(r.at("max_concurrency").as_int64(), 1);
  EXPECT_DOUBLE_EQ(r.at("mean_tpot_ms").as_double(), 13.7);
  EXPECT_DOUBLE_EQ(r.at("output_throughput").as_double(), 49.6);
  // 49.6 tok/s over 82.6 s = 4,096.96 → 4,097 (8 prompts × 512 tokens = 4,096, within rounding of the duration).
  EXPECT_EQ(r.at("total_output_tokens").as_int64(), 4097);
  EXPECT_DOUBLE_EQ(r.at("spec_decode_acceptance_length").as_double(), 3.62);
  for (const auto& v : results) EXPECT_NE(v.as_object().at("label").as_string(), "e7b/16k-512/c32");  // invalid
}
