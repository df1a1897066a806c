// vLLM adapter, against hand-written vLLM responses (tests/fixtures/engines/README.md).
#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "fake_exchange.hpp"
#include "servebench/engines/adapter.hpp"

namespace servebench::engines {
namespace {

using testing::FakeExchange;
using testing::ManualPacer;
using namespace std::chrono_literals;

struct VllmFixture {
  util::ManualClock clock;
  ManualPacer pacer{clock};
  std::unique_ptr<EngineAdapter> adapter = make_adapter(Engine::vllm, clock, pacer);
  FakeExchange ex;
};

std::string queue(int running, int waiting) {
  return fmt::format("vllm:num_requests_running{{engine=\"0\"}} {}\nvllm:num_requests_waiting{{engine=\"0\"}} {}\n",
                     running, waiting);
}

TEST(VllmAdapter, FlushWaitsForIdleThenResets) {
  VllmFixture f;
  f.ex.on(http::Method::get, "/metrics", 200, queue(1, 2));
  f.ex.on(http::Method::get, "/metrics", 200, queue(0, 0));
  f.ex.on(http::Method::post, "/reset_prefix_cache", 200, "");
  ASSERT_TRUE(f.adapter->flush(f.ex, f.clock.now() + 30s));
  EXPECT_EQ(f.ex.calls, (std::vector<std::string>{"GET /metrics", "GET /metrics", "POST /reset_prefix_cache"}));
}

TEST(VllmAdapter, FlushWithoutDevModeSaysWhatToSet) {
  VllmFixture f;
  f.ex.on(http::Method::get, "/metrics", 200, queue(0, 0));
  auto r = f.adapter->flush(f.ex, f.clock.now() + 30s);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("VLLM_SERVER_DEV_MODE=1"), std::string::npos);
  EXPECT_NE(r.error().message.find("HTTP 404"), std::string::npos);
}

TEST(VllmAdapter, FlushDoesNotResetWhileBusy) {
  VllmFixture f;
  f.ex.on(http::Method::get, "/metrics", 200, queue(4, 0));
  f.ex.on(http::Method::post, "/reset_prefix_cache", 200, "");
  EXPECT_FALSE(f.adapter->flush(f.ex, f.clock.now() + 1s));
  EXPECT_EQ(std::count(f.ex.calls.begin(), f.ex.calls.end(), "POST /reset_prefix_cache"), 0);
}

TEST(VllmAdapter, SnapshotHitRateAndAcceptLength) {
  VllmFixture f;
  f.ex.on_fixture(http::Method::get, "/metrics", "engines/vllm_metrics.prom");
  f.ex.on(http::Method::get, "/metrics", 200,
          "vllm:prefix_cache_queries_total{engine=\"0\"} 10000\nvllm:prefix_cache_hits_total{engine=\"0\"} 200\n"
          "vllm:spec_decode_num_drafts_total{engine=\"0\"} 500\n"
          "vllm:spec_decode_num_accepted_tokens_total{engine=\"0\"} 1250\n" + queue(0, 0));
  auto before = f.adapter->snapshot(f.ex);
  auto after = f.adapter->snapshot(f.ex);
  ASSERT_TRUE(before && after);
  EXPECT_EQ(before->prompt_tokens, 8000);
  EXPECT_EQ(before->cached_tokens, 160);
  EXPECT_EQ(before->generation_tokens, 2048);
  EXPECT_EQ(before->spec_draft_tokens, 1600);
  EXPECT_DOUBLE_EQ(*f.adapter->hit_rate(*before, *after), 40.0 / 2000.0);
  EXPECT_DOUBLE_EQ(*f.adapter->accept_length(*before, *after), 1.0 + 250.0 / 100.0);
}

TEST(VllmAdapter, OlderGpuPrefixedCounterNames) {
  VllmFixture f;
  f.ex.on(http::Method::get, "/metrics", 200,
          "vllm:gpu_prefix_cache_queries_total 100\nvllm:gpu_prefix_cache_hits_total 7\n");
  auto s = f.adapter->snapshot(f.ex);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->prompt_tokens, 100);
  EXPECT_EQ(s->cached_tokens, 7);
}

TEST(VllmAdapter, FactsFromModelsVersionMetricsAndDevServerInfo) {
  VllmFixture f;
  f.ex.on_fixture(http::Method::get, "/v1/models", "engines/vllm_models.json");
  f.ex.on_fixture(http::Method::get, "/version", "engines/vllm_version.json");
  f.ex.on_fixture(http::Method::get, "/metrics", "engines/vllm_metrics.prom");
  f.ex.on_fixture(http::Method::get, "/server_info", "engines/vllm_server_info.json");
  auto facts = f.adapter->facts(f.ex);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->model, "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(facts->version, "0.11.0");
  EXPECT_EQ(facts->context_length, 8192);
  EXPECT_EQ(facts->kv_pool_tokens, 2000 * 16);
  EXPECT_EQ(facts->max_running_requests, 256);
  ASSERT_TRUE(facts->speculative);
  EXPECT_EQ(facts->speculative->algorithm, "eagle3");
  EXPECT_EQ(facts->speculative->num_draft_tokens, 3);
  EXPECT_TRUE(boost::json::parse(facts->raw_json).as_object().contains("/server_info"));
}

TEST(VllmAdapter, FactsWithoutDevMode) {
  VllmFixture f;
  f.ex.on_fixture(http::Method::get, "/v1/models", "engines/vllm_models.json");
  auto facts = f.adapter->facts(f.ex);
  ASSERT_TRUE(facts);
  EXPECT_FALSE(facts->max_running_requests);
  EXPECT_FALSE(facts->kv_pool_tokens);
  EXPECT_EQ(facts->version, "");
}

TEST(VllmAdapter, TokenizeAndDetokenizeUseThePromptKey) {
  VllmFixture f;
  f.ex.on_fixture(http::Method::post, "/tokenize", "engines/vllm_tokenize.json");
  f.ex.on_fixture(http::Method::post, "/detokenize", "engines/vllm_detokenize.json");
  auto ids = f.adapter->tokenize(f.ex, "Hello world!", SpecialTokens::add);
  ASSERT_TRUE(ids);
  EXPECT_EQ(ids->size(), 4u);
  EXPECT_TRUE(boost::json::parse(f.ex.bodies[0]).at("add_special_tokens").as_bool());
  auto text = f.adapter->detokenize(f.ex, *ids);
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "Hello world!");
}

}  // namespace
}  // namespace servebench::engines
