#include "servebench/sim/engine_profile.hpp"

#include <gtest/gtest.h>

#include "closed_loop.hpp"
#include "servebench/sim/deployment.hpp"
#include "servebench/sim/engine.hpp"

using namespace servebench::sim;

TEST(EngineProfile, EveryBuiltInProfileLoadsUnderItsName) {
  const auto names = engine_profile_names();
  ASSERT_EQ(names, (std::vector<std::string>{"llamacpp", "sglang", "vllm"}));
  for (const auto& n : names) EXPECT_EQ(load_engine_profile(n).value().name, n);
  const auto sglang = load_engine_profile("sglang").value();
  const auto vllm = load_engine_profile("vllm").value();
  const auto llamacpp = load_engine_profile("llamacpp").value();
  // What sets the engines apart: who hides CPU work, who mixes prefill with decode, who shards tensors.
  EXPECT_TRUE(sglang.overlap_scheduler);
  EXPECT_FALSE(vllm.overlap_scheduler);
  EXPECT_FALSE(llamacpp.overlap_scheduler);
  EXPECT_EQ(sglang.mixed_prefill, MixedPrefill::with_flag);
  EXPECT_EQ(vllm.mixed_prefill, MixedPrefill::always);
  EXPECT_EQ(llamacpp.mixed_prefill, MixedPrefill::always);
  EXPECT_FALSE(llamacpp.tensor_parallel);
  EXPECT_EQ(llamacpp.cuda_graph_max_bs(139.8, 1), 1);
  EXPECT_GT(llamacpp.cpu_sequence, 10 * sglang.cpu_sequence);
}

TEST(EngineProfile, AnUnknownEngineListsTheKnownOnes) {
  const auto r = load_engine_profile("tgi");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("--sim-engine 'tgi'"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("llamacpp, sglang, vllm"), std::string::npos) << r.error().message;
}

// SGLang sizes its default prefill batch by the GPU's memory; the simulator reads the same ladder from
// the profile, so a B200-class card prefills 16K tokens a batch and an H200 8K unless the launch says.
TEST(EngineProfile, SglangsPrefillBudgetFollowsTheGpusMemory) {
  const auto p = load_engine_profile("sglang").value();
  EXPECT_EQ(p.prefill_budget(24), 2048);     // A10, 4090
  EXPECT_EQ(p.prefill_budget(40), 4096);     // A100 40GB, L40
  EXPECT_EQ(p.prefill_budget(79.6), 8192);   // H100
  EXPECT_EQ(p.prefill_budget(139.8), 8192);  // H200
  EXPECT_EQ(p.prefill_budget(160), 16384);   // the threshold itself belongs to the larger GPUs
  EXPECT_EQ(p.prefill_budget(279), 16384);   // GB300
  const auto v = load_engine_profile("vllm").value();
  EXPECT_EQ(v.prefill_budget(40), 2048);
  EXPECT_EQ(v.prefill_budget(79.6), 8192);
}

// vLLM's max_num_seqs default comes from the same engine-args function as its prefill budget: 256
// below 70 GiB, 1024 from it. SGLang has none: its cap follows from the KV pool (deployment.cpp).
TEST(EngineProfile, VllmsRunningCapFollowsTheGpusMemorySglangsTheKvPool) {
  const auto v = load_engine_profile("vllm").value();
  EXPECT_EQ(v.default_running_cap(40), 256);    // A100 40GB, L40S
  EXPECT_EQ(v.default_running_cap(79.6), 1024);  // H100
  EXPECT_FALSE(load_engine_profile("sglang").value().default_running_cap(79.6));
  SimConfig c;  // llama-3.1-8b on h200
  c.engine = "vllm";
  EXPECT_EQ(make_deployment(c).value().max_running_requests, 1024);
  c.max_running_requests = 64;  // the launch's --max-num-seqs / --max-running-requests wins
  EXPECT_EQ(make_deployment(c).value().max_running_requests, 64);
  const auto bad = parse_engine_profile(
      "name: x\ncpu_step_us: 1\ncpu_sequence_us: 1\ncpu_request_us: 0\nmixed_prefill: always\n"
      "cuda_graph_max_bs: 8\nprefill_budget_tokens: 2048\nmax_running_requests: [256, 1024]\n",
      "x.yaml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("max_running_requests needs one entry more than max_running_requests_below_gib"),
            std::string::npos)
      << bad.error().message;
}

