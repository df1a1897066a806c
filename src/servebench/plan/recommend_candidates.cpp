// `recommend`: the deployments worth trying for one model on N GPUs, as serve-sim configurations
// and the SGLang flags that launch them.
#include <fmt/format.h>

#include "servebench/plan/recommend.hpp"
#include "servebench/sim/model_card.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::plan {

std::vector<Candidate> enumerate_candidates(const RecommendSpec& spec, const sim::ModelCard& card) {
  std::vector<Candidate> out;
  const bool moe = card.mlp.is_moe();
  const std::vector<int> mrrs{16, 32, 64, 128, 256};
  const std::vector<int> chunks{4096, 8192, 16384};
  const std::vector<int> graphs{32, 160, 256};
  const std::vector<sim::KvCacheDtype> kvs{sim::KvCacheDtype::auto_dtype, sim::KvCacheDtype::fp8_e4m3};
  // Weight quantization the card allows: a 16-bit checkpoint is also served with SGLang's online FP8
  // quantization (--quantization fp8: W8A8 on FP8 tensor cores, half the weight bytes). Formats that
  // need a checkpoint of their own (NVFP4, AWQ, ...) are another model card.
  std::vector<std::string> quants{""};
  if (card.weight_dtype_bytes >= 2) quants.emplace_back("fp8");
  std::vector<int> spec_steps{0};
  if (card.draft) spec_steps.insert(spec_steps.end(), {1, 2, 3});
  const std::string algorithm = !card.draft ? "" : card.draft->kind == sim::DraftKind::mtp ? "NEXTN"
                                               : card.draft->kind == sim::DraftKind::eagle3 ? "EAGLE3"
                                                                                             : "EAGLE";
  // DP attention (attention data-parallel over the TP ranks, SGLang's --enable-dp-attention) is how
  // MLA and MoE models are served at scale; for them DP = TP is tried as well (the cookbook's form).
  const bool dp_attention = moe || card.attention.kind == sim::AttentionKind::mla;
  for (int tp = 1; tp <= spec.gpus; ++tp) {
    if (spec.gpus % tp != 0) continue;
    const int pp = spec.gpus / tp;
    std::vector<int> eps{1};
    if (moe && tp > 1) eps.push_back(tp);
    std::vector<int> dps{1};
    if (dp_attention && tp > 1) dps.push_back(tp);
    for (const auto& quant : quants)
    for (int ep : eps)
      for (int dp : dps)
      for (int mrr : mrrs)
        for (int chunk : chunks)
          for (int graph : graphs)
            for (auto kv : kvs)
              for (int steps : spec_steps) {
                Candidate c;
                auto& k = c.config;
                k.hardware = spec.hardware;
                k.model = spec.model;
                k.tp_size = tp;
                k.pp_size = pp;
                k.ep_size = ep;
                k.dp_size = dp;
                k.enable_dp_attention = dp > 1;
                k.max_running_requests = mrr;
                k.chunked_prefill_size = chunk;
                k.cuda_graph_max_bs = graph;
                k.kv_cache_dtype = kv;
                k.quantization = quant;
                if (!quant.empty()) c.flags.push_back("--quantization " + quant);
                c.flags.push_back(fmt::format("--tp-size {}", tp));
                if (pp > 1) c.flags.push_back(fmt::format("--pp-size {}", pp));
                if (ep > 1) c.flags.push_back(fmt::format("--ep-size {}", ep));
                if (dp > 1) c.flags.insert(c.flags.end(), {fmt::format("--dp-size {}", dp), "--enable-dp-attention"});
                c.flags.push_back(fmt::format("--max-running-requests {}", mrr));
                c.flags.push_back(fmt::format("--chunked-prefill-size {}", chunk));
                c.flags.push_back(fmt::format("--cuda-graph-max-bs {}", graph));
                if (kv != sim::KvCacheDtype::auto_dtype) c.flags.push_back(fmt::format("--kv-cache-dtype {}", sim::to_string(kv)));
                if (steps > 0) {
                  auto a = sim::parse_spec_algorithm(algorithm);
                  k.speculative_algorithm = a ? *a : sim::SpecAlgorithm::none;
                  k.speculative_num_steps = steps;
                  k.speculative_eagle_topk = 1;
                  k.speculative_num_draft_tokens = steps + 1;
                  c.flags.push_back("--speculative-algorithm " + algorithm);
                  c.flags.push_back(fmt::format("--speculative-num-steps {}", steps));
                  c.flags.push_back("--speculative-eagle-topk 1");
                  c.flags.push_back(fmt::format("--speculative-num-draft-tokens {}", steps + 1));
                }
                c.label = util::join(c.flags, " ");
                out.push_back(std::move(c));
              }
  }
  return out;
}

}  // namespace servebench::plan
