#include "servebench/engines/adapter.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace servebench::engines {
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
  EXPECT_EQ(dialect_of(Engine::sim), flags::Dialect::sglang);
  EXPECT_EQ(dialect_of(Engine::openai), flags::Dialect::generic);
  EXPECT_EQ(dialect_of(Engine::trtllm), flags::Dialect::trtllm);
  EXPECT_EQ(default_backend(Engine::sim), wire::Backend::sim);
  EXPECT_EQ(default_backend(Engine::sglang), wire::Backend::sglang);
  EXPECT_EQ(default_backend(Engine::llamacpp), wire::Backend::llamacpp);
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
  EXPECT_EQ(engine_of(wire::Backend::sglang_oai_chat), Engine::sglang);
  EXPECT_EQ(engine_of(wire::Backend::vllm_chat), Engine::vllm);
  EXPECT_EQ(engine_of(wire::Backend::openai_chat), Engine::openai);
  EXPECT_EQ(engine_of(wire::Backend::sim), Engine::sim);
  for (Engine e : {Engine::sglang, Engine::vllm, Engine::llamacpp, Engine::trtllm, Engine::openai, Engine::sim}) {
    EXPECT_EQ(engine_of(default_backend(e)), e);
  }
}

TEST(EngineAdapter, AcceptLengthFromSglangMeta) {
  EXPECT_DOUBLE_EQ(*accept_length_from_meta(256, 90), 256.0 / 90.0);
  EXPECT_FALSE(accept_length_from_meta(256, 0));
}

}  // namespace
}  // namespace servebench::engines
