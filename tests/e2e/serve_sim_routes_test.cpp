// `servebench serve-sim` as a real process on an ephemeral port: the generation routes, the oracle,
// stamped chunks and the counters the engine adapter reads back.
#include <gtest/gtest.h>

#include "e2e/serve_sim_http.hpp"
#include "servebench/engines/adapter.hpp"

namespace servebench::e2e {
namespace {

namespace json = boost::json;

std::string ids_json(int n, int salt) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? "," : "") + std::to_string(1000 + salt * 977 + i * 13);
  return s + "]";
}

}  // namespace

TEST(ServeSim, StreamingCompletionWithIgnoreEosReturnsExactlyMaxTokensAndAUsageChunk) {
  Sim sim({}, "serve_sim_stream");
  ASSERT_TRUE(sim.up());
  const auto r = sim.post("/v1/completions", R"({"model":"m","prompt":"Tell me a story","max_tokens":128,
      "ignore_eos":true,"temperature":0,"stream":true,"stream_options":{"include_usage":true}})");
  ASSERT_EQ(r.status, 200);
  bool done = false;
  const auto chunks = sse_objects(r.body, &done);
  EXPECT_TRUE(done);
  ASSERT_GE(chunks.size(), 2u);
  const auto& usage = chunks.back().at("usage").as_object();
  EXPECT_EQ(usage.at("completion_tokens"), 128);
  EXPECT_TRUE(usage.at("prompt_tokens_details").as_object().contains("cached_tokens"));
  EXPECT_TRUE(chunks.back().at("choices").as_array().empty());
  // Token-bearing chunks: one per decode step without speculation.
  EXPECT_EQ(chunks.size() - 1, 128u);
}

TEST(ServeSim, TokenIdPromptIsTakenAsGiven) {
  Sim sim({}, "serve_sim_ids");
  ASSERT_TRUE(sim.up());
  const auto r =
      sim.post("/v1/completions", R"({"prompt":)" + ids_json(300, 1) + R"(,"max_tokens":7,"ignore_eos":true})");
  ASSERT_EQ(r.status, 200);
  const auto body = json::parse(r.body);
  EXPECT_EQ(body.at("usage").at("prompt_tokens"), 300);
  EXPECT_EQ(body.at("usage").at("completion_tokens"), 7);
}

TEST(ServeSim, ChatStreamStartsWithARoleOnlyChunk) {
  Sim sim({}, "serve_sim_chat");
  ASSERT_TRUE(sim.up());
  const auto r = sim.post("/v1/chat/completions", R"({"messages":[{"role":"user","content":"Hello"}],
      "max_tokens":16,"ignore_eos":true,"stream":true,"stream_options":{"include_usage":true}})");
  ASSERT_EQ(r.status, 200);
  bool done = false;
  const auto chunks = sse_objects(r.body, &done);
  EXPECT_TRUE(done);
  ASSERT_GE(chunks.size(), 3u);
  const auto& first = chunks.front().at("choices").at(0).at("delta").as_object();
  EXPECT_EQ(first.at("role"), "assistant");
  EXPECT_EQ(first.at("content"), "");
  EXPECT_EQ(chunks.back().at("usage").at("completion_tokens"), 16);
  EXPECT_EQ(chunks.front().at("object"), "chat.completion.chunk");
}

TEST(ServeSim, AdapterSnapshotAndNativeMetaAgree) {
  Sim sim({"--speculative-algorithm", "EAGLE3", "--speculative-num-steps", "3", "--sim-accept-rate", "0.8"},
          "serve_sim_counters");
  ASSERT_TRUE(sim.up());
  auto adapter = engines::make_adapter("sim").value();
  const auto before = adapter->snapshot(*sim.client).value();
  std::int64_t prompt = 0, completion = 0, cached = 0, verify = 0;
  for (int i = 0; i < 6; ++i) {
    const int salt = i % 3;  // each prompt twice: the second time it hits the prefix cache
    const auto r = sim.post("/generate", R"({"input_ids":)" + ids_json(200, salt) +
                                             R"(,"sampling_params":{"max_new_tokens":40,"ignore_eos":true}})");
    ASSERT_EQ(r.status, 200) << r.body;
    const json::value body = json::parse(r.body);
    const auto& meta = body.at("meta_info");
    prompt += meta.at("prompt_tokens").as_int64();
    completion += meta.at("completion_tokens").as_int64();
    cached += meta.at("cached_tokens").as_int64();
    verify += meta.at("spec_verify_ct").as_int64();
  }
  const auto after = adapter->snapshot(*sim.client).value();
  EXPECT_EQ(*after.prompt_tokens - *before.prompt_tokens, prompt);
  EXPECT_EQ(*after.generation_tokens - *before.generation_tokens, completion);
  EXPECT_EQ(*after.spec_drafts - *before.spec_drafts, verify);
  EXPECT_GT(cached, 0);
  EXPECT_DOUBLE_EQ(adapter->hit_rate(before, after).value(), static_cast<double>(cached) / static_cast<double>(prompt));
  const auto accept = adapter->accept_length(before, after);
  ASSERT_TRUE(accept);
  EXPECT_GT(*accept, 1.5);  // α 0.8 over 3 steps: E = (1 - 0.8^4) / 0.2 = 2.95
  EXPECT_LT(*accept, 4.0);
  const auto facts = adapter->facts(*sim.client).value();
  ASSERT_TRUE(facts.speculative);
  EXPECT_EQ(facts.speculative->algorithm, "EAGLE3");
}

TEST(ServeSim, OracleAnswersWordProblemsWithANaturalStop) {
  Sim sim({"--sim-oracle"}, "serve_sim_oracle");
  ASSERT_TRUE(sim.up());
  const auto r = sim.post("/v1/chat/completions", R"({"messages":[{"role":"user","content":
      "Lea has 40 stickers. Lea gives away 4 stickers. Lea shares them equally among 6 friends. How many stickers does each friend get?"}],
      "temperature":1.0,"max_tokens":256})");
  ASSERT_EQ(r.status, 200);
  const auto body = json::parse(r.body);
  EXPECT_EQ(body.at("choices").at(0).at("message").at("content"), "The answer is 6.");
  EXPECT_EQ(body.at("choices").at(0).at("finish_reason"), "stop");
}

TEST(ServeSim, StampedChunksCarryTheServerSendTime) {
  Sim sim({"--sim-stamp-events"}, "serve_sim_stamp");
  ASSERT_TRUE(sim.up());
  const auto sent = std::chrono::steady_clock::now().time_since_epoch().count();
  const auto r = sim.post("/v1/completions", R"({"prompt":"x","max_tokens":20,"ignore_eos":true,"stream":true,
      "stream_options":{"include_usage":true}})");
  const auto received = std::chrono::steady_clock::now().time_since_epoch().count();
  const auto chunks = sse_objects(r.body);
  ASSERT_EQ(chunks.size(), 21u);
  std::int64_t previous = 0;
  for (const auto& c : chunks) {
    const std::int64_t stamp = c.at("sb_emit_ns").as_int64();  // same host, same steady clock
    EXPECT_GE(stamp, sent);
    EXPECT_LE(stamp, received);
    EXPECT_GE(stamp, previous);
    previous = stamp;
  }
}

}  // namespace servebench::e2e
