#include "servebench/results/point.hpp"

#include <cmath>
#include <limits>

#include <boost/json.hpp>
#include <gtest/gtest.h>

using namespace servebench::results;

namespace {
PointRecord sample_point() {
  PointRecord r;
  r.campaign = "demo";
  r.arm = "low-latency";
  r.scenario = "chat";
  r.isl = 1000;
  r.osl = 1000;
  r.concurrency = 16;
  r.effective_concurrency = 16;
  r.num_prompts = 32;
  r.completed = 32;
  r.started_at = "2026-11-29T15:00:00Z";
  r.duration_s = 41.2;
  r.ttft_ms = {120.5, 110, 20, 150, 160, 170, 171};
  r.tpot_ms.mean = std::numeric_limits<double>::quiet_NaN();
  r.throughput.output_tok_per_s = 776.7;
  r.accept_length = 3.2;
  r.cache = {true, 0.0, true, 2};
  r.gate = {true, true};
  r.server = {"sim", "sha256:ab", "arms/low-latency/server_facts.json"};
  return r;
}
}  // namespace

TEST(PointRecord, RoundTripsThroughJson) {
  const PointRecord r = sample_point();
  const auto line = to_json_line(r);
  const auto back = from_json(boost::json::parse(line).as_object());
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->arm, "low-latency");
  EXPECT_EQ(back->concurrency, 16);
  EXPECT_DOUBLE_EQ(back->duration_s, 41.2);
  EXPECT_DOUBLE_EQ(back->ttft_ms.p95, 160);
  EXPECT_TRUE(std::isnan(back->tpot_ms.mean));
  EXPECT_EQ(back->accept_length, 3.2);
  EXPECT_EQ(back->cache.attempts, 2);
  EXPECT_EQ(back->gate.passed, true);
  EXPECT_FALSE(back->request_rate.has_value());
  EXPECT_EQ(to_json_line(*back), line);
}

TEST(PointRecord, WritesTheDesignKeys) {
  const auto o = to_json(sample_point());
  for (const char* k : {"schema", "campaign", "arm", "scenario", "isl", "osl", "concurrency", "effective_concurrency",
                        "request_rate", "num_prompts", "completed", "failed", "status", "reason", "started_at",
                        "duration_s", "gpus", "ttft_ms", "tpot_ms", "itl_ms", "e2e_ms", "throughput",
                        "accept_length", "cache", "gate", "prompts", "client", "server", "tool"}) {
    EXPECT_TRUE(o.contains(k)) << k;
  }
  EXPECT_EQ(o.at("schema").as_string(), "servebench.point/1");
  EXPECT_TRUE(o.at("tpot_ms").as_object().at("mean").is_null());
  EXPECT_TRUE(o.at("request_rate").is_null());
}

TEST(PointRecord, KeepsUnknownKeys) {
  auto o = to_json(sample_point());
  o["future_field"] = boost::json::array{1, 2};
  const auto back = from_json(o);
  ASSERT_TRUE(back);
  EXPECT_EQ(to_json(*back).at("future_field"), (boost::json::array{1, 2}));
}

TEST(PointRecord, RejectsWrongSchemaAndMissingKeys) {
  auto o = to_json(sample_point());
  o["schema"] = "servebench.point/9";
  EXPECT_FALSE(from_json(o));
  auto o2 = to_json(sample_point());
  o2.erase("arm");
  const auto r = from_json(o2);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("'arm'"), std::string::npos);
  auto o3 = to_json(sample_point());
  o3["status"] = "great";
  EXPECT_FALSE(from_json(o3));
}

TEST(PointKey, IdIncludesRateOnlyForOpenLoop) {
  PointRecord r = sample_point();
  EXPECT_EQ(point_id(key_of(r)), "low-latency/chat/c16");
  r.request_rate = 2.5;
  EXPECT_EQ(point_id(key_of(r)), "low-latency/chat/c16@r2.5");
}
