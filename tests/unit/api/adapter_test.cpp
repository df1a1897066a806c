#include "servebench/api/adapter.hpp"

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

TEST(EngineAdapter, AcceptLengthFromSglangMeta) {
  EXPECT_DOUBLE_EQ(*accept_length_from_meta(256, 90), 256.0 / 90.0);
  EXPECT_FALSE(accept_length_from_meta(256, 0));
}

}  // namespace
}  // namespace servebench::api
