// The step-time combination per engine (docs/sim.md "Overlap model"), the GEMM efficiency curve and
// the MoE communication backends.
#include <gtest/gtest.h>

#include "closed_loop.hpp"
#include "servebench/sim/perf_model.hpp"

using namespace servebench::sim;

namespace {

Deployment llama(const char* engine) {
  SimConfig c;  // llama-3.1-8b on one H200
  c.engine = engine;
  c.max_running_requests = 64;
  return make_deployment(c).value();
}

BatchShape decodes(const PerfModel& p, int n) {
  BatchShape b;
  for (int i = 0; i < n; ++i) p.add_decode(b, 1024, 1);
  return b;
}

Deployment glm_gb300(bool tbo, MoeA2aBackend a2a) {
  SimConfig c;
  c.model = "glm-5.3-flash";
  c.hardware = "gb300";
  c.tp_size = 4;
  c.ep_size = 4;
  c.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
  c.enable_two_batch_overlap = tbo;
  c.moe_a2a_backend = a2a;
  return make_deployment(c).value();
}

}  // namespace

// SGLang's overlap scheduler runs the CPU work during the GPU's step; llama-server adds it:
// 200 µs per iteration + 330 µs per generating slot (its sampler over the vocabulary on the CPU).
TEST(PerfModelOverlap, LlamaCppPaysItsCpuWorkSglangHidesIt) {
  const auto sd = llama("sglang"), ld = llama("llamacpp");
  const PerfModel s(sd), l(ld);
  const auto b = decodes(s, 64);
  EXPECT_EQ(s.stage_time(b).cpu, std::chrono::nanoseconds{0});
  EXPECT_EQ(l.stage_time(b).cpu, std::chrono::microseconds(200 + 64 * 330));
  EXPECT_EQ(l.stage_time(b).total - s.stage_time(b).total, l.stage_time(b).cpu);
  // Work longer than the GPU's step shows even with the overlap scheduler, by the excess only.
  auto heavy = sd;
  heavy.engine.cpu_sequence = std::chrono::milliseconds(1);
  const PerfModel h(heavy);
  const auto gpu = s.stage_time(b).total;
  EXPECT_EQ(h.stage_time(b).total, heavy.engine.cpu_step + 64 * std::chrono::milliseconds(1));
  EXPECT_EQ(h.stage_time(b).cpu, h.stage_time(b).total - gpu);
}

// --disable-overlap-schedule takes SGLang's overlap scheduler away: its CPU work (200 µs an
// iteration + 5 µs a running sequence) then adds to every step, as llama-server's does.
TEST(PerfModelOverlap, DisablingSglangsOverlapScheduleAddsItsCpuWork) {
  SimConfig c;  // llama-3.1-8b on one H200
  c.max_running_requests = 64;
  const auto overlapped = make_deployment(c).value();
  c.disable_overlap_schedule = true;
  const auto serial = make_deployment(c).value();
  EXPECT_TRUE(overlapped.overlap_scheduler);
  EXPECT_FALSE(serial.overlap_scheduler);
  const PerfModel o(overlapped), s(serial);
  const auto b = decodes(o, 64);
  EXPECT_EQ(o.stage_time(b).cpu, std::chrono::nanoseconds{0});
  EXPECT_EQ(s.stage_time(b).cpu, std::chrono::microseconds(200 + 64 * 5));
  EXPECT_EQ(s.stage_time(b).total - o.stage_time(b).total, s.stage_time(b).cpu);
  c.engine = "llamacpp";  // an engine without an overlap scheduler has nothing to disable
  c.disable_overlap_schedule = false;
  EXPECT_FALSE(make_deployment(c).value().overlap_scheduler);
}

// docs/sim.md "Overlap model": with C=64 the llama-server step carries 21 ms of CPU, so its TPOT
// grows far more from C=1 to C=64 than SGLang's.
TEST(PerfModelOverlap, LlamaCppTpotGrowsWithConcurrencyMuchMoreThanSglang) {
  const auto ratio = [](const char* engine) {
    Engine one(llama(engine)), many(llama(engine));
    return loop::run_closed_loop(many, 1024, 256, 64, 128).mean_tpot_ms /
           loop::run_closed_loop(one, 1024, 256, 1, 2).mean_tpot_ms;
  };
  const double sglang = ratio("sglang"), llamacpp = ratio("llamacpp");
  RecordProperty("tpot_ratio_sglang", std::to_string(sglang));  // docs/sim.md quotes them
  RecordProperty("tpot_ratio_llamacpp", std::to_string(llamacpp));
  EXPECT_GT(llamacpp, 2 * sglang) << sglang << " " << llamacpp;
  EXPECT_GT(llamacpp, 4.0);
}

