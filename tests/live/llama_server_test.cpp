// Live tests against a real llama.cpp llama-server (ctest label `live`; llama_server.hpp says when
// they run). bench closed and open loop through the server's way of closing the connection after
// every streamed response, flush + hit-rate verification, the server's counter deltas, the facts
// (slots, context, KV pool) as the adapter reads them, and TPOT against the server's own
// per-token time. The two-arm campaign is in llama_campaign_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "live/llama_server.hpp"
#include "servebench/engines/adapter.hpp"

namespace servebench::live {
namespace {

// Every request completed with exactly the tokens asked for; none failed, and none for a reason a
// connection closed under it would give (the reconnects it took are printed).
void expect_every_request_whole(const json::object& o, int requests, int output_len) {
  EXPECT_EQ(num(o, "completed"), requests);
  EXPECT_EQ(num(o, "total_output_tokens"), requests * output_len);
  EXPECT_EQ(num(o, "output_token_mismatches"), 0);
  EXPECT_EQ(num(o, "failed"), 0);
  EXPECT_TRUE(o.at("errors_by_kind").as_object().empty()) << json::serialize(o.at("errors_by_kind"));
  EXPECT_GE(num(o, "reconnects"), 0);
  std::cout << "reconnects " << num(o, "reconnects") << " for " << requests << " requests\n";
}

// `bench` against a fresh server of `slots` slots, with `load` (prompt and output lengths given).
json::object bench_run(const LiveEnv& env, const std::string& name, int slots, std::vector<std::string> load,
                       int input_len, int output_len) {
  LlamaServer s(env, name, slots);
  EXPECT_TRUE(s.ready()) << s.log();
  load.insert(load.end(), {"--random-input-len", std::to_string(input_len), "--random-output-len",
                           std::to_string(output_len)});
  const Finished r = s.bench(load);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? s.result() : json::object{};
}

TEST(LiveLlamaServer, BenchClosedLoopHasNoFailuresAndExactCounts) {
  SKIP_UNLESS_LIVE(env);
  const auto o = bench_run(env, "closed", 4, {"--num-prompts", "16", "--max-concurrency", "4"}, 32, 16);
  expect_every_request_whole(o, 16, 16);
  ASSERT_TRUE(o.contains("client"));
  EXPECT_TRUE(o.at("client").as_object().at("healthy").as_bool()) << json::serialize(o.at("client"));
}

// One stream at a time, each request sent the moment the previous response ended: the server
// closes the connection right after each stream, so every request races that close.
TEST(LiveLlamaServer, BackToBackRequestsSurviveTheServerClosingEachConnection) {
  SKIP_UNLESS_LIVE(env);
  const auto o = bench_run(env, "back_to_back", 1, {"--num-prompts", "40", "--max-concurrency", "1"}, 8, 2);
  expect_every_request_whole(o, 40, 2);
}

TEST(LiveLlamaServer, BenchOpenLoopHasNoFailures) {
  SKIP_UNLESS_LIVE(env);
  const auto o = bench_run(env, "open", 4, {"--num-prompts", "24", "--request-rate", "8"}, 32, 16);
  expect_every_request_whole(o, 24, 16);
  EXPECT_GT(num(o, "median_ttft_from_intended_ms"), 0);
}

TEST(LiveLlamaServer, FlushVerifiesAColdCacheAndCountersMoveByTheRun) {
  SKIP_UNLESS_LIVE(env);
  LlamaServer s(env, "flush");
  ASSERT_TRUE(s.ready()) << s.log();
  auto adapter = engines::make_adapter("llamacpp");
  ASSERT_TRUE(adapter);
  auto client = http::BlockingClient::create(s.url);
  ASSERT_TRUE(client);
  const auto before = (*adapter)->snapshot(**client);
  ASSERT_TRUE(before) << before.error().message;
  const Finished r = s.bench({"--num-prompts", "8", "--max-concurrency", "2", "--random-input-len", "48",
                              "--random-output-len", "12", "--flush-cache"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto after = (*adapter)->snapshot(**client);
  ASSERT_TRUE(after) << after.error().message;
  const auto o = s.result();
  const auto& cache = o.at("cache").as_object();
  EXPECT_TRUE(cache.at("flushed").as_bool());
  ASSERT_FALSE(cache.at("hit_rate").is_null());
  EXPECT_LE(util::json_number(cache, "hit_rate").value_or(1), 0.05);  // random prompts share no prefix
  // The server generated exactly what the run (plus its warmup) asked for.
  ASSERT_TRUE(before->generation_tokens && after->generation_tokens);
  const double generated = *after->generation_tokens - *before->generation_tokens;
  EXPECT_GE(generated, num(o, "total_output_tokens"));
  EXPECT_LE(generated, num(o, "total_output_tokens") + 32.0 * std::max(1.0, num(o, "warmup_requests")));
}

// -np 3 -c 3072: three slots of 1,024 tokens; the KV pool is the whole -c.
TEST(LiveLlamaServer, FactsReadTheSlotsContextAndKvPoolAsLaunched) {
  SKIP_UNLESS_LIVE(env);
  LlamaServer s(env, "facts", 3);
  ASSERT_TRUE(s.ready()) << s.log();
  auto adapter = engines::make_adapter("llamacpp");
  ASSERT_TRUE(adapter);
  auto client = http::BlockingClient::create(s.url);
  ASSERT_TRUE(client);
  const auto facts = (*adapter)->facts(**client);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->max_running_requests, 3);
  EXPECT_EQ(facts->context_length, 1024);
  EXPECT_EQ(facts->kv_pool_tokens, 3 * 1024);
  EXPECT_FALSE(facts->version.empty());
  const auto vocab = (*adapter)->vocab_size(**client);
  ASSERT_TRUE(vocab && *vocab);
  EXPECT_EQ(**vocab, 32000);  // the model's vocabulary (scripts/tiny-gguf: llama.cpp's SentencePiece vocabulary)
  const auto ids = (*adapter)->tokenize(**client, "The quick brown fox", engines::SpecialTokens::omit);
  ASSERT_TRUE(ids) << ids.error().message;
  ASSERT_FALSE(ids->empty());
  const auto text = (*adapter)->detokenize(**client, *ids);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(util::trim(*text), "The quick brown fox");
}

}  // namespace
}  // namespace servebench::live
