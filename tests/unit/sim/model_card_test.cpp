#include "servebench/sim/model_card.hpp"

#include <algorithm>

#include <gtest/gtest.h>

using namespace servebench::sim;

TEST(ModelCard, EveryShippedCardLoads) {
  const auto names = model_card_names();
  for (const char* want : {"llama-2-7b", "mistral-7b", "llama-3.1-8b", "llama-3.1-70b", "qwen3-235b-a22b", "deepseek-v3",
                           "glm-5.3-flash"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
    const auto card = load_model_card(want);
    ASSERT_TRUE(card) << card.error().message;
    EXPECT_EQ(card->name, want);
  }
}

TEST(ModelCard, DerivedParamsMatchPublishedTotals) {
  for (const auto& name : model_card_names()) {
    const auto card = load_model_card(name);
    ASSERT_TRUE(card) << card.error().message;
    const auto p = param_breakdown(*card);
    EXPECT_NEAR(p.total() / 1e9, card->params_total_b, 0.05 * card->params_total_b) << name;
    EXPECT_NEAR(p.active() / 1e9, card->params_active_b, 0.10 * card->params_active_b) << name;
  }
}

TEST(ModelCard, KvElementsFollowGqaAndMla) {
  const auto llama = load_model_card("llama-3.1-8b");
  const auto dsv3 = load_model_card("deepseek-v3");
  ASSERT_TRUE(llama && dsv3);
  EXPECT_EQ(kv_elements_per_token_layer(*llama), 2.0 * 8 * 128);
  EXPECT_EQ(kv_elements_per_token_layer(*dsv3), 512.0 + 64.0);
  const auto mha = load_model_card("llama-2-7b");  // multi-head: every head keeps its K and V
  ASSERT_TRUE(mha);
  EXPECT_EQ(kv_elements_per_token_layer(*mha), 4 * kv_elements_per_token_layer(*llama));
}

TEST(ModelCard, SparseAttentionCapsAttendedContext) {
  const auto glm = load_model_card("glm-5.3-flash");
  ASSERT_TRUE(glm);
  EXPECT_EQ(attended_context(*glm, 100), 100);
  EXPECT_EQ(attended_context(*glm, 131072), 2048);
  EXPECT_EQ(index_key_elements_per_token_layer(*glm), 128.0);
}

TEST(ModelCard, UnknownKeyIsRejectedWithPosition) {
  const std::string text =
      "name: x\nlayers: 2\nhidden_size: 8\nvocab_size: 70000\nattention: {kind: gqa, heads: 1, kv_heads: 1, "
      "head_dim: 8}\nmlp: {intermediate_size: 16}\nweight_dtype_bytes: 2\ncontext_length: 64\n"
      "tokens: {eos: 1, special_start: 69000}\nlayer_count: 3\n";
  const auto r = parse_model_card(text, "x.yaml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("x.yaml:10:1"), std::string::npos) << r.error().message;
}

TEST(ModelCard, UnknownModelNamesTheKnownOnes) {
  const auto r = load_model_card("nope");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("llama-3.1-8b"), std::string::npos);
}

namespace {

std::string tiny_card(const std::string& extra, const std::string& vocab = "70000", const std::string& special = "69000") {
  return "name: x\nlayers: 2\nhidden_size: 8\nvocab_size: " + vocab +
         "\nattention: {kind: gqa, heads: 1, kv_heads: 1, head_dim: 8}\nmlp: {intermediate_size: 16}\n" + extra +
         "context_length: 64\ntokens: {eos: 1, special_start: " + special + "}\n";
}

}  // namespace

TEST(ModelCard, WeightFormatsHaveFractionalBytesAndTheirGemm) {
  const auto fp4 = parse_model_card(tiny_card("weight_dtype: nvfp4\n"), "x.yaml");
  ASSERT_TRUE(fp4) << fp4.error().message;
  EXPECT_DOUBLE_EQ(fp4->weight_dtype_bytes, 0.5625);  // 4 bits + one FP8 scale per 16
  EXPECT_EQ(fp4->weight_gemm, GemmDtype::fp4);
  const auto int4 = parse_model_card(tiny_card("weight_dtype: int4\n"), "x.yaml");
  ASSERT_TRUE(int4);
  EXPECT_DOUBLE_EQ(int4->weight_dtype_bytes, 0.515625);
  EXPECT_EQ(int4->weight_gemm, GemmDtype::bf16);  // weight-only: dequantized to BF16
  const auto fp8 = parse_model_card(tiny_card("weight_dtype_bytes: 1\n"), "x.yaml");
  ASSERT_TRUE(fp8);
  EXPECT_EQ(fp8->weight_gemm, GemmDtype::fp8);
}

TEST(ModelCard, AmbiguousOrUnknownWeightFormatsNameTheField) {
  const auto half = parse_model_card(tiny_card("weight_dtype_bytes: 0.5\n"), "x.yaml");
  ASSERT_FALSE(half);
  EXPECT_NE(half.error().message.find("weight_dtype_bytes 0.5 is sub-byte"), std::string::npos) << half.error().message;
  const auto unknown = parse_model_card(tiny_card("weight_dtype: fp3\n"), "x.yaml");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("weight_dtype: unknown weight format 'fp3'"), std::string::npos);
  const auto both = parse_model_card(tiny_card("weight_dtype: fp8\nweight_dtype_bytes: 1\n"), "x.yaml");
  ASSERT_FALSE(both);
  EXPECT_NE(both.error().message.find("not both"), std::string::npos);
}

TEST(ModelCard, AnyVocabularyAboveTheByteTokensLoads) {
  EXPECT_TRUE(parse_model_card(tiny_card("weight_dtype_bytes: 2\n", "32000", "31990"), "x.yaml"));
  EXPECT_TRUE(parse_model_card(tiny_card("weight_dtype_bytes: 2\n", "1000", "990"), "x.yaml"));
  const auto r = parse_model_card(tiny_card("weight_dtype_bytes: 2\n", "300", "250"), "x.yaml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("tokens.special_start"), std::string::npos) << r.error().message;
}

TEST(ModelCard, DraftAcceptRatesAreReadAndRangeChecked) {
  const std::string draft = "weight_dtype_bytes: 2\ndraft: {kind: mtp, layers: 1, params_b: 0.1, active_params_b: 0.1, "
                            "accept_rates: RATES}\n";
  auto with = [&](const std::string& rates) {
    std::string d = draft;
    d.replace(d.find("RATES"), 5, rates);
    return parse_model_card(tiny_card(d), "x.yaml");
  };
  const auto list = with("[0.85, 0.3]");
  ASSERT_TRUE(list) << list.error().message;
  EXPECT_EQ(list->draft->accept_rates, (std::vector<double>{0.85, 0.3}));
  const auto one = with("0.8");
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(one->draft->accept_rates, (std::vector<double>{0.8}));
  const auto bad = with("[0.85, 1.2]");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("draft.accept_rates"), std::string::npos) << bad.error().message;
}
