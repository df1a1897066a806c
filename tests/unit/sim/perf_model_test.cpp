#include "servebench/sim/perf_model.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "closed_loop.hpp"

using namespace servebench::sim;

namespace {

Deployment llama_h200(int max_running = 0) {
  SimConfig c;  // llama-3.1-8b, h200, bf16, TP1
  if (max_running > 0) c.max_running_requests = max_running;
  return make_deployment(c).value();
}

double ms(std::chrono::nanoseconds d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

TEST(PerfModel, CausalPairsClosedForm) {
  EXPECT_DOUBLE_EQ(causal_pairs(0, 4, 100), 1 + 2 + 3 + 4);
  EXPECT_DOUBLE_EQ(causal_pairs(2, 3, 100), 3 + 4 + 5);
  EXPECT_DOUBLE_EQ(causal_pairs(0, 6, 3), 1 + 2 + 3 + 3 + 3 + 3);
  EXPECT_DOUBLE_EQ(causal_pairs(10, 2, 3), 6);
}

TEST(PerfModel, DistinctExpertsSaturate) {
  SimConfig c;
  c.model = "qwen3-235b-a22b";
  c.tp_size = 8;
  const auto d = make_deployment(c).value();
  const PerfModel p(d);
  EXPECT_NEAR(p.experts_hit(1), 8.0, 1e-9);
  EXPECT_LT(p.experts_hit(16), 16 * 8.0);
  EXPECT_GT(p.experts_hit(1024), 127.9);
}

TEST(PerfModel, DecodeIsMemoryBoundAndPrefillComputeBound) {
  const auto d = llama_h200();
  const PerfModel p(d);
  BatchShape decode, prefill;
  p.add_decode(decode, 1024, 1);
  p.add_prefill(prefill, 0, 8192);
  EXPECT_GT(p.stage_time(decode).memory, p.stage_time(decode).compute);
  EXPECT_GT(p.stage_time(prefill).compute, p.stage_time(prefill).memory);
}

TEST(PerfModel, EagerBatchesPayPerLayerLaunches) {
  const auto d = llama_h200();
  const PerfModel p(d);
  BatchShape b;
  for (int i = 0; i < 9; ++i) p.add_decode(b, 512, 1);
  const auto graph = p.stage_time(b).total;
  b.cuda_graph = false;
  EXPECT_EQ(p.stage_time(b).total - graph, 32 * d.hardware.efficiency.eager_layer);
}

TEST(PerfModel, TpAllReduceOverPcieCostsMoreThanNvlink) {
  SimConfig c;
  c.model = "llama-3.1-70b";
  c.tp_size = 8;
  c.hardware = "h200";
  const auto nvlink = make_deployment(c).value();
  c.hardware = "rtx-pro-6000";
  const auto pcie = make_deployment(c).value();
  EXPECT_GT(PerfModel(pcie).collectives().all_reduce(1e6, 8), 5 * PerfModel(nvlink).collectives().all_reduce(1e6, 8));
}

TEST(PerfModel, CollectivesAcrossNodesRunAtTheInterNodeLink) {
  SimConfig c;
  c.model = "llama-3.1-70b";
  c.tp_size = 8;
  const auto one_node = make_deployment(c).value();
  c.nnodes = 2;
  c.dist_init_addr = "10.0.0.1:20000";
  const auto two_nodes = make_deployment(c).value();
  // TP 8 over two nodes of 4 GPUs: the ring crosses the 50 GB/s link instead of NVLink's 450 GB/s
  // (100 MB: a prefill chunk's activations, where bandwidth, not latency, decides).
  EXPECT_GT(PerfModel(two_nodes).collectives().all_reduce(1e8, 8), 4 * PerfModel(one_node).collectives().all_reduce(1e8, 8));
  EXPECT_GT(PerfModel(two_nodes).collectives().all_reduce(1e6, 8), PerfModel(one_node).collectives().all_reduce(1e6, 8));
  // A group that fits in one node's share stays on NVLink.
  EXPECT_EQ(PerfModel(two_nodes).collectives().all_reduce(1e6, 4), PerfModel(one_node).collectives().all_reduce(1e6, 4));
}

// docs/sim.md "Physics sanity": weights 2 B x (8.03e9 - 128256 x 4096) = 15.01 GB, KV 128 KiB/token x ~1152
// tokens = 0.15 GB, read at 4.8 TB/s x 0.8 -> 3.95 ms, plus 0.4 ms step overhead = 4.35 ms.
TEST(PerfModel, Llama8bH200SingleRequestTpotMatchesRoofline) {
  const double weights = 2.0 * (8.03e9 - 128256.0 * 4096.0);
  const double kv = 2.0 * 8 * 128 * 2 * 32 * (1024 + 128);
  const double estimate_ms = (weights + kv) / (4.8e12 * 0.8) * 1e3 + 0.4;
  Engine e(llama_h200());
  const auto r = loop::run_closed_loop(e, 1024, 256, 1, 1);
  EXPECT_NEAR(r.mean_tpot_ms, estimate_ms, 0.10 * estimate_ms);
}

TEST(PerfModel, SixtyFourConcurrentRequestsGiveTwentyTimesTheThroughput) {
  Engine one(llama_h200()), many(llama_h200());
  const auto a = loop::run_closed_loop(one, 128, 256, 1, 4);
  const auto b = loop::run_closed_loop(many, 128, 256, 64, 128);
  EXPECT_GE(b.output_tok_s, 20 * a.output_tok_s);
}

TEST(PerfModel, FifthRequestWaitsForAFreeSlot) {
  Engine e(llama_h200(4));
  std::vector<RequestId> ids;
  for (int i = 0; i < 5; ++i) {
    SimRequest r;
    r.prompt = loop::random_prompt(512, static_cast<std::uint64_t>(i), 128000);
    r.sampling.max_tokens = 128;
    r.sampling.ignore_eos = true;
    ids.push_back(e.submit(std::move(r)).value());
  }
  std::vector<RequestMeta> done;
  while (!e.idle()) {
    for (const auto& ev : e.step().events)
      if (ev.finish != FinishReason::none) done.push_back(*ev.meta);
  }
  ASSERT_EQ(done.size(), 5u);
  const auto& fifth = done.back();
  EXPECT_EQ(fifth.id, ids.back());
  const double first_e2e = ms(done.front().finished - done.front().arrival);
  EXPECT_GT(ms(fifth.first_token - fifth.arrival), first_e2e);  // it waited for the first one to finish
}

namespace {

Deployment qwen(double skew, int ep) {
  SimConfig c;
  c.model = "qwen3-235b-a22b";  // 128 experts, top-8
  c.tp_size = 8;
  c.ep_size = ep;
  if (skew > 0) c.efficiency.routing_skew = skew;
  return make_deployment(c).value();
}

}  // namespace

TEST(PerfModel, SkewedRoutingHitsFewerDistinctExperts) {
  const auto uniform_d = qwen(0, 1), skewed_d = qwen(1.0, 1);
  const PerfModel uniform(uniform_d), skewed(skewed_d);
  // One token always picks exactly top-k experts, whatever the skew.
  EXPECT_NEAR(skewed.experts_hit(1), 8.0, 1e-9);
  // Uniform closed form: E (1 - (1 - k/E)^T).
  EXPECT_NEAR(uniform.experts_hit(16), 128.0 * (1 - std::pow(1 - 8.0 / 128, 16)), 1e-9);
  for (double t : {4.0, 16.0, 64.0}) EXPECT_LT(skewed.experts_hit(t), uniform.experts_hit(t)) << t;
  EXPECT_GT(skewed.experts_hit(1e6), 127.9);  // every expert is eventually hit
}

TEST(PerfModel, EpRankReadsItsShareOfExpertsAndTheHottestRankUnderSkew) {
  const auto u1 = qwen(0, 1), u8 = qwen(0, 8), s8 = qwen(1.0, 8);
  const PerfModel uniform1(u1), uniform8(u8), skewed8(s8);
  EXPECT_NEAR(uniform8.experts_hit_per_rank(16), uniform1.experts_hit(16) / 8, 1e-9);
  // Rank 0 holds the most popular expert of every group of 8: more than the average rank.
  EXPECT_GT(skewed8.experts_hit_per_rank(16), skewed8.experts_hit(16) / 8);
  EXPECT_LE(skewed8.experts_hit_per_rank(1e6), 128.0 / 8 + 1e-9);
  // Uniform routing: TP8 and TP8/EP8 read the same expert bytes per GPU.
  BatchShape b;
  uniform1.add_decode(b, 1024, 1);
  EXPECT_EQ(uniform1.stage_time(b).memory, uniform8.stage_time(b).memory);
}

TEST(PerfModel, CpuCostPerSequenceAddsToTheStepAndPerRequestDoesNot) {
  SimConfig c;
  c.efficiency.per_sequence = std::chrono::microseconds(300);
  c.efficiency.per_request = std::chrono::microseconds(2000);
  const auto d = make_deployment(c).value();
  const auto base_d = llama_h200();
  const PerfModel p(d), base(base_d);
  BatchShape b;
  for (int i = 0; i < 64; ++i) p.add_decode(b, 1024, 1);
  EXPECT_EQ(p.stage_time(b).overhead - base.stage_time(b).overhead, 64 * std::chrono::microseconds(300));
  // The front's per-request time delays its request (Engine), not the step that admits it.
  BatchShape admit;
  p.add_prefill(admit, 0, 512);
  admit.new_requests = 3;
  EXPECT_EQ(p.stage_time(admit).overhead - base.stage_time(admit).overhead, std::chrono::nanoseconds(0));
}

TEST(PerfModel, Fp4WeightsRunOnFp4TensorCores) {
  auto card = load_model_card("llama-3.1-8b").value();
  auto hw = load_hardware_card("b300").value();
  SimConfig c;
  c.hardware = "b300";
  const auto bf16_d = make_deployment(c, card, hw).value();
  card.weight_dtype_bytes = 0.5625;
  card.weight_gemm = GemmDtype::fp4;
  const auto fp4_d = make_deployment(c, card, hw).value();
  const PerfModel bf16(bf16_d), fp4(fp4_d);
  BatchShape prefill, decode;
  bf16.add_prefill(prefill, 0, 8192);
  bf16.add_decode(decode, 128, 1);
  // Prefill is compute-bound: 13.5 PF FP4 vs 2.25 PF BF16 = 6x.
  EXPECT_NEAR(static_cast<double>(bf16.stage_time(prefill).compute.count()) / fp4.stage_time(prefill).compute.count(),
              6.0, 0.01);
  // Decode is memory-bound: weights 0.5625 vs 2 bytes per element.
  EXPECT_LT(fp4.stage_time(decode).memory * 5 / 2, bf16.stage_time(decode).memory);
}

TEST(PerfModel, DecodeContextParallelismSplitsTheKvAndPaysTwoGathersPerLayer) {
  SimConfig c;  // the cookbook's GB300 overlay: TP4 with --dcp-size 4 on MLA
  c.model = "glm-5.3-flash";
  c.hardware = "gb300";
  c.tp_size = 4;
  c.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
  const auto base = make_deployment(c).value();
  c.dcp_size = 4;
  const auto dcp = make_deployment(c).value();
  // MLA holds one latent per rank: DCP 4 stores a quarter of it (and of the indexer keys) per GPU.
  EXPECT_DOUBLE_EQ(dcp.memory.kv_bytes_per_token_layer, base.memory.kv_bytes_per_token_layer / 4);
  EXPECT_DOUBLE_EQ(dcp.memory.index_bytes_per_token_layer, base.memory.index_bytes_per_token_layer / 4);
  EXPECT_DOUBLE_EQ(dcp.memory.kv_pool_bytes, base.memory.kv_pool_bytes);
  EXPECT_NEAR(static_cast<double>(dcp.memory.max_total_num_tokens), 4.0 * base.memory.max_total_num_tokens, 4);
  const PerfModel pb(base), pd(dcp);
  BatchShape b;
  for (int i = 0; i < 16; ++i) pb.add_decode(b, 65536, 1);
  // Communication: per layer, an all-gather of the group's absorbed queries (512 + 64 dims) and a
  // reduce-scatter of the partial outputs (512 dims + LSE), each for 16 heads x 4 ranks, BF16.
  const auto& a = dcp.model.attention;
  const double heads = a.heads / 4.0 * 4;
  const Nanos gathers = pd.collectives().all_gather(16 * heads * (a.kv_lora_rank + a.qk_rope_head_dim) * 2.0, 4) +
                        pd.collectives().all_gather(16 * heads * (a.kv_lora_rank + 2.0) * 2.0, 4);
  EXPECT_EQ(pd.stage_time(b).communication - pb.stage_time(b).communication, dcp.model.layers * gathers);
  // A long-context decode batch reads a quarter of the KV and scores a quarter of the keys.
  EXPECT_LT(pd.stage_time(b).memory, pb.stage_time(b).memory);
  EXPECT_LT(pd.stage_time(b).compute, pb.stage_time(b).compute);
  // An all-gather is half the ring traffic of an all-reduce of the same size.
  EXPECT_LT(pd.collectives().all_gather(1e8, 4), pd.collectives().all_reduce(1e8, 4));
  EXPECT_GT(2 * pd.collectives().all_gather(1e8, 4), pd.collectives().all_reduce(1e8, 4));
}

TEST(PerfModel, DecodeContextParallelismNeedsCopiesOfTheKvToSplit) {
  SimConfig c;
  c.model = "llama-3.1-70b";  // 8 KV heads
  c.tp_size = 8;
  c.dcp_size = 2;  // every rank holds its own KV head: nothing to split
  auto d = make_deployment(c);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("attention.kv_heads"), std::string::npos) << d.error().message;
  c.dcp_size = 3;
  auto odd = make_deployment(c);
  ASSERT_FALSE(odd);
  EXPECT_NE(odd.error().message.find("--dcp-size 3"), std::string::npos) << odd.error().message;
}

TEST(PerfModel, DpAttentionShardsAttentionPerGroupAndGathersTokensForTheMlp) {
  SimConfig c;  // GLM-5.3-Flash on 4 x GB300, TP4 EP4, with and without --enable-dp-attention --dp-size 4
  c.model = "glm-5.3-flash";
  c.hardware = "gb300";
  c.tp_size = 4;
  c.ep_size = 4;
  c.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
  const auto base = make_deployment(c).value();
  c.dp_size = 4;
  c.enable_dp_attention = true;
  const auto dp = make_deployment(c).value();
  EXPECT_EQ(dp.gpus(), 4);
  EXPECT_EQ(dp.attention_tp(), 1);
  // Weights: every rank holds all of attention (its group has one rank); the MLP stays sharded.
  const double attention = dp.params.attention_sharded * dp.model.layers * dp.model.weight_dtype_bytes;
  EXPECT_NEAR(dp.memory.weight_bytes - base.memory.weight_bytes, attention * (1 - 1 / 4.0), 1e3);
  // KV: a rank holds only its own requests' MLA latent, so the four pools add up.
  EXPECT_EQ(dp.memory.max_total_num_tokens, 4 * dp.memory.rank_pool_tokens);
  EXPECT_DOUBLE_EQ(dp.memory.kv_bytes_per_token, base.memory.kv_bytes_per_token);
  EXPECT_GT(dp.memory.max_total_num_tokens, 3 * base.memory.max_total_num_tokens);
  const PerfModel pb(base), pd(dp);
  BatchShape b;
  for (int i = 0; i < 64; ++i) pb.add_decode(b, 65536, 1);
  // Communication: no attention all-reduce (groups of one rank); an all-gather of the step's hidden
  // states before the MLP and a reduce-scatter after it, instead of two all-reduces.
  const double activation = 64 * static_cast<double>(dp.model.hidden_size) * 2.0;
  const Nanos ar = pb.collectives().all_reduce(activation, 4), ag = pd.collectives().all_gather(activation, 4);
  const int layers = dp.model.layers;
  EXPECT_EQ(pd.stage_time(b).communication - pb.stage_time(b).communication, layers * (2 * ag) - 2 * layers * ar);
  // 64 long-context requests over four ranks: each reads the KV and indexer keys of 16.
  EXPECT_LT(pd.stage_time(b).memory, pb.stage_time(b).memory);
  // One request runs on one rank: nothing to split, and the replicated attention weights cost more.
  BatchShape one;
  pb.add_decode(one, 4096, 1);
  EXPECT_GT(pd.stage_time(one).memory, pb.stage_time(one).memory);
}

TEST(PerfModel, DpSizeWithoutDpAttentionOrNotDividingTpIsRefused) {
  SimConfig c;
  c.model = "glm-5.3-flash";
  c.hardware = "gb300";
  c.tp_size = 4;
  c.dp_size = 2;  // replicas behind a router: not modelled
  auto replicas = make_deployment(c);
  ASSERT_FALSE(replicas);
  EXPECT_NE(replicas.error().message.find("--enable-dp-attention"), std::string::npos) << replicas.error().message;
  c.enable_dp_attention = true;
  c.dp_size = 3;
  auto odd = make_deployment(c);
  ASSERT_FALSE(odd);
  EXPECT_NE(odd.error().message.find("--dp-size 3"), std::string::npos) << odd.error().message;
}
