#include "servebench/load/option_parsing.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace servebench::load {
namespace {

TEST(OptionParsing, RequestRateIsInfOrPositive) {
  EXPECT_EQ(parse_request_rate("inf").value(), std::nullopt);
  EXPECT_EQ(parse_request_rate("INF").value(), std::nullopt);
  EXPECT_EQ(parse_request_rate("2.5").value(), 2.5);
  EXPECT_FALSE(parse_request_rate("0"));
  EXPECT_FALSE(parse_request_rate("fast"));
  EXPECT_FALSE(parse_request_rate("-1"));
  EXPECT_FALSE(parse_request_rate("nan"));
  EXPECT_FALSE(parse_request_rate("1e300"));
}

TEST(OptionParsing, PercentileLists) {
  EXPECT_EQ(parse_percentile_list("50,90, 99.9").value(), (std::vector<double>{50, 90, 99.9}));
  auto bad = parse_percentile_list("50,101");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("--metric-percentiles"), std::string::npos);
}

TEST(OptionParsing, GoodputUsesVllmSyntax) {
  auto slo = parse_goodput({"ttft:500", "tpot:50", "e2el:10000"});
  ASSERT_TRUE(slo);
  EXPECT_EQ(slo->ttft, std::chrono::milliseconds(500));
  EXPECT_EQ(slo->tpot, std::chrono::milliseconds(50));
  EXPECT_EQ(slo->e2e, std::chrono::seconds(10));
  EXPECT_FALSE(parse_goodput({"itl:5"}));
  EXPECT_FALSE(parse_goodput({"ttft"}));
  EXPECT_FALSE(parse_goodput({"ttft:-1"}));
}

TEST(OptionParsing, DefaultOutputNameFollowsSglang) {
  const util::WallTime t{std::chrono::seconds(1'795'963'959)};  // 2026-11-29 UTC
  EXPECT_EQ(default_output_name("sglang", "random", 100, 1024, 128, t), "sglang_1129_100_1024_128.jsonl");
  EXPECT_EQ(default_output_name("vllm", "sharegpt", 50, 0, 0, t), "vllm_1129_50_sharegpt.jsonl");
}

TEST(OptionParsing, GpusFromServerInfo) {
  EXPECT_EQ(gpus_from_server_info(boost::json::parse(R"({"tp_size": 2, "pp_size": 4})")), 8);
  EXPECT_EQ(gpus_from_server_info(boost::json::parse(R"({"tp_size": 8})")), 8);
  EXPECT_EQ(gpus_from_server_info(boost::json::parse(R"({"model": "x"})")), std::nullopt);
  EXPECT_EQ(gpus_from_server_info(nullptr), std::nullopt);
}

}  // namespace
}  // namespace servebench::load
