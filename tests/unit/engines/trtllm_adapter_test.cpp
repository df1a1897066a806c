// trtllm-serve adapter, against hand-written responses (tests/fixtures/engines/README.md; field names unverified).
#include <gtest/gtest.h>

#include "fake_exchange.hpp"
#include "servebench/engines/adapter.hpp"

namespace servebench::engines {
namespace {

using testing::FakeExchange;
using testing::ManualPacer;
using namespace std::chrono_literals;

struct TrtllmFixture {
  util::ManualClock clock;
  ManualPacer pacer{clock};
  std::unique_ptr<EngineAdapter> adapter = make_adapter(Engine::trtllm, clock, pacer);
  FakeExchange ex;
};

TEST(TrtllmAdapter, FlushIsUnsupportedWithAlternatives) {
  TrtllmFixture f;
  auto r = f.adapter->flush(f.ex, f.clock.now() + 30s);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("trtllm at http://127.0.0.1:30000 does not support a cache flush"),
            std::string::npos);
  EXPECT_NE(r.error().message.find("enable_block_reuse: false"), std::string::npos);
  EXPECT_TRUE(f.ex.calls.empty());
}

TEST(TrtllmAdapter, CountersSurviveTheDrainedStatsList) {
  TrtllmFixture f;
  f.ex.on_fixture(http::Method::get, "/metrics", "engines/trtllm_metrics.json");
  f.ex.on(http::Method::get, "/metrics", 200, "[]");  // drained: nothing new since the last read
  f.ex.on(http::Method::get, "/metrics", 200,
          R"([{"numActiveRequests":0,"numQueuedRequests":0,"kvCacheStats":{"reusedBlocks":35,"missedBlocks":1065}}])");
  auto a = f.adapter->snapshot(f.ex);
  auto b = f.adapter->snapshot(f.ex);
  auto c = f.adapter->snapshot(f.ex);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->cached_tokens, 25);
  EXPECT_EQ(a->prompt_tokens, 1000);
  EXPECT_EQ(b->cached_tokens, 25);
  EXPECT_DOUBLE_EQ(*f.adapter->hit_rate(*a, *c), 10.0 / 100.0);
}

TEST(TrtllmAdapter, WaitIdleReadsActiveAndQueuedRequests) {
  TrtllmFixture f;
  f.ex.on(http::Method::get, "/metrics", 200, R"([{"numActiveRequests":3,"numQueuedRequests":1}])");
  f.ex.on(http::Method::get, "/metrics", 200, R"([{"numActiveRequests":0,"numQueuedRequests":0}])");
  ASSERT_TRUE(f.adapter->wait_idle(f.ex, f.clock.now() + 10s));
  EXPECT_EQ(f.ex.calls.size(), 2u);
}

TEST(TrtllmAdapter, MissingStatsNameTheOption) {
  TrtllmFixture f;
  auto s = f.adapter->snapshot(f.ex);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("enable_iter_perf_stats"), std::string::npos);
}

TEST(TrtllmAdapter, FactsAndInternalTokenize) {
  TrtllmFixture f;
  f.ex.on_fixture(http::Method::get, "/v1/models", "engines/trtllm_models.json");
  f.ex.on(http::Method::get, "/version", 200, R"({"version":"1.2.0"})");
  f.ex.on(http::Method::post, "/_internal/tokenize", 200, R"({"count":2,"tokens":[5,6]})");
  auto facts = f.adapter->facts(f.ex);
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->model, "nvidia/Llama-3.1-8B-Instruct-FP8");
  EXPECT_EQ(facts->version, "1.2.0");
  EXPECT_FALSE(facts->context_length);
  auto ids = f.adapter->tokenize(f.ex, "hi", SpecialTokens::add);
  ASSERT_TRUE(ids);
  EXPECT_EQ(*ids, (wire::TokenIds{5, 6}));
  const std::vector<std::int32_t> some{1};
  auto text = f.adapter->detokenize(f.ex, some);
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("does not support detokenize"), std::string::npos);
}

}  // namespace
}  // namespace servebench::engines
