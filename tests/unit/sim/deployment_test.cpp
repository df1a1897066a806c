#include "servebench/sim/deployment.hpp"

#include "servebench/sim/speculative.hpp"

#include <gtest/gtest.h>

using namespace servebench::sim;

namespace {

SimConfig glm_tp2pp4() {
  SimConfig c;
  c.hardware = "rtx-pro-6000";
  c.model = "glm-5.3-flash";
  c.tp_size = 2;
  c.pp_size = 4;
  c.mem_fraction_static = 0.85;
  c.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
  return c;
}

SimConfig glm_e7b() {
  SimConfig c = glm_tp2pp4();
  c.tp_size = 8;
  c.pp_size = 1;
  c.mem_fraction_static = 0.90;
  c.speculative_algorithm = SpecAlgorithm::eagle3;
  c.speculative_num_steps = 4;
  c.speculative_eagle_topk = 1;
  c.speculative_num_draft_tokens = 5;
  return c;
}

}  // namespace

TEST(Deployment, GlmTp2Pp4PoolMatchesTheBrief) {
  auto d = make_deployment(glm_tp2pp4());
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_NEAR(static_cast<double>(d->memory.max_total_num_tokens), 1'040'384.0, 0.10 * 1'040'384.0);
}

TEST(Deployment, GlmTp8Eagle3PoolMatchesTheBrief) {
  auto d = make_deployment(glm_e7b());
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_NEAR(static_cast<double>(d->memory.max_total_num_tokens), 276'480.0, 0.10 * 276'480.0);
}

TEST(Deployment, SglangDefaultsApplyWhenFlagsAreUnset) {
  SimConfig c;  // llama-3.1-8b on h200, TP1
  auto d = make_deployment(c);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_DOUBLE_EQ(d->mem_fraction_static, 0.88);
  EXPECT_EQ(d->chunked_prefill_size, 8192);
  EXPECT_EQ(d->context_length, 131072);
  const std::int64_t pool = d->memory.max_total_num_tokens;
  EXPECT_EQ(d->max_running_requests, std::min(pool / 2, std::clamp<std::int64_t>(pool * 512 / 131072, 2048, 4096)));
  // The same model on a GPU with more than 160 GiB: SGLang's default prefill batch doubles.
  c.hardware = "b200";
  auto big = make_deployment(c);
  ASSERT_TRUE(big) << big.error().message;
  EXPECT_EQ(big->chunked_prefill_size, 16384);
  c.chunked_prefill_size = 4096;  // the launch's value wins
  EXPECT_EQ(make_deployment(c).value().chunked_prefill_size, 4096);
}

// SGLang divides --chunked-prefill-size over the DP attention ranks' schedulers, each of which keeps
// the whole --max-prefill-tokens: a step prefills up to min(chunk, dp · max_prefill_tokens) in all.
TEST(Deployment, DpAttentionRanksEachKeepTheMaxPrefillTokens) {
  SimConfig c;
  c.model = "deepseek-v3";
  c.tp_size = 8, c.ep_size = 8;
  c.chunked_prefill_size = 65536;  // max_prefill_tokens stays 16384
  EXPECT_EQ(make_deployment(c).value().chunked_prefill_size, 16384);
  c.dp_size = 8, c.enable_dp_attention = true;
  EXPECT_EQ(make_deployment(c).value().chunked_prefill_size, 65536);
  c.chunked_prefill_size = 262144;
  EXPECT_EQ(make_deployment(c).value().chunked_prefill_size, 8 * 16384);
}

TEST(Deployment, GqaKvSplitsByTpUntilHeadsRunOut) {
  SimConfig c;
  c.model = "llama-3.1-70b";
  c.tp_size = 8;
  auto tp8 = make_deployment(c);
  c.tp_size = 4;
  auto tp4 = make_deployment(c);
  ASSERT_TRUE(tp8 && tp4);
  EXPECT_DOUBLE_EQ(tp4->memory.kv_bytes_per_token_layer, 2 * tp8->memory.kv_bytes_per_token_layer);
}

TEST(Deployment, WeightsThatDoNotFitAreABadInput) {
  SimConfig c;
  c.model = "deepseek-v3";
  c.hardware = "h100";
  auto d = make_deployment(c);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("weights need"), std::string::npos);
}

TEST(Deployment, Fp4KvCacheHoldsMoreTokensThanFp8) {
  SimConfig c;
  c.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
  auto fp8 = make_deployment(c);
  c.kv_cache_dtype = KvCacheDtype::nvfp4;
  auto fp4 = make_deployment(c);
  ASSERT_TRUE(fp8 && fp4);
  EXPECT_DOUBLE_EQ(fp4->memory.kv_bytes_per_token_layer, 0.5625 * fp8->memory.kv_bytes_per_token_layer);
  EXPECT_GT(fp4->memory.max_total_num_tokens, fp8->memory.max_total_num_tokens * 17 / 10);
}

TEST(Deployment, UnrepresentableConfigurationsNameTheCardField) {
  SimConfig c;
  c.model = "deepseek-v3";
  c.hardware = "h100";
  auto d = make_deployment(c);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("params.total_b"), std::string::npos) << d.error().message;
  EXPECT_NE(d.error().message.find("usable_gib"), std::string::npos) << d.error().message;
  SimConfig odd;
  odd.tp_size = 3;  // llama-3.1-8b has 32 heads
  auto t = make_deployment(odd);
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("attention.heads"), std::string::npos) << t.error().message;
  SimConfig ep;
  ep.model = "glm-5.3-flash";
  ep.hardware = "gb300";
  ep.tp_size = 16;
  ep.ep_size = 16;  // 184 experts
  auto e = make_deployment(ep);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("mlp.experts"), std::string::npos) << e.error().message;
}