// SGLang resets an unset --max-running-requests to 48 when speculative decoding is on (the cookbook
// page carries a notice for it); a given cap wins, and vLLM has no such rule.
TEST(EngineProfile, SglangCapsSpeculativeServersAt48RunningRequestsUnlessTheLaunchSaysOtherwise) {
  SimConfig c;  // llama-3.1-8b on h200
  const int plain = make_deployment(c).value().max_running_requests;
  EXPECT_GT(plain, 48);
  c.model = "llama-3.1-70b";
  c.tp_size = 4;
  c.speculative_algorithm = SpecAlgorithm::eagle;
  EXPECT_EQ(make_deployment(c).value().max_running_requests, 48);
  c.max_running_requests = 80;
  EXPECT_EQ(make_deployment(c).value().max_running_requests, 80);
  c.max_running_requests.reset();
  c.engine = "vllm";
  EXPECT_EQ(make_deployment(c).value().max_running_requests, 1024);
}

// The same ServerArgs function sizes the CUDA-graph batch by memory and by TP size (fewer than 4 ranks
// capture less): a TP8 H100 replays decode batches up to 512 in graphs, a TP2 one up to 256.
TEST(EngineProfile, SglangsCudaGraphBatchFollowsTheGpusMemoryAndTpSize) {
  const auto p = load_engine_profile("sglang").value();
  EXPECT_EQ(p.cuda_graph_max_bs(16, 1), 8);      // T4
  EXPECT_EQ(p.cuda_graph_max_bs(24, 2), 24);     // 4090
  EXPECT_EQ(p.cuda_graph_max_bs(24, 4), 80);
  EXPECT_EQ(p.cuda_graph_max_bs(40, 1), 32);     // A100 40GB
  EXPECT_EQ(p.cuda_graph_max_bs(40, 8), 160);
  EXPECT_EQ(p.cuda_graph_max_bs(79.6, 2), 256);  // H100
  EXPECT_EQ(p.cuda_graph_max_bs(79.6, 8), 512);
  EXPECT_EQ(p.cuda_graph_max_bs(139.8, 1), 256);  // H200
  EXPECT_EQ(p.cuda_graph_max_bs(279, 1), 512);    // GB300, any TP
  EXPECT_EQ(p.cuda_graph_max_bs(279, 4), 512);
  const auto v = load_engine_profile("vllm").value();  // one value for every GPU and TP size
  EXPECT_EQ(v.cuda_graph_max_bs(40, 1), 512);
  EXPECT_EQ(v.cuda_graph_max_bs(279, 8), 512);
  SimConfig c;  // llama-3.1-8b on h200
  c.tp_size = 4;
  EXPECT_EQ(make_deployment(c).value().cuda_graph_max_bs, 512);
  c.cuda_graph_max_bs = 8;  // the launch's value wins
  EXPECT_EQ(make_deployment(c).value().cuda_graph_max_bs, 8);
  c.cuda_graph_max_bs_decode = 32;  // and a decode-only limit wins over it (the cookbook's low-latency overlay)
  EXPECT_EQ(make_deployment(c).value().cuda_graph_max_bs, 32);
  c.disable_cuda_graph = true;
  EXPECT_EQ(make_deployment(c).value().cuda_graph_max_bs, 0);
}

TEST(EngineProfile, BadValuesNameTheFileAndTheField) {
  const std::string good = "name: x\noverlap_scheduler: false\ncpu_step_us: 1\ncpu_sequence_us: 2\ncpu_request_us: 3\n"
                           "mixed_prefill: always\ncuda_graph_max_bs: 8\nprefill_budget_tokens: 512\n";
  const auto ok = parse_engine_profile(good, "x.yaml").value();
  EXPECT_EQ(ok.cpu_sequence, std::chrono::microseconds(2));
  EXPECT_EQ(ok.prefill_budget_tokens, std::vector<std::int64_t>{512});
  EXPECT_EQ(ok.prefill_budget(24), 512);
  EXPECT_EQ(ok.prefill_budget(300), 512);
  const auto uneven = parse_engine_profile(good + "prefill_budget_below_gib: [40, 80]\n", "x.yaml");
  ASSERT_FALSE(uneven);
  EXPECT_NE(uneven.error().message.find("one entry more than prefill_budget_below_gib"), std::string::npos)
      << uneven.error().message;
  EXPECT_EQ(ok.cuda_graph_max_bs(24, 8), 8);  // one value: every GPU, every TP size
  const auto graphs = parse_engine_profile(good + "cuda_graph_below_gib: [40]\n", "x.yaml");
  ASSERT_FALSE(graphs);
  EXPECT_NE(graphs.error().message.find("cuda_graph_max_bs needs one entry more than cuda_graph_below_gib"),
            std::string::npos) << graphs.error().message;
  const auto fraction = parse_engine_profile(good + "cuda_graph_max_bs_from_tp4: 2.5\n", "x.yaml");
  ASSERT_FALSE(fraction);
  EXPECT_NE(fraction.error().message.find("cuda_graph_max_bs_from_tp4 must be whole numbers"), std::string::npos)
      << fraction.error().message;
  const auto mixed = parse_engine_profile(good + "two_batch_overlap: 2\n", "x.yaml");
  ASSERT_FALSE(mixed);
  EXPECT_NE(mixed.error().message.find("two_batch_overlap"), std::string::npos) << mixed.error().message;
  const auto typo = parse_engine_profile(good + "overlap_schedular: true\n", "x.yaml");
  ASSERT_FALSE(typo);
  EXPECT_NE(typo.error().message.find("x.yaml:9"), std::string::npos) << typo.error().message;
  std::string bad_mix = good;
  bad_mix.replace(bad_mix.find("always"), 6, "sometimes");
  const auto m = parse_engine_profile(bad_mix, "x.yaml");
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("mixed_prefill must be flag or always"), std::string::npos) << m.error().message;
}

