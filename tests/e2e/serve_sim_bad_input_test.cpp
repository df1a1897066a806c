// Bad input never crashes serve-sim and never stalls other streams; clients that leave free their
// slot and KV at once; flush_cache refuses while busy (SGLang's 400).
#include <gtest/gtest.h>

#include <future>

#include "e2e/serve_sim_http.hpp"

namespace servebench::e2e {

TEST(ServeSimBadInput, EveryCaseAnswersWithAJsonErrorAndTheServerStaysUp) {
  Sim sim({"--context-length", "2048", "--sim-max-body-mb", "1"}, "serve_sim_bad");
  ASSERT_TRUE(sim.up());
  auto r = sim.post("/v1/completions", R"({"prompt": "x", "max_tokens": )");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(error_message(r).find("request body"), std::string::npos) << r.body;
  r = sim.post("/v1/chat/completions", R"({"messages":"hi"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(error_message(r).find("messages"), std::string::npos) << r.body;
  r = sim.post("/v1/completions", R"({"prompt":"x","temperature":"hot"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(error_message(r).find("temperature"), std::string::npos) << r.body;
  r = sim.post("/v1/completions", R"({"prompt":[1,2,3],"max_tokens":2046})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(error_message(r).find("maximum context length of 2048 tokens"), std::string::npos) << r.body;
  r = sim.get("/no/such/route");
  EXPECT_EQ(r.status, 404);
  EXPECT_TRUE(boost::json::parse(r.body).is_object());
  r = sim.post("/v1/completions", R"({"prompt":")" + std::string(2 << 20, 'a') + R"("})");
  EXPECT_EQ(r.status, 413);
  // Still serving, and the context boundary itself is fine.
  auto fresh = http::BlockingClient::create(sim.url).value();
  r = sim.post("/v1/completions", R"({"prompt":[1,2,3],"max_tokens":2045,"ignore_eos":true})", fresh.get());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(boost::json::parse(r.body).at("usage").at("completion_tokens"), 2045);
  EXPECT_FALSE(sim.process.wait_exit(0ms));
}

TEST(ServeSimBadInput, ClientLeavingMidStreamFreesItsSlotAndKvAtOnce) {
  // Real time, so the request is still decoding when the client leaves; no radix cache, so freed
  // KV shows as zero tokens in use.
  Sim sim({"--sim-time-scale", "1", "--disable-radix-cache"}, "serve_sim_leave");
  ASSERT_TRUE(sim.up());
  RawClient leaver(sim.port());
  leaver.send_post("/v1/completions", R"({"prompt":"bye","max_tokens":100000,"ignore_eos":true,"stream":true})");
  EXPECT_NE(leaver.read_until("data: ").find("data: "), std::string::npos);
  // The engine publishes its gauges after the step whose chunks the client may already have read.
  EXPECT_TRUE(sim.metric_becomes("sglang:num_running_reqs", [](double v) { return v == 1; }));
  EXPECT_GT(sim.metric("sglang:num_used_tokens"), 0);
  leaver.close_now();
  EXPECT_TRUE(sim.metric_becomes("sglang:num_running_reqs", [](double v) { return v == 0; }));
  EXPECT_EQ(sim.metric("sglang:num_used_tokens"), 0);
}

TEST(ServeSimBadInput, FlushWhileBusyIs400) {
  Sim sim({"--sim-time-scale", "1"}, "serve_sim_flush");
  ASSERT_TRUE(sim.up());
  EXPECT_EQ(sim.post("/flush_cache", "").status, 200);
  RawClient busy(sim.port());
  busy.send_post("/v1/completions", R"({"prompt":"busy","max_tokens":100000,"ignore_eos":true,"stream":true})");
  ASSERT_NE(busy.read_until("data: ").find("data: "), std::string::npos);
  const auto refused = sim.post("/flush_cache", "");
  EXPECT_EQ(refused.status, 400);
  busy.close_now();
  EXPECT_EQ(sim.post("/flush_cache?timeout=20", "").status, 200);
}

TEST(ServeSimBadInput, AClientThatNeverReadsDoesNotStallOthers) {
  Sim sim({}, "serve_sim_stall");
  ASSERT_TRUE(sim.up());
  // A stream whose client never reads: the server's writes to it back up in its own buffers.
  RawClient sleeper(sim.port());
  sleeper.send_post("/v1/completions", R"({"prompt":"zz","max_tokens":120000,"ignore_eos":true,"stream":true})");
  ASSERT_TRUE(sim.metric_becomes("sglang:num_running_reqs", [](double v) { return v == 1; }));
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(sim.post("/v1/completions", "{oops").status, 400);
    const auto r = sim.post("/v1/completions", R"({"prompt":"ok","max_tokens":64,"ignore_eos":true,"stream":true})");
    ASSERT_EQ(r.status, 200);
    bool done = false;
    EXPECT_EQ(sse_objects(r.body, &done).size(), 64u);
    EXPECT_TRUE(done);
  }
}

}  // namespace servebench::e2e
