#include "servebench/api/adapter.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace servebench::api {
namespace {

TEST(Engine, NamesRoundTripAndMapToDialectAndBackend) {
  for (auto e : {Engine::sglang, Engine::vllm, Engine::llamacpp, Engine::trtllm, Engine::openai, Engine::sim}) {
    auto parsed = parse_engine(to_string(e));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*parsed, e);
  }
  auto bad = parse_engine("tgi");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, util::ErrorKind::bad_input);
  EXPECT_EQ(dialect_of(Engine::sim), Dialect::sglang);
  EXPECT_EQ(dialect_of(Engine::openai), Dialect::generic);
  EXPECT_EQ(dialect_of(Engine::trtllm), Dialect::trtllm);
  EXPECT_EQ(default_backend(Engine::sim), Backend::sim);
  EXPECT_EQ(default_backend(Engine::sglang), Backend::sglang);
  EXPECT_EQ(default_backend(Engine::llamacpp), Backend::llamacpp);
}

TEST(EngineAdapter, FactoryBuildsTheNamedEngine) {
  for (auto name : {"sglang", "vllm", "llamacpp", "trtllm", "openai", "sim"}) {
    auto a = make_adapter(name);
    ASSERT_TRUE(a) << name;
    EXPECT_EQ(to_string((*a)->engine()), name);
  }
  EXPECT_FALSE(make_adapter("tgi"));
}

TEST(EngineAdapter, BackendsMapToTheirEngines) {
  EXPECT_EQ(engine_of(Backend::sglang_oai_chat), Engine::sglang);
  EXPECT_EQ(engine_of(Backend::vllm_chat), Engine::vllm);
  EXPECT_EQ(engine_of(Backend::openai_chat), Engine::openai);
  EXPECT_EQ(engine_of(Backend::sim), Engine::sim);
  for (Engine e : {Engine::sglang, Engine::vllm, Engine::llamacpp, Engine::trtllm, Engine::openai, Engine::sim}) {
    EXPECT_EQ(engine_of(default_backend(e)), e);
  }
}

TEST(ServerFacts, JsonHasEveryKeyWithNullForUnknown) {
  ServerFacts f;
  f.engine = "sim";
  f.context_length = 270336;
  f.speculative = SpeculativeFacts{"EAGLE3", 4, 1, std::nullopt};
  const auto o = to_json(f);
  EXPECT_EQ(o.at("engine").as_string(), "sim");
  EXPECT_EQ(o.at("context_length").as_int64(), 270336);
  EXPECT_TRUE(o.at("kv_pool_tokens").is_null());
  EXPECT_TRUE(o.at("max_running_requests").is_null());
  EXPECT_EQ(o.at("speculative").as_object().at("num_steps").as_int64(), 4);
  EXPECT_TRUE(o.at("speculative").as_object().at("num_draft_tokens").is_null());
  f.speculative.reset();
  EXPECT_TRUE(to_json(f).at("speculative").is_null());
}

TEST(EngineAdapter, AcceptLengthFromSglangMeta) {
  EXPECT_DOUBLE_EQ(*accept_length_from_meta(256, 90), 256.0 / 90.0);
  EXPECT_FALSE(accept_length_from_meta(256, 0));
}

}  // namespace
}  // namespace servebench::api
