#include "servebench/wire/models_encoder.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "support/fixture.hpp"

namespace servebench::wire {
namespace {

// The hand-written SGLang /v1/models fixture is what the adapters are tested against: the
// encoder, given the same values, writes the same document.
TEST(ModelsEncoder, ModelsListMatchesTheSglangFixture) {
  std::string out;
  encode_models_response(out, ModelEntry{"Qwen/Qwen3-8B", 1795963960, "sglang", "Qwen/Qwen3-8B", 32768});
  EXPECT_EQ(boost::json::parse(out), boost::json::parse(testing::read_fixture("engines/sglang_models.json")));
  out.clear();
  encode_models_response(out, ModelEntry{"served \"name\"", 1, "sglang", "/models/x", 4096});
  const auto model = boost::json::parse(out).at("data").as_array().at(0).as_object();
  EXPECT_EQ(model.at("id"), "served \"name\"");
  EXPECT_EQ(model.at("max_model_len"), 4096);
}

TEST(ModelsEncoder, ModelInfoUsesSglangKeys) {
  std::string out;
  ModelInfo info;
  info.model_path = "/models/llama";
  info.tokenizer_path = "/models/llama";
  info.model_type = "llama";
  encode_model_info(out, info);
  EXPECT_EQ(out, R"({"model_path":"/models/llama","tokenizer_path":"/models/llama","is_generation":true,)"
                 R"("weight_version":"default","model_type":"llama"})");
}

}  // namespace
}  // namespace servebench::wire
