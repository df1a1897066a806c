// `recommend`: argument parsing, a small search, and what it says when nothing meets the SLO.
#include "servebench/plan/recommend.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "servebench/plan/recommend_catalog.hpp"
#include "servebench/sim/model_card.hpp"

namespace servebench::plan {
namespace {

TEST(Recommend, ParsesWorkloadsAndSlos) {
  auto w = parse_workload("1024:256:0.7").value();
  EXPECT_EQ(w.isl, 1024);
  EXPECT_EQ(w.osl, 256);
  EXPECT_DOUBLE_EQ(w.weight, 0.7);
  EXPECT_DOUBLE_EQ(parse_workload("8:4").value().weight, 1.0);
  EXPECT_FALSE(parse_workload("1024").has_value());
  EXPECT_FALSE(parse_workload("0:4").has_value());
  auto slo = parse_slo("ttft_p99_ms=2000,tpot_p50_ms=50").value();
  EXPECT_EQ(slo.ttft_p99_ms, 2000);
  EXPECT_EQ(slo.tpot_p50_ms, 50);
  EXPECT_FALSE(slo.e2e_p99_ms);
  auto bad = parse_slo("ttft_p98_ms=1");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("ttft_p99_ms"), std::string::npos);
  EXPECT_FALSE(parse_slo("tpot_p50_ms=-1").has_value());
}

RecommendSpec small() {
  RecommendSpec s;
  s.model = "llama-3.1-8b";
  s.hardware = "h200";
  s.gpus = 1;
  s.workloads = {{512, 32, 1}};
  s.levels = {1, 8, 32};
  s.bisect_steps = 2;
  return s;
}

TEST(Recommend, RanksDeploymentsThatMeetTheSloByThroughputPerGpu) {
  auto spec = small();
  spec.slo.tpot_p50_ms = 12;
  auto r = recommend(spec).value();
  EXPECT_GT(r.candidates.size(), 100u);
  ASSERT_FALSE(r.evaluations.empty());
  ASSERT_TRUE(r.evaluations.front().meets());
  for (std::size_t i = 1; i < r.evaluations.size(); ++i) {
    if (!r.evaluations[i].meets()) break;
    EXPECT_GE(r.evaluations[i - 1].score, r.evaluations[i].score);
  }
  const auto& best = *r.evaluations.front().best[0];
  EXPECT_LE(best.tpot_p50, 12);
  EXPECT_GT(best.tok_s_gpu, 0);
  EXPECT_FALSE(r.pareto.empty());
  for (const auto& p : r.pareto) {  // nothing on the front is beaten on both axes by another front point
    for (const auto& q : r.pareto) EXPECT_FALSE(q.tok_s_gpu > p.tok_s_gpu && q.tok_s_user > p.tok_s_user);
  }
  const auto text = recommendation_text(spec, r);
  EXPECT_NE(text.find("PREDICTED"), std::string::npos);
  EXPECT_NE(text.find("predicted; no validation known for these cards"), std::string::npos) << text;
  EXPECT_NE(text.find("rank | tok/s/GPU"), std::string::npos);
  const auto catalog = catalog_yaml(spec, r);
  EXPECT_NE(catalog.find("rank: r1"), std::string::npos);
  auto campaign = verify_campaign_yaml(spec, catalog);
  ASSERT_TRUE(campaign.has_value()) << campaign.error().message;
  EXPECT_NE(campaign->find("--max-running-requests"), std::string::npos);
}

TEST(Recommend, AnSloNothingMeetsListsTheClosestAndByHowMuch) {
  auto spec = small();
  spec.slo.ttft_p99_ms = 0.001;
  auto r = recommend(spec).value();
  ASSERT_FALSE(r.evaluations.empty());
  EXPECT_FALSE(r.evaluations.front().meets());
  EXPECT_GT(r.evaluations.front().closest_miss, 1.0);
  const auto text = recommendation_text(spec, r);
  EXPECT_NE(text.find("No deployment meets the SLO"), std::string::npos);
  EXPECT_NE(text.find("misses by"), std::string::npos);
}

TEST(Recommend, DeploymentsThatDoNotFitAreCountedByRule) {
  auto spec = small();
  spec.model = "deepseek-v3";  // 671 GB of FP8 weights: never fits one H200
  spec.slo.tpot_p50_ms = 1000;
  auto none = recommend(spec);
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(none.error().message.find("was pruned (memory "), std::string::npos) << none.error().message;
}

// Llama 3.1 70B's 141 GB of BF16 weights do not fit one H200; quantized online to FP8 (70 GB) they do,
// so every deployment that survives is a quantized one.
TEST(Recommend, AModelThatFitsOnlyQuantizedIsRecommendedQuantized) {
  auto spec = small();
  spec.model = "llama-3.1-70b";
  spec.slo.tpot_p50_ms = 1000;
  spec.levels = {1, 8};
  auto r = recommend(spec);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  ASSERT_FALSE(r->evaluations.empty());
  for (const auto& e : r->evaluations) {
    const auto& label = r->candidates.at(e.candidate).label;
    EXPECT_TRUE(label.starts_with("--quantization fp8 ")) << label;
  }
}

// DP attention is tried (with DP = TP) for MoE and MLA models only; a dense GQA model never gets it.
TEST(Recommend, EnumeratesDpAttentionForMoeAndMlaModels) {
  auto spec = small();
  spec.gpus = 4;
  const auto count_dp = [&](const std::string& model) {
    const auto c = enumerate_candidates(spec, sim::load_model_card(model).value());
    return std::count_if(c.begin(), c.end(), [](const Candidate& k) {
      const bool flagged = k.label.find("--enable-dp-attention") != std::string::npos;
      EXPECT_EQ(flagged, k.config.enable_dp_attention);
      EXPECT_TRUE(!flagged || k.config.dp_size == k.config.tp_size) << k.label;
      return flagged;
    });
  };
  EXPECT_EQ(count_dp("llama-3.1-70b"), 0);
  EXPECT_GT(count_dp("deepseek-v3"), 0);
  EXPECT_GT(count_dp("qwen3-235b-a22b"), 0);
}

TEST(Recommend, A16BitCheckpointIsAlsoTriedWithOnlineFp8Quantization) {
  const auto quantized = [&](const std::string& model) {
    const auto c = enumerate_candidates(small(), sim::load_model_card(model).value());
    const auto n = std::count_if(c.begin(), c.end(), [](const Candidate& k) {
      const bool flagged = k.label.starts_with("--quantization fp8 ");
      EXPECT_EQ(flagged, k.config.quantization == "fp8") << k.label;
      return flagged;
    });
    EXPECT_EQ(2 * n, static_cast<std::ptrdiff_t>(c.size())) << model;  // each deployment with and without
    return n;
  };
  EXPECT_GT(quantized("llama-3.1-8b"), 0);  // BF16 card
  const auto fp8_card = enumerate_candidates(small(), sim::load_model_card("deepseek-v3").value());
  EXPECT_TRUE(std::none_of(fp8_card.begin(), fp8_card.end(),
                           [](const Candidate& k) { return k.label.find("--quantization") != std::string::npos; }));
}

}  // namespace
}  // namespace servebench::plan
