// Physics sanity properties that hold for any real serving engine, checked on several deployments
// (dense and MoE, one and several GPUs): the simulator may be off in absolute terms, but never in
// these directions (docs/sim.md "Physics sanity properties").
#include <tuple>
#include <utility>

#include <gtest/gtest.h>

#include "closed_loop.hpp"
#include "servebench/sim/perf_model.hpp"

using namespace servebench::sim;

namespace {

struct Case {
  const char* model;
  const char* hardware;
  int tp, ep;
  const char* engine = "sglang";
};
const Case k_cases[] = {{"llama-3.1-8b", "h200", 1, 1},
                        {"qwen3-235b-a22b", "h200", 8, 8},
                        {"glm-5.3-flash", "gb300", 4, 4},
                        {"llama-3.1-8b", "h200", 1, 1, "llamacpp"},
                        {"llama-3.1-70b", "h100", 4, 1, "vllm"}};

SimConfig config(const Case& c) {
  SimConfig s;
  s.model = c.model;
  s.hardware = c.hardware;
  s.engine = c.engine;
  s.tp_size = c.tp;
  s.ep_size = c.ep;
  s.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
  return s;
}

loop::LoopResult run(const SimConfig& s, std::int64_t isl, std::int64_t osl, int c) {
  Engine e(make_deployment(s).value());
  return loop::run_closed_loop(e, isl, osl, c, std::max(8, 2 * c));
}

}  // namespace

TEST(PhysicsProperties, TpotNeverFallsAndThroughputSaturatesAsConcurrencyGrows) {
  for (const auto& c : k_cases) {
    const auto s = config(c);
    const int cap = make_deployment(s).value().max_running_requests;
    double prev_tpot = 0, prev_tput = 0, first_gain = 0, last_gain = 0;
    for (int conc : {1, 2, 4, 8, 16, 32, 64}) {
      if (conc > cap) break;
      const auto r = run(s, 512, 64, conc);
      EXPECT_GE(r.mean_tpot_ms, prev_tpot * 0.999) << c.model << " C" << conc;
      EXPECT_GT(r.output_tok_s, prev_tput) << c.model << " C" << conc;
      if (prev_tput > 0) (first_gain == 0 ? first_gain : last_gain) = r.output_tok_s / prev_tput;
      prev_tpot = r.mean_tpot_ms, prev_tput = r.output_tok_s;
    }
    EXPECT_LT(last_gain, first_gain) << c.model << ": doubling C must gain less at 64 than at 2";
    EXPECT_LT(last_gain, 2.0) << c.model;
  }
}

TEST(PhysicsProperties, TtftGrowsWithInputLengthAndLongerContextIsNeverFaster) {
  for (const auto& c : k_cases) {
    const auto s = config(c);
    double prev_ttft = 0, prev_tpot = 0;
    for (std::int64_t isl : {256, 1024, 4096, 16384}) {
      const auto r = run(s, isl, 32, 1);
      EXPECT_GT(r.mean_ttft_ms, prev_ttft) << c.model << " ISL " << isl;
      EXPECT_GE(r.mean_tpot_ms, prev_tpot) << c.model << " ISL " << isl;
      prev_ttft = r.mean_ttft_ms, prev_tpot = r.mean_tpot_ms;
    }
  }
}

TEST(PhysicsProperties, MoreTensorParallelismNeverMoreMemoryPerGpu) {
  for (const char* model : {"llama-3.1-8b", "llama-3.1-70b", "qwen3-235b-a22b", "deepseek-v3", "glm-5.3-flash"}) {
    double prev_weights = 1e300, prev_kv = 1e300;
    for (int tp : {1, 2, 4, 8}) {
      SimConfig s;
      s.model = model;
      s.hardware = "b300";
      s.tp_size = tp;
      s.mem_fraction_static = 0.95;
      const auto d = make_deployment(s);
      if (!d) continue;  // does not fit at this TP: nothing to compare
      EXPECT_LE(d->memory.weight_bytes, prev_weights) << model << " TP" << tp;
      EXPECT_LE(d->memory.kv_bytes_per_token, prev_kv) << model << " TP" << tp;
      prev_weights = d->memory.weight_bytes, prev_kv = d->memory.kv_bytes_per_token;
    }
  }
}

