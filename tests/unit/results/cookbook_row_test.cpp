#include "servebench/results/cookbook_row.hpp"

#include <cmath>

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include "servebench/util/json_text.hpp"

using namespace servebench::results;

namespace {
PointRecord ok_point() {
  PointRecord p;
  p.arm = "tp4";
  p.scenario = "1k-256";
  p.isl = 1024;
  p.osl = 256;
  p.concurrency = 64;
  p.num_prompts = 320;
  p.gpus = 4;
  p.ttft_ms.mean = 1459.64;
  p.tpot_ms.mean = 17.6849;
  p.throughput.output_tok_per_s = 1824.66;
  p.throughput.total_tok_per_s = 9123.3;
  p.throughput.total_tok_per_s_per_gpu = 2280.83;
  return p;
}
}  // namespace

TEST(CookbookRow, SpeedUsesMeanLatencyAndTotalTokensPerGpu) {
  const auto s = cookbook_speed_from_point(ok_point());
  EXPECT_EQ(s.workload.dataset, "random");
  EXPECT_EQ(s.workload.isl, 1024);
  EXPECT_EQ(s.workload.osl, 256);
  EXPECT_EQ(s.workload.max_concurrency, 64);
  EXPECT_EQ(s.workload.num_prompts, 320);
  EXPECT_DOUBLE_EQ(s.ttft_ms, 1459.64);
  EXPECT_DOUBLE_EQ(s.tpot_ms, 17.6849);
  EXPECT_DOUBLE_EQ(s.tokens_per_sec_per_gpu, 2280.83);
}

TEST(CookbookRow, FallsBackToTheCookbookFormulaWithoutTotals) {
  auto p = ok_point();
  p.throughput.total_tok_per_s = std::nan("");
  p.throughput.total_tok_per_s_per_gpu = std::nan("");
  // The cookbook header's own check: 1,824.66 output tok/s × (1024+256)/256 ÷ 4 GPUs = 2,280.825.
  EXPECT_NEAR(cookbook_speed_from_point(p).tokens_per_sec_per_gpu, 2280.825, 1e-9);
  p.throughput.total_tok_per_s = 9000;
  EXPECT_DOUBLE_EQ(cookbook_speed_from_point(p).tokens_per_sec_per_gpu, 2250);
}

TEST(CookbookRow, WritesTheCookbookShapeWithCookbookRounding) {
  CookbookRow row;
  row.match = {{"hw", "gb300"}, {"strategy", "high-throughput"}, {"quant", "fp8"}};
  row.sglang_version = "d6ab04bdf1";
  row.speed.push_back(cookbook_speed_from_point(ok_point()));
  row.accuracy = {{"gsm8k_pct", 97.35}};
  row.notes = "8 GPUs";
  const auto text = servebench::util::to_json_text(to_json(row));
  EXPECT_EQ(text, R"({"match":{"hw":"gb300","strategy":"high-throughput","quant":"fp8"},"sglang_version":"d6ab04bdf1",)"
                  R"("latencyPercentile":"Mean","speed":[{"workload":{"dataset":"random","isl":1024,"osl":256,)"
                  R"("max_concurrency":64,"num_prompts":320},"ttft_ms":1459.6,"tpot_ms":17.68,)"
                  R"("tokens_per_sec_per_gpu":2280.8}],"accuracy":{"gsm8k_pct":97.35},"notes":"8 GPUs"})");
}

TEST(CookbookRow, PendingRowIsMatchOnly) {
  CookbookRow row;
  row.match = {{"hw", "b200"}};
  EXPECT_EQ(servebench::util::to_json_text(to_json(row)), R"({"match":{"hw":"b200"}})");
}

TEST(CookbookRow, ReadsTheReferenceExample) {
  const auto v = boost::json::parse(
      R"({"match":{"hw":"gb300","strategy":"high-throughput","kvDsaPair":"fp8-trtllm","quant":"fp8"},
          "sglang_version":"d6ab04bdf1","latencyPercentile":"Mean",
          "speed":[{"workload":{"dataset":"random","isl":1024,"osl":256,"max_concurrency":64,"num_prompts":320},
                    "ttft_ms":1459.6,"tpot_ms":17.68,"tokens_per_sec_per_gpu":3423.3}],
          "accuracy":{"gsm8k_pct":97.35},"notes":"free text"})");
  const auto row = cookbook_row_from_json(v.as_object());
  ASSERT_TRUE(row) << row.error().message;
  ASSERT_EQ(row->match.size(), 4u);
  EXPECT_EQ(row->match[2].first, "kvDsaPair");
  ASSERT_EQ(row->speed.size(), 1u);
  EXPECT_EQ(row->speed[0].workload.max_concurrency, 64);
  EXPECT_DOUBLE_EQ(row->speed[0].tokens_per_sec_per_gpu, 3423.3);
  ASSERT_EQ(row->accuracy.size(), 1u);
  EXPECT_DOUBLE_EQ(row->accuracy[0].second, 97.35);
  // Round trip: writing what was read gives the same object back.
  EXPECT_EQ(to_json(*row), v.as_object());
}

TEST(CookbookRow, RejectsARowWithoutMatchOrWithABadSpeed) {
  const auto no_match = cookbook_row_from_json(boost::json::parse(R"({"speed":[]})").as_object());
  ASSERT_FALSE(no_match);
  EXPECT_NE(no_match.error().message.find("match"), std::string::npos);
  const auto bad_speed = cookbook_row_from_json(
      boost::json::parse(
          R"({"match":{},"speed":[{"workload":{"isl":1,"osl":1},"ttft_ms":1,"tpot_ms":1,"tokens_per_sec_per_gpu":1}]})")
          .as_object());
  ASSERT_FALSE(bad_speed);
  EXPECT_NE(bad_speed.error().message.find("speed[0].workload"), std::string::npos);
}

TEST(CookbookRow, EngineVersionNamesEveryEngineButSglang) {
  EXPECT_EQ(servebench::results::cookbook_engine_version("sglang", "0.5.9"), "0.5.9");
  EXPECT_EQ(servebench::results::cookbook_engine_version("sim", "0.1.0"), "sim 0.1.0 (servebench serve-sim)");
  EXPECT_EQ(servebench::results::cookbook_engine_version("vllm", "0.11.0"), "vllm 0.11.0");
  EXPECT_EQ(servebench::results::cookbook_engine_version("sim", ""), "");
}
