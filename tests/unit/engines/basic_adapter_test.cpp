#include "servebench/engines/basic_adapter.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "fake_exchange.hpp"

namespace servebench::engines {
namespace {

using testing::FakeExchange;
using testing::ManualPacer;

struct OpenAiFixture {
  util::ManualClock clock;
  ManualPacer pacer{clock};
  BasicAdapter adapter{Engine::openai, clock, pacer};
  FakeExchange ex;
};

TEST(BasicAdapter, ControlPlaneIsUnsupportedWithAnAlternative) {
  OpenAiFixture f;
  auto flush = f.adapter.flush(f.ex, f.clock.now());
  ASSERT_FALSE(flush);
  EXPECT_EQ(flush.error().message,
            "openai at http://127.0.0.1:30000 does not support a cache flush: use unique prompts (cold_cache: false), "
            "or name the server's real engine");
  EXPECT_FALSE(f.adapter.wait_idle(f.ex, f.clock.now()));
  EXPECT_FALSE(f.adapter.snapshot(f.ex));
  EXPECT_FALSE(f.adapter.hit_rate({}, {}));
  EXPECT_FALSE(f.adapter.accept_length({}, {}));
  EXPECT_FALSE(f.adapter.tokenize(f.ex, "x", SpecialTokens::add));
  const std::vector<std::int32_t> ids{1};
  EXPECT_FALSE(f.adapter.detokenize(f.ex, ids));
  EXPECT_TRUE(f.ex.calls.empty());  // nothing was sent
}

TEST(BasicAdapter, ModelsFactsAndHealthFromStandardRoutes) {
  OpenAiFixture f;
  f.ex.on_fixture(http::Method::get, "/v1/models", "engines/vllm_models.json");
  auto model = f.adapter.models(f.ex);
  ASSERT_TRUE(model);
  EXPECT_EQ(*model, "meta-llama/Llama-3.1-8B-Instruct");
  auto facts = f.adapter.facts(f.ex);
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->engine, "openai");
  EXPECT_EQ(facts->context_length, 8192);
  const auto raw = boost::json::parse(facts->raw_json);
  EXPECT_EQ(raw.at("/v1/models").at("data").as_array().size(), 1u);
  auto vocab = f.adapter.vocab_size(f.ex);
  ASSERT_TRUE(vocab);
  EXPECT_FALSE(*vocab);

  f.ex.on(http::Method::get, "/health", 503, "{\"error\":{\"code\":503,\"message\":\"Loading model\"}}");
  f.ex.on(http::Method::get, "/health", 200, "");
  auto loading = f.adapter.health(f.ex);
  ASSERT_TRUE(loading);
  EXPECT_FALSE(loading->ready);
  EXPECT_EQ(loading->status, 503);
  EXPECT_NE(loading->detail.find("Loading model"), std::string::npos);
  auto ready = f.adapter.health(f.ex);
  ASSERT_TRUE(ready);
  EXPECT_TRUE(ready->ready);
}

TEST(BasicAdapter, EmptyModelListIsAnError) {
  OpenAiFixture f;
  f.ex.on(http::Method::get, "/v1/models", 200, R"({"object":"list","data":[]})");
  auto model = f.adapter.models(f.ex);
  ASSERT_FALSE(model);
  EXPECT_NE(model.error().message.find("no model"), std::string::npos);
}

TEST(BasicAdapter, HealthFailsOnlyWhenUnreachable) {
  OpenAiFixture f;
  f.ex.set_unreachable();
  auto h = f.adapter.health(f.ex);
  ASSERT_FALSE(h);
  EXPECT_EQ(h.error().kind, util::ErrorKind::unreachable);
}

TEST(BasicAdapter, TokenIdsAcceptPlainIdsAndPieces) {
  const auto plain = boost::json::parse("[1,2,3]");
  auto a = token_ids_of(&plain, "t");
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, (wire::TokenIds{1, 2, 3}));
  const auto pieces = boost::json::parse(R"([{"id":7,"piece":"a"},{"id":8,"piece":"b"}])");
  auto b = token_ids_of(&pieces, "t");
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, (wire::TokenIds{7, 8}));
  const auto bad = boost::json::parse(R"(["x"])");
  EXPECT_FALSE(token_ids_of(&bad, "t"));
  EXPECT_FALSE(token_ids_of(nullptr, "t"));
  const std::vector<std::int32_t> ids{4, 5};
  EXPECT_EQ(token_array(ids), "[4,5]");
}

}  // namespace
}  // namespace servebench::engines
