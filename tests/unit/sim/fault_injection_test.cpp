// --sim-fault: the plan parser, the seeded choice of faulty requests, and each fault as a client on
// loopback sees it (a real SimServer in fast timing).
#include <gtest/gtest.h>

#include <chrono>

#include "front_fixture.hpp"
#include "servebench/sim/fault_injection.hpp"

using namespace servebench;
using namespace servebench::sim;
using sim::test::Front;

namespace {

FaultPlan plan_of(std::vector<std::string> values, std::uint64_t seed = 7) {
  auto p = parse_fault_plan(values, seed);
  EXPECT_TRUE(p) << p.error().message;
  return p.value_or(FaultPlan{});
}

std::string parse_error(std::vector<std::string> values) {
  auto p = parse_fault_plan(values, 0);
  EXPECT_FALSE(p);
  return p ? "" : p.error().message;
}

Front front_with(std::vector<std::string> faults) {
  FrontOptions o = sim::test::fast_options();
  o.faults = plan_of(std::move(faults));
  return Front(o);
}

const std::string k_stream = R"({"prompt":"Hello","max_tokens":8,"ignore_eos":true,"stream":true})";
const std::string k_whole = R"({"prompt":"Hello","max_tokens":8,"ignore_eos":true})";

}  // namespace

TEST(FaultPlan, ParsesEveryKind) {
  const auto p = plan_of({"http-5xx:0.1", "disconnect-mid-stream:0.2", "stall:0.3:1.5", "malformed-chunk:0.4",
                          "crash-after:12-requests", "slow-headers:250", "slow-steps:4.5"});
  EXPECT_DOUBLE_EQ(p.http_5xx_rate, 0.1);
  EXPECT_DOUBLE_EQ(p.disconnect_rate, 0.2);
  EXPECT_DOUBLE_EQ(p.stall_rate, 0.3);
  EXPECT_DOUBLE_EQ(p.stall_seconds, 1.5);
  EXPECT_DOUBLE_EQ(p.malformed_rate, 0.4);
  EXPECT_EQ(p.crash_after, 12u);
  EXPECT_DOUBLE_EQ(p.slow_headers_ms, 250);
  EXPECT_DOUBLE_EQ(p.slow_steps_ms, 4.5);
  EXPECT_TRUE(plan_of({"slow-steps:3"}).empty());  // the engine loop's fault: the routes are not wrapped
  EXPECT_EQ(plan_of({"crash-after:3"}).crash_after, 3u);
  EXPECT_TRUE(plan_of({}).empty());
}

TEST(FaultPlan, RejectsBadValuesNamingTheKindAndRange) {
  EXPECT_NE(parse_error({"http-5xx:1.5"}).find("the rate must be a number in [0, 1]"), std::string::npos);
  EXPECT_NE(parse_error({"http-5xx:nan"}).find("http-5xx:nan"), std::string::npos);
  EXPECT_NE(parse_error({"stall:0.5"}).find("expected stall:RATE:SECONDS"), std::string::npos);
  EXPECT_NE(parse_error({"stall:0.5:-1"}).find("the stall in seconds"), std::string::npos);
  EXPECT_NE(parse_error({"crash-after:x"}).find("whole number"), std::string::npos);
  EXPECT_NE(parse_error({"slow-headers:1e9"}).find("[0, 600000]"), std::string::npos);
  EXPECT_NE(parse_error({"slow-steps:-1"}).find("[0, 60000]"), std::string::npos);
  EXPECT_NE(parse_error({"explode:1"}).find("unknown kind 'explode'"), std::string::npos);
  EXPECT_NE(parse_error({"http-5xx:0.1", "http-5xx:0.2"}).find("given twice"), std::string::npos);
}

TEST(FaultPlan, TheChoiceIsAPureFunctionOfSeedAndRequestNumber) {
  const auto a = plan_of({"http-5xx:0.3", "malformed-chunk:0.3"}, 1);
  const auto b = plan_of({"http-5xx:0.3", "malformed-chunk:0.3"}, 2);
  std::uint64_t differ = 0;
  for (std::uint64_t n = 0; n < 200; ++n) {
    EXPECT_EQ(fault_for(a, n), fault_for(a, n));
    differ += fault_for(a, n) != fault_for(b, n) ? 1 : 0;
  }
  EXPECT_GT(differ, 0u) << "another seed picks other requests";
  const auto fives = fault_count(a, FaultKind::http_5xx, 1000);
  EXPECT_GT(fives, 230u);  // ~300 expected
  EXPECT_LT(fives, 370u);
  EXPECT_EQ(fault_count(plan_of({"http-5xx:1"}), FaultKind::http_5xx, 50), 50u);
  EXPECT_EQ(fault_count(plan_of({"crash-after:5"}), FaultKind::crash, 8), 3u);
}

TEST(FaultInjection, Http5xxAnswers503WithAnErrorBody) {
  Front f = front_with({"http-5xx:1"});
  const auto r = f.post("/v1/completions", k_stream);
  EXPECT_EQ(r.status, 503);
  EXPECT_NE(r.body.find("fault injected: http-5xx"), std::string::npos) << r.body;
  EXPECT_EQ(f.get("/health").status, 200) << "control routes are never faulted";
}

TEST(FaultInjection, MalformedChunkReplacesTheFirstEventWithInvalidJson) {
  Front f = front_with({"malformed-chunk:1"});
  const auto r = f.post("/v1/completions", k_stream);
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.body.rfind("data: {\"choices\":[{\"text\": fault-injected\n\n", 0), 0u) << r.body;
  const auto whole = f.post("/v1/completions", k_whole);
  ASSERT_EQ(whole.status, 200);
  boost::system::error_code ec;
  (void)boost::json::parse(whole.body, ec);
  EXPECT_TRUE(ec) << "a whole answer is cut in half: " << whole.body;
}

TEST(FaultInjection, DisconnectClosesTheConnectionAfterTheFirstChunk) {
  Front f = front_with({"disconnect-mid-stream:1"});
  auto r = f.client->send({http::Method::post, "/v1/completions", k_stream, "application/json", {}},
                          std::chrono::seconds(20));
  EXPECT_FALSE(r) << "the response never ends: " << (r ? r->body : "");
}

TEST(FaultInjection, SlowHeadersAndStallHoldTheAnswer) {
  Front slow = front_with({"slow-headers:300"});
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(slow.post("/v1/completions", k_stream).status, 200);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(300));
  Front stall = front_with({"stall:1:0.4"});
  t0 = std::chrono::steady_clock::now();
  const auto r = stall.post("/v1/completions", k_stream);
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("[DONE]"), std::string::npos) << "the stream resumes after the stall";
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(400));
}