TEST(PhysicsProperties, BiggerBatchesLongerContextsAndSlowerHardwareNeverStepFaster) {
  for (const auto& c : k_cases) {
    const auto d = make_deployment(config(c)).value();
    const PerfModel p(d);
    Nanos prev{0};
    for (int batch = 1; batch <= 256; batch *= 2) {
      BatchShape b;
      for (int i = 0; i < batch; ++i) p.add_decode(b, 2048, 1);
      const Nanos t = p.stage_time(b).total;
      EXPECT_GE(t, prev) << c.model << " batch " << batch;
      prev = t;
    }
    prev = Nanos{0};
    for (std::int64_t ctx : {128, 1024, 8192, 65536}) {
      BatchShape b;
      for (int i = 0; i < 16; ++i) p.add_decode(b, ctx, 1);
      const Nanos t = p.stage_time(b).total;
      EXPECT_GE(t, prev) << c.model << " context " << ctx;
      prev = t;
    }
    SimConfig slow = config(c);
    slow.efficiency.bandwidth = d.hardware.efficiency.bandwidth / 2;
    slow.efficiency.mfu = d.hardware.efficiency.mfu / 2;
    const auto ds = make_deployment(slow).value();
    const PerfModel ps(ds);
    BatchShape decode, prefill;
    for (int i = 0; i < 8; ++i) p.add_decode(decode, 4096, 1);
    p.add_prefill(prefill, 0, 4096);
    EXPECT_GT(ps.stage_time(decode).total, p.stage_time(decode).total) << c.model;
    EXPECT_GT(ps.stage_time(prefill).total, p.stage_time(prefill).total) << c.model;
  }
}

TEST(PhysicsProperties, MoreDecodeContextParallelismNeverMoreKvPerGpuNorFewerTokens) {
  for (const auto& [model, tp] : {std::pair{"glm-5.3-flash", 8}, std::pair{"deepseek-v3", 8}}) {
    double prev_kv = 1e300;
    std::int64_t prev_pool = 0;
    for (int dcp : {1, 2, 4, 8}) {
      SimConfig s;
      s.model = model;
      s.hardware = "b300";
      s.tp_size = tp;
      s.dcp_size = dcp;
      s.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
      const auto d = make_deployment(s).value();
      EXPECT_LE(d.memory.kv_bytes_per_token, prev_kv) << model << " DCP" << dcp;
      EXPECT_GE(d.memory.max_total_num_tokens, prev_pool) << model << " DCP" << dcp;
      prev_kv = d.memory.kv_bytes_per_token, prev_pool = d.memory.max_total_num_tokens;
    }
  }
}

TEST(PhysicsProperties, DpAttentionHoldsMoreMlaTokensButNeverReadsLessForOneRequest) {
  for (const auto& [model, hw, tp] : {std::tuple{"glm-5.3-flash", "gb300", 4}, std::tuple{"deepseek-v3", "b300", 8}}) {
    SimConfig s;
    s.model = model;
    s.hardware = hw;
    s.tp_size = tp;
    s.ep_size = tp;
    s.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
    const auto base = make_deployment(s).value();
    s.dp_size = tp;
    s.enable_dp_attention = true;
    const auto dp = make_deployment(s).value();
    // MLA's latent is replicated on every TP rank; DP attention stores each request once.
    EXPECT_GE(dp.memory.max_total_num_tokens, base.memory.max_total_num_tokens) << model;
    for (std::int64_t ctx : {1024, 32768}) {
      const PerfModel pb(base), pd(dp);
      BatchShape b;
      pb.add_decode(b, ctx, 1);
      // One request lives on one rank, which holds all of attention's weights instead of 1/tp.
      EXPECT_GE(pd.stage_time(b).memory, pb.stage_time(b).memory) << model << " context " << ctx;
    }
  }
}

// Overlap only ever hides work: the same step with the engine's CPU work added instead of overlapped,
// or with its communication left in the open, is never faster.
TEST(PhysicsProperties, HidingCpuWorkOrCommunicationNeverMakesAStepSlower) {
  for (const auto& c : k_cases) {
    const auto d = make_deployment(config(c)).value();
    auto serial = d;
    serial.engine.overlap_scheduler = false;
    const PerfModel p(d), ps(serial);
    for (int batch = 1; batch <= 256; batch *= 4) {
      BatchShape b;
      for (int i = 0; i < batch; ++i) p.add_decode(b, 2048, 1);
      EXPECT_LE(p.stage_time(b).total, ps.stage_time(b).total) << c.model << " " << c.engine << " batch " << batch;
      EXPECT_LE(p.stage_time(b).cpu, ps.stage_time(b).cpu) << c.model << " " << c.engine;
    }
  }
  SimConfig s;
  s.model = "qwen3-235b-a22b";
  s.tp_size = 8;
  s.ep_size = 8;
  const auto plain = make_deployment(s).value();
  s.enable_two_batch_overlap = true;
  const auto tbo = make_deployment(s).value();
  const PerfModel pp(plain), pt(tbo);
  for (std::int64_t tokens : {2, 512, 8192}) {
    BatchShape b;
    pp.add_prefill(b, 0, tokens);
    EXPECT_LE(pt.stage_time(b).communication, pp.stage_time(b).communication) << tokens;
  }
}