TEST(Deployment, DescribeUsesSglangKeys) {
  auto d = make_deployment(glm_e7b());
  ASSERT_TRUE(d);
  const auto facts = describe(*d);
  const auto find = [&](const std::string& key) -> const FactValue* {
    for (const auto& f : facts.server_args)
      if (f.key == key) return &f.value;
    return nullptr;
  };
  ASSERT_NE(find("max_total_num_tokens"), nullptr);
  EXPECT_EQ(std::get<std::int64_t>(*find("max_total_num_tokens")), d->memory.max_total_num_tokens);
  EXPECT_EQ(std::get<std::string>(*find("speculative_algorithm")), "EAGLE3");
  EXPECT_EQ(std::get<std::int64_t>(*find("tp_size")), 8);
  EXPECT_FALSE(facts.sim.empty());
  EXPECT_EQ(facts.sim.front().key, "hardware");
}

TEST(Deployment, AcceptRatesComeFromTheCardUnlessTheLaunchGivesThem) {
  // The GLM card publishes its EAGLE3 head's acceptance (the brief's accept length 4.0 at 4 steps).
  auto card = make_deployment(glm_e7b());
  ASSERT_TRUE(card) << card.error().message;
  EXPECT_EQ(card->spec.accept_source, "card");
  ASSERT_EQ(card->spec.accept_rates.size(), 4u);
  EXPECT_DOUBLE_EQ(card->spec.accept_rates[3], load_model_card("glm-5.3-flash")->draft->accept_rates.back());
  EXPECT_NEAR(expected_tokens_per_verify(card->spec.accept_rates, 4), 4.0, 0.05);
  // Explicit per-position rates win over the card.
  SimConfig rates = glm_e7b();
  rates.sim_accept_rates = {0.9, 0.5};
  auto r = make_deployment(rates);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->spec.accept_source, "flag");
  EXPECT_EQ(r->spec.accept_rates, (std::vector<double>{0.9, 0.5, 0.5, 0.5}));
  // A workload's measured accept length wins too: one α solved at the configured steps.
  SimConfig length = glm_e7b();
  length.sim_accept_length = 2.5;
  auto l = make_deployment(length);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->spec.accept_source, "accept-length");
  EXPECT_NEAR(expected_tokens_per_verify(l->spec.accept_rates, 4), 2.5, 1e-6);
  // A card without published rates falls back to 0.7.
  SimConfig llama;
  llama.speculative_algorithm = SpecAlgorithm::eagle3;
  auto d = make_deployment(llama);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->spec.accept_source, "default");
  EXPECT_DOUBLE_EQ(d->spec.accept_rates.front(), 0.7);
  // An accept length the steps cannot produce, or both overrides at once, is refused by name.
  length.sim_accept_length = 5.0;  // 4 steps yield at most 5 tokens, and only at α = 1
  auto too_long = make_deployment(length);
  ASSERT_FALSE(too_long);
  EXPECT_NE(too_long.error().message.find("--sim-accept-length"), std::string::npos) << too_long.error().message;
  length.sim_accept_length = 2.0;
  length.sim_accept_rates = {0.5};
  auto both = make_deployment(length);
  ASSERT_FALSE(both);
  EXPECT_NE(both.error().message.find("not both"), std::string::npos) << both.error().message;
}

TEST(Deployment, TheCheckpointsWeightFormatOverridesTheCards) {
  SimConfig c;  // llama-3.1-8b, BF16 card
  const auto bf16 = make_deployment(c).value();
  c.weight_dtype = "fp8";
  const auto fp8 = make_deployment(c).value();
  EXPECT_EQ(fp8.model.weight_gemm, GemmDtype::fp8);
  // Every sharded weight halves; the BF16 embedding and LM head stay.
  const double vocab = 2.0 * bf16.params.embedding * bf16.model.embedding_dtype_bytes;
  EXPECT_NEAR(fp8.memory.weight_bytes - vocab, (bf16.memory.weight_bytes - vocab) / 2, 1e3);
  c.weight_dtype = "fp6";
  const auto bad = make_deployment(c);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("--sim-weight-dtype"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("nvfp4"), std::string::npos) << bad.error().message;
}

TEST(Deployment, AQuantizationMethodServesTheFormatItNamesUnlessTheCheckpointIsGiven) {
  EXPECT_EQ(quantization_weight_format("fp8"), "fp8");
  EXPECT_EQ(quantization_weight_format("modelopt_fp4"), "nvfp4");
  EXPECT_EQ(quantization_weight_format("w8a8_int8"), "int8");
  EXPECT_EQ(quantization_weight_format("gptq_marlin"), "int4");
  EXPECT_EQ(quantization_weight_format("compressed-tensors"), std::nullopt);  // the checkpoint says
  SimConfig c;  // llama-3.1-8b, BF16 card
  const auto bf16 = make_deployment(c).value();
  c.quantization = "fp8";
  const auto online = make_deployment(c).value();
  EXPECT_EQ(online.model.weight_gemm, GemmDtype::fp8);
  EXPECT_EQ(online.config.weight_dtype, "fp8");  // what /server_info reports
  EXPECT_LT(online.memory.weight_bytes, 0.6 * bf16.memory.weight_bytes);
  EXPECT_GT(online.memory.kv_pool_bytes, bf16.memory.kv_pool_bytes);
  c.quantization = "compressed-tensors";
  EXPECT_EQ(make_deployment(c).value().model.weight_dtype_bytes, 2);
  c.quantization = "fp8";
  c.weight_dtype = "nvfp4";  // --sim-weight-dtype names the checkpoint: it wins
  EXPECT_EQ(make_deployment(c).value().model.weight_gemm, GemmDtype::fp4);
}