TEST(PerfModelOverlap, GemmEfficiencySaturatesWithTheRowsOfTheGemm) {
  EXPECT_DOUBLE_EQ(gemm_efficiency(64, 64), 0.5);
  EXPECT_NEAR(gemm_efficiency(8192, 64), 0.992, 1e-3);
  const auto d = llama("sglang");
  const PerfModel p(d);
  // Linear work per token never rises with more tokens in the step (one-token contexts: no
  // attention); one token runs at 1/65 of the card's rate and 64 at 1/2, 32.5x faster per token.
  double prev = 1e9, one = 0, sixty_four = 0;
  for (int tokens : {1, 16, 64, 256, 1024}) {
    BatchShape b;
    for (int i = 0; i < tokens; ++i) p.add_decode(b, 1, 1);
    const double per_token = static_cast<double>(p.stage_time(b).compute.count()) / tokens;
    EXPECT_LE(per_token, prev) << tokens;
    prev = per_token;
    (tokens == 1 ? one : tokens == 64 ? sixty_four : prev) = per_token;
  }
  EXPECT_NEAR(one / sixty_four, 65.0 / 2, 0.5);
  // An 8192-token prefill runs within 1.5 % of the flat-MFU roofline: 2 x 8.03e9 x 8192 FLOPs at 55 %.
  BatchShape big;
  p.add_prefill(big, 0, 8192);
  const double linear_s = 2.0 * 7.5e9 * 8192 / (989e12 * 0.55);
  EXPECT_GT(std::chrono::duration<double>(p.stage_time(big).compute).count(), linear_s);
  EXPECT_LT(std::chrono::duration<double>(p.stage_time(big).compute).count(), 1.25 * linear_s);
}

// --enable-two-batch-overlap: the two halves read the weights twice, and one half's communication
// hides behind the other's compute; worth it only where communication outweighs the second read.
TEST(PerfModelOverlap, TwoBatchOverlapHidesCommunicationAndReadsTheWeightsTwice) {
  const auto plain_d = glm_gb300(false, MoeA2aBackend::none), tbo_d = glm_gb300(true, MoeA2aBackend::none);
  const PerfModel plain(plain_d), tbo(tbo_d);
  BatchShape prefill;
  plain.add_prefill(prefill, 0, 8192);
  const auto a = plain.stage_time(prefill), b = tbo.stage_time(prefill);
  EXPECT_GT(b.memory, a.memory);
  const auto busy = std::max(b.compute, b.memory);
  EXPECT_EQ(b.communication, a.communication - std::min(a.communication, std::chrono::duration_cast<Nanos>(0.9 * busy)));
  EXPECT_LT(b.communication, a.communication);
  // One token cannot be split in two: no overlap, no second read.
  BatchShape one;
  plain.add_decode(one, 1024, 1);
  EXPECT_EQ(tbo.stage_time(one).total, plain.stage_time(one).total);
}

// --moe-a2a-backend deepep: the MoE layers' all-reduce becomes a dispatch (FP8) and a combine (BF16)
// all-to-all of each rank's quarter of the tokens, plus the all-gather that gives every rank all tokens.
TEST(PerfModelOverlap, DeepEpDispatchesAndCombinesInsteadOfTheMoeAllReduce) {
  const auto plain_d = glm_gb300(false, MoeA2aBackend::none), deepep_d = glm_gb300(false, MoeA2aBackend::deepep);
  const PerfModel plain(plain_d), deepep(deepep_d);
  BatchShape b;
  for (int i = 0; i < 64; ++i) plain.add_decode(b, 1024, 1);
  const auto& c = deepep.collectives();
  const double hidden = static_cast<double>(plain_d.model.hidden_size), activation = 64 * hidden * 2;
  const double copies = 64.0 / 4 * plain_d.model.mlp.experts_per_token;
  const Nanos moe = c.all_to_all(copies * hidden, 4) + c.all_to_all(copies * hidden * 2, 4) + c.all_gather(activation, 4);
  const int moe_layers = plain_d.model.layers - plain_d.model.mlp.dense_layers;
  EXPECT_EQ(deepep.stage_time(b).communication - plain.stage_time(b).communication,
            moe_layers * (moe - c.all_reduce(activation, 4)));
  // DeepEP sets the EP size to the TP size, as SGLang does.
  SimConfig ep1;
  ep1.model = "glm-5.3-flash";
  ep1.hardware = "gb300";
  ep1.tp_size = 4;
  ep1.moe_a2a_backend = MoeA2aBackend::deepep;
  EXPECT_EQ(make_deployment(ep1).value().config.ep_size, 4);
}

// Plain EP combines the experts' outputs in the TP all-reduce it already does: EP4 adds no
// communication to TP4 (uniform routing reads the same bytes too).
TEST(PerfModelOverlap, PlainExpertParallelismAddsNoCollective) {
  SimConfig c;
  c.model = "glm-5.3-flash";
  c.hardware = "gb300";
  c.tp_size = 4;
  c.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
  const auto tp_d = make_deployment(c).value();
  c.ep_size = 4;
  const auto ep_d = make_deployment(c).value();
  const PerfModel tp(tp_d), ep(ep_d);
  BatchShape b;
  for (int i = 0; i < 16; ++i) tp.add_decode(b, 1024, 1);
  EXPECT_EQ(ep.stage_time(b).communication, tp.stage_time(b).communication);
}