TEST(EngineProfile, TheDeploymentTakesTheEnginesDefaultsAndRefusesWhatItCannotRepresent) {
  SimConfig c;  // llama-3.1-8b on h200, TP1
  EXPECT_EQ(make_deployment(c).value().cuda_graph_max_bs, 256);
  EXPECT_FALSE(make_deployment(c).value().mixed_chunk);
  c.engine = "vllm";
  const auto vllm = make_deployment(c).value();
  EXPECT_EQ(vllm.cuda_graph_max_bs, 512);
  EXPECT_TRUE(vllm.mixed_chunk);
  EXPECT_EQ(vllm.chunked_prefill_size, 8192);
  c.engine = "llamacpp";
  const auto llama = make_deployment(c).value();
  EXPECT_EQ(llama.cuda_graph_max_bs, 1);
  EXPECT_EQ(llama.chunked_prefill_size, 2048);
  c.tp_size = 2;
  const auto tp = make_deployment(c);
  ASSERT_FALSE(tp);
  EXPECT_NE(tp.error().message.find("--tp-size 2"), std::string::npos) << tp.error().message;
  EXPECT_NE(tp.error().message.find("tensor_parallel"), std::string::npos) << tp.error().message;
  c.tp_size = 1;
  c.engine = "vllm";
  c.enable_two_batch_overlap = true;
  const auto tbo = make_deployment(c);
  ASSERT_FALSE(tbo);
  EXPECT_NE(tbo.error().message.find("--enable-two-batch-overlap"), std::string::npos) << tbo.error().message;
  c.engine = "sglang";
  c.moe_a2a_backend = MoeA2aBackend::deepep;
  const auto dense = make_deployment(c);
  ASSERT_FALSE(dense);
  EXPECT_NE(dense.error().message.find("mlp.experts"), std::string::npos) << dense.error().message;
}

TEST(EngineProfile, ServerInfoSaysWhichEngineIsModelled) {
  SimConfig c;
  c.engine = "llamacpp";
  const auto facts = describe(make_deployment(c).value());
  const auto find = [&](const std::string& key) {
    for (const auto& f : facts.sim) {
      if (f.key == key) return f.value;
    }
    return FactValue{nullptr};
  };
  EXPECT_EQ(std::get<std::string>(find("engine")), "llamacpp");
  EXPECT_EQ(std::get<bool>(find("overlap_scheduler")), false);
  EXPECT_EQ(std::get<bool>(find("mixed_chunk")), true);
}

// A request arriving while another decodes: SGLang's default prefill batch carries no decode (the
// decoding request waits one step); vLLM and llama-server put both in one batch.
TEST(EngineProfile, VllmAndLlamaCppMixPrefillWithDecodesSglangPreemptsThem) {
  for (const char* engine : {"sglang", "vllm", "llamacpp"}) {
    SimConfig c;
    c.engine = engine;
    Engine e(make_deployment(c).value());
    SimRequest a;
    a.prompt = loop::random_prompt(256, 1, 128000);
    a.sampling.max_tokens = 64;
    a.sampling.ignore_eos = true;
    const auto first = e.submit(std::move(a)).value();
    while (e.meta(first)->completion_tokens < 3) (void)e.step();
    SimRequest b;
    b.prompt = loop::random_prompt(256, 2, 128000);
    b.sampling.max_tokens = 8;
    const auto second = e.submit(std::move(b)).value();
    bool first_advanced = false, second_started = false;
    for (const auto& ev : e.step().events) {
      first_advanced |= ev.id == first;
      second_started |= ev.id == second && ev.first_token;
    }
    EXPECT_TRUE(second_started) << engine;
    EXPECT_EQ(first_advanced, std::string(engine) != "sglang") << engine;
  }
}
