#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "front_fixture.hpp"
#include "servebench/wire/prometheus.hpp"
#include "support/wait_for.hpp"

using namespace servebench;
using namespace servebench::sim;
using sim::test::Front;
using namespace std::chrono_literals;

namespace {

double metric(Front& f, std::string_view name) {
  const auto r = f.get("/metrics");
  EXPECT_EQ(r.status, 200);
  return wire::sum_metric(wire::parse_prometheus(r.body), name).value_or(-1);
}

// Polls /metrics until `predicate` holds or 10 s pass (the server offers no notification).
bool eventually(Front& f, std::string_view name, const std::function<bool(double)>& predicate) {
  return servebench::testing::wait_until([&] { return predicate(metric(f, name)); }, 10s, 2ms);
}

}  // namespace

TEST(RoutesAdmin, HealthModelsAndServerInfo) {
  Front f;
  EXPECT_EQ(f.get("/health").status, 200);
  EXPECT_EQ(f.get("/health_generate").status, 200);
  const auto models = Front::json(f.get("/v1/models"));
  EXPECT_EQ(models.at("data").at(0).at("id"), "llama-3.1-8b");
  EXPECT_GT(models.at("data").at(0).at("max_model_len").as_int64(), 0);
  const auto info = Front::json(f.get("/server_info"));
  EXPECT_EQ(info.at("port"), f.server.port());
  EXPECT_EQ(info.at("version"), "test");
  EXPECT_EQ(info.at("sim").at("time_scale").to_number<double>(), 0.0);
  EXPECT_EQ(Front::json(f.get("/get_server_info")), info);
  EXPECT_EQ(Front::json(f.get("/model_info")).at("is_generation"), true);
}

TEST(RoutesAdmin, MetricsCountWhatWasServed) {
  Front f;
  EXPECT_EQ(metric(f, "sglang:prompt_tokens_total"), 0);
  ASSERT_EQ(
      f.post("/generate", R"({"input_ids":[1,2,3],"sampling_params":{"max_new_tokens":5,"ignore_eos":true}})").status,
      200);
  EXPECT_TRUE(eventually(f, "sglang:generation_tokens_total", [](double v) { return v == 5; }));
  EXPECT_EQ(metric(f, "sglang:prompt_tokens_total"), 3);
  EXPECT_EQ(metric(f, "sglang:num_running_reqs"), 0);
  EXPECT_GT(metric(f, "sglang:max_total_num_tokens"), 0);
}

TEST(RoutesAdmin, FlushWhileBusyIs400AndSucceedsOnceIdle) {
  auto options = sim::test::fast_options();
  options.loop.time_scale = 1;  // real time, so the request is still running while we flush
  Front f(options);
  auto busy_client = http::BlockingClient::create(f.server.base_url()).value();
  auto running = std::async(std::launch::async, [&] {
    return busy_client->send({http::Method::post,
                              "/generate",
                              R"({"input_ids":[1,2,3],"sampling_params":{"max_new_tokens":120,"ignore_eos":true}})",
                              "application/json",
                              {}},
                             20s);
  });
  ASSERT_TRUE(eventually(f, "sglang:num_running_reqs", [](double v) { return v == 1; }));
  const auto refused = f.post("/flush_cache", "");
  EXPECT_EQ(refused.status, 400);
  EXPECT_NE(refused.body.find("Flush cache failed"), std::string::npos);
  // ?timeout waits for the engine to idle, like newer SGLang.
  const auto waited = f.post("/flush_cache?timeout=15", "");
  EXPECT_EQ(waited.status, 200);
  EXPECT_NE(waited.body.find("Cache flushed"), std::string::npos);
  ASSERT_TRUE(running.get());
  EXPECT_EQ(f.get("/flush_cache").status, 200);
  EXPECT_EQ(f.post("/flush_cache?timeout=abc", "").status, 400);
}

TEST(RoutesAdmin, UnknownRouteIs404AndOversizedBodyIs413) {
  auto options = sim::test::fast_options();
  options.server.body_limit = 1024;
  Front f(options);
  const auto missing = f.get("/v2/nothing");
  EXPECT_EQ(missing.status, 404);
  EXPECT_TRUE(Front::json(missing).is_object());
  const auto big = f.post("/v1/completions", R"({"prompt":")" + std::string(4096, 'a') + R"("})");
  EXPECT_EQ(big.status, 413);
  // The server is still serving afterwards.
  auto fresh = http::BlockingClient::create(f.server.base_url()).value();
  EXPECT_EQ(fresh->send({http::Method::get, "/health", "", "", {}}, 5s).value().status, 200);
}
