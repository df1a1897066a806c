#pragma once
// Model cards (data/models/<name>.yaml): the architecture facts the performance model needs, with the
// derived parameter breakdown (what is sharded by TP, what is replicated, what is a routed expert).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::sim {

enum class AttentionKind { gqa, mla };

// DeepSeek-style sparse attention (DSA): each query attends its index_topk best keys, chosen by a
// light indexer that still scores the full context.
struct SparseAttention {
  std::int64_t index_topk = 0;
  int index_heads = 0;
  int index_head_dim = 0;
};

struct AttentionSpec {
  AttentionKind kind = AttentionKind::gqa;
  int heads = 0;
  int kv_heads = 0;   // gqa
  int head_dim = 0;   // gqa
  int q_lora_rank = 0, kv_lora_rank = 0, qk_rope_head_dim = 0, qk_nope_head_dim = 0, v_head_dim = 0;  // mla
  std::optional<SparseAttention> sparse;
};

struct MlpSpec {
  std::int64_t intermediate_size = 0;  // dense MLP layers
  int dense_layers = 0;                // leading dense layers of a MoE model (all layers when experts == 0)
  int experts = 0;
  int experts_per_token = 0;
  int shared_experts = 0;
  std::int64_t moe_intermediate_size = 0;
  // Router skew: expert i (by popularity) is chosen by a token with probability ∝ (i + 1)^-skew
  // (Zipf); 0 = uniform. Not published for any model: fit by `servebench sim calibrate`.
  double routing_skew = 0;
  bool is_moe() const { return experts > 0; }
};

// The GEMM a weight format runs on: FP8/FP4 tensor cores when the GPU has them (W8A8, W4A4), else the
// weights are dequantized and multiplied in BF16 (weight-only formats such as INT4 AWQ/GPTQ).
enum class GemmDtype { bf16, fp8, fp4 };

// A checkpoint's weight format: bytes per element including its scales, and the GEMM it runs on.
struct WeightFormat {
  std::string name;  // bf16, fp16, fp8, int8, nvfp4, mxfp4, int4, or "bytes" for a plain weight_dtype_bytes
  double bytes = 2;
  GemmDtype gemm = GemmDtype::bf16;
};
// Known formats (docs/sim.md "Cards"); fails listing them.
util::Result<WeightFormat> weight_format(const std::string& name);
// The weight format an SGLang --quantization method serves (docs/sim.md "Cards"): fp8, w8a8_fp8,
// modelopt_fp8, mxfp8 -> fp8; w8a8_int8 -> int8; modelopt_fp4, nvfp4_online, petit_nvfp4 -> nvfp4;
// mxfp4, quark_mxfp4 -> mxfp4; awq, gptq, their Marlin kernels, moe_wna16 -> int4. nullopt for a
// method that reads the format from the checkpoint (compressed-tensors, modelopt, quark, ...) or
// serves it unquantized, so the card's format stands.
std::optional<std::string> quantization_weight_format(std::string_view method);

enum class DraftKind { eagle, eagle3, mtp };

// The speculative draft model: an EAGLE head (GQA KV) or a NEXTN/MTP module (target-style KV).
struct DraftSpec {
  DraftKind kind = DraftKind::eagle3;
  int layers = 1;
  double params_b = 0;         // weights held
  double active_params_b = 0;  // weights read per draft pass
  int kv_heads = 0, head_dim = 0;
  // Published acceptance of this draft, one rate per draft position (the last repeats): the chance
  // draft i is accepted given drafts 1..i-1 were. Empty = none published (the simulator uses 0.7).
  std::vector<double> accept_rates;
};

struct TokenIds {
  std::int32_t bos = -1;  // -1: the model has no BOS
  std::int32_t eos = 0;
  std::int32_t special_start = 0;  // ids >= special_start are special
};

struct ModelCard {
  std::string name, label;
  int layers = 0;
  std::int64_t hidden_size = 0;
  std::int64_t vocab_size = 0;
  bool tie_word_embeddings = false;
  AttentionSpec attention;
  MlpSpec mlp;
  double params_total_b = 0, params_active_b = 0;  // as published (the derived breakdown is checked against them)
  double weight_dtype_bytes = 2, embedding_dtype_bytes = 2, replicated_dtype_bytes = 2;  // bytes per element
  GemmDtype weight_gemm = GemmDtype::bf16;  // from weight_dtype (bf16/fp8 inferred from a plain byte count)
  std::int64_t context_length = 0;
  TokenIds tokens;
  std::optional<DraftSpec> draft;
  std::vector<std::string> sources, assumptions;
};

// Parameter counts (elements, not bytes) derived from the card's dimensions.
struct ParamBreakdown {
  double attention_sharded = 0;     // per layer, split by TP (q_b/kv_b/o or q/k/v/o)
  double attention_replicated = 0;  // per layer, on every TP rank (MLA down-projections, DSA indexer, router)
  double dense_mlp = 0;             // per dense layer
  double expert = 0;                // one routed (or shared) expert
  double embedding = 0, lm_head = 0;
  int dense_layers = 0, moe_layers = 0;
  int experts = 0, experts_per_token = 0, shared_experts = 0;
  double total() const;
  // Weights one token touches: attention, dense MLPs, its top-k + shared experts, the LM head.
  double active() const;
};

ParamBreakdown param_breakdown(const ModelCard& m);
// KV-cache elements per token per layer: GQA 2*n_kv*d; MLA rank + rope (one latent "head").
double kv_elements_per_token_layer(const ModelCard& m);
// How many ranks of a TP group of `tp` hold a copy of the same KV: tp for MLA (one latent head),
// tp / kv_heads for GQA with fewer KV heads than ranks, else 1. Decode context parallelism splits these.
int kv_copies_per_tp_group(const ModelCard& m, int tp);
// DSA indexer key elements per token per layer (0 without sparse attention); cached in FP8.
double index_key_elements_per_token_layer(const ModelCard& m);
// Attention context one query reads: capped at the index top-k for sparse attention.
inline std::int64_t attended_context(const ModelCard& m, std::int64_t context) {
  return m.attention.sparse ? std::min(context, m.attention.sparse->index_topk) : context;
}

// Parses a card; errors name file:line:col (bad_input). Unknown keys are errors.
util::Result<ModelCard> parse_model_card(const std::string& yaml_text, const std::string& file);
// Loads data/models/<name>.yaml; fails naming the known cards when there is none.
util::Result<ModelCard> load_model_card(const std::string& name);
std::vector<std::string> model_card_names();

}  // namespace servebench::sim
