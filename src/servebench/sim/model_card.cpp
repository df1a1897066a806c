#include "servebench/sim/model_card.hpp"

#include <algorithm>

#include "servebench/sim/card_reader.hpp"
#include "servebench/util/embedded_data.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::sim {
namespace {

AttentionSpec read_attention(CardReader& r) {
  AttentionSpec a;
  const std::string kind = r.text("kind");
  a.kind = kind == "mla" ? AttentionKind::mla : AttentionKind::gqa;
  a.heads = static_cast<int>(r.integer("heads"));
  if (a.kind == AttentionKind::gqa) {
    a.kv_heads = static_cast<int>(r.integer("kv_heads"));
    a.head_dim = static_cast<int>(r.integer("head_dim"));
  } else {
    a.q_lora_rank = static_cast<int>(r.integer_or("q_lora_rank", 0));
    a.kv_lora_rank = static_cast<int>(r.integer("kv_lora_rank"));
    a.qk_rope_head_dim = static_cast<int>(r.integer("qk_rope_head_dim"));
    a.qk_nope_head_dim = static_cast<int>(r.integer("qk_nope_head_dim"));
    a.v_head_dim = static_cast<int>(r.integer("v_head_dim"));
  }
  if (auto s = r.child("sparse")) {
    a.sparse = SparseAttention{s->integer("index_topk"), static_cast<int>(s->integer("index_heads")),
                               static_cast<int>(s->integer("index_head_dim"))};
    r.absorb(*s);
  }
  return a;
}

MlpSpec read_mlp(CardReader& r, int layers) {
  MlpSpec m;
  m.intermediate_size = r.integer("intermediate_size");
  m.experts = static_cast<int>(r.integer_or("experts", 0));
  m.dense_layers = static_cast<int>(r.integer_or("dense_layers", m.experts > 0 ? 0 : layers));
  if (m.experts > 0) {
    m.experts_per_token = static_cast<int>(r.integer("experts_per_token"));
    m.shared_experts = static_cast<int>(r.integer_or("shared_experts", 0));
    m.moe_intermediate_size = r.integer("moe_intermediate_size");
    m.routing_skew = r.number_or("routing_skew", 0);
  }
  return m;
}

DraftSpec read_draft(CardReader& r) {
  DraftSpec d;
  const std::string kind = r.text("kind");
  d.kind = kind == "mtp" ? DraftKind::mtp : kind == "eagle" ? DraftKind::eagle : DraftKind::eagle3;
  d.layers = static_cast<int>(r.integer("layers"));
  d.params_b = r.number("params_b");
  d.active_params_b = r.number("active_params_b");
  d.kv_heads = static_cast<int>(r.integer_or("kv_heads", 0));
  d.head_dim = static_cast<int>(r.integer_or("head_dim", 0));
  d.accept_rates = r.numbers("accept_rates");
  return d;
}

// Weight format of the card: `weight_dtype` (a name) or `weight_dtype_bytes` (2 = BF16, 1 = FP8);
// a sub-byte count needs the name, because INT4 (BF16 GEMM) and FP4 (FP4 GEMM) have the same size.
util::Result<void> read_weight_format(CardReader& r, ModelCard& m, const std::string& file) {
  if (r.has("weight_dtype") && r.has("weight_dtype_bytes")) {
    return util::failf(util::ErrorKind::bad_input, "{}: model card '{}': give weight_dtype or weight_dtype_bytes, not both",
                       file, m.name);
  }
  if (r.has("weight_dtype")) {
    auto f = weight_format(r.text("weight_dtype"));
    if (!f) return util::failf(util::ErrorKind::bad_input, "{}: model card '{}': weight_dtype: {}", file, m.name, f.error().message);
    m.weight_dtype_bytes = f->bytes;
    m.weight_gemm = f->gemm;
    return {};
  }
  m.weight_dtype_bytes = r.number("weight_dtype_bytes");
  if (m.weight_dtype_bytes < 1 && m.weight_dtype_bytes > 0) {
    return util::failf(util::ErrorKind::bad_input,
                       "{}: model card '{}': weight_dtype_bytes {} is sub-byte: give weight_dtype (nvfp4, mxfp4 or "
                       "int4) instead, they differ in the GEMM they run on", file, m.name, m.weight_dtype_bytes);
  }
  m.weight_gemm = m.weight_dtype_bytes < 2 ? GemmDtype::fp8 : GemmDtype::bf16;
  return {};
}

// Cross-field checks the YAML reader cannot express; empty when the card is consistent.
std::string inconsistency(const ModelCard& m) {
  if (m.layers <= 0 || m.hidden_size <= 0 || m.vocab_size <= 0) return "layers, hidden_size and vocab_size must be > 0";
  if (m.attention.heads <= 0) return "attention.heads must be > 0";
  if (m.attention.kind == AttentionKind::gqa && (m.attention.kv_heads <= 0 || m.attention.head_dim <= 0))
    return "gqa attention needs kv_heads and head_dim > 0";
  if (m.mlp.is_moe() && (m.mlp.experts_per_token <= 0 || m.mlp.experts_per_token > m.mlp.experts))
    return "experts_per_token must be in [1, experts]";
  if (m.mlp.routing_skew < 0 || m.mlp.routing_skew > 4) return "mlp.routing_skew must be in [0, 4]";
  if (m.mlp.dense_layers < 0 || m.mlp.dense_layers > m.layers) return "dense_layers must be in [0, layers]";
  if (m.tokens.eos < 0 || m.tokens.eos >= m.vocab_size) return "tokens.eos must be a vocabulary id";
  if (m.tokens.special_start <= 0 || m.tokens.special_start > m.vocab_size) return "tokens.special_start out of range";
  if (m.tokens.special_start <= 256 + 2) return "tokens.special_start must leave more than 256 normal ids (byte tokens)";
  if (m.weight_dtype_bytes <= 0 || m.embedding_dtype_bytes <= 0 || m.replicated_dtype_bytes <= 0)
    return "weight_dtype_bytes, embedding_dtype_bytes and replicated_dtype_bytes must be > 0";
  if (m.context_length <= 0) return "context_length must be > 0";
  if (m.draft && m.draft->kind != DraftKind::mtp && (m.draft->kv_heads <= 0 || m.draft->head_dim <= 0))
    return "an eagle draft needs kv_heads and head_dim";
  if (m.draft) {
    for (double a : m.draft->accept_rates) {
      if (!(a >= 0 && a < 1)) return "draft.accept_rates must be in [0, 1)";
    }
  }
  return {};
}

}  // namespace

util::Result<ModelCard> parse_model_card(const std::string& yaml_text, const std::string& file) {
  auto doc = util::load_yaml_string(yaml_text, file);
  if (!doc) return std::unexpected(doc.error());
  auto r = CardReader::of(file, doc->root, "model card");
  if (!r) return std::unexpected(r.error());
  ModelCard m;
  m.name = r->text("name");
  m.label = r->text_or("label", m.name);
  m.layers = static_cast<int>(r->integer("layers"));
  m.hidden_size = r->integer("hidden_size");
  m.vocab_size = r->integer("vocab_size");
  m.tie_word_embeddings = r->flag_or("tie_word_embeddings", false);
  if (auto a = r->child("attention")) { m.attention = read_attention(*a); r->absorb(*a); }
  if (auto p = r->child("mlp")) { m.mlp = read_mlp(*p, m.layers); r->absorb(*p); }
  if (auto p = r->child("params")) {
    m.params_total_b = p->number("total_b");
    m.params_active_b = p->number("active_b");
    r->absorb(*p);
  }
  if (auto w = read_weight_format(*r, m, file); !w) return std::unexpected(w.error());
  m.embedding_dtype_bytes = r->number_or("embedding_dtype_bytes", 2);
  m.replicated_dtype_bytes = r->number_or("replicated_dtype_bytes", m.weight_dtype_bytes);
  m.context_length = r->integer("context_length");
  if (auto t = r->child("tokens")) {
    m.tokens.bos = static_cast<std::int32_t>(t->integer_or("bos", -1));
    m.tokens.eos = static_cast<std::int32_t>(t->integer("eos"));
    m.tokens.special_start = static_cast<std::int32_t>(t->integer("special_start"));
    r->absorb(*t);
  }
  if (auto d = r->child("draft")) { m.draft = read_draft(*d); r->absorb(*d); }
  m.sources = r->texts("sources");
  m.assumptions = r->texts("assumptions");
  if (auto done = r->finish(); !done) return std::unexpected(done.error());
  if (auto why = inconsistency(m); !why.empty()) {
    return util::failf(util::ErrorKind::bad_input, "{}: model card '{}': {}", file, m.name, why);
  }
  return m;
}

util::Result<ModelCard> load_model_card(const std::string& name) {
  const std::string path = "models/" + name + ".yaml";
  auto text = util::read_data_file(path);
  if (!text) {
    return util::failf(util::ErrorKind::bad_input, "unknown model '{}'; known: {}", name,
                       util::join(model_card_names(), ", "));
  }
  return parse_model_card(*text, "data/" + path);
}

std::vector<std::string> model_card_names() {
  std::vector<std::string> names;
  for (const auto& f : util::list_data_files("models/")) {
    if (!f.ends_with(".yaml")) continue;
    names.push_back(f.substr(7, f.size() - 7 - 5));
  }
  return names;
}

util::Result<WeightFormat> weight_format(const std::string& name) {
  // Scales included: FP8 block 128x128 FP32 scales are < 0.03 % and left out; NVFP4 one FP8 scale per
  // 16 elements; MXFP4 one E8M0 scale per 32; INT4 (AWQ/GPTQ) one BF16 scale per group of 128.
  static const WeightFormat formats[] = {
      {"bf16", 2.0, GemmDtype::bf16},      {"fp16", 2.0, GemmDtype::bf16},   {"fp8", 1.0, GemmDtype::fp8},
      {"int8", 1.0, GemmDtype::bf16},      {"nvfp4", 0.5625, GemmDtype::fp4}, {"mxfp4", 0.53125, GemmDtype::fp4},
      {"int4", 0.515625, GemmDtype::bf16},
  };
  std::vector<std::string> names;
  for (const auto& f : formats) {
    if (f.name == name) return f;
    names.push_back(f.name);
  }
  return util::failf(util::ErrorKind::bad_input, "unknown weight format '{}'; known: {}", name, util::join(names, ", "));
}

std::optional<std::string> quantization_weight_format(std::string_view method) {
  static const std::pair<std::string_view, std::string_view> methods[] = {
      {"fp8", "fp8"},           {"w8a8_fp8", "fp8"},       {"modelopt_fp8", "fp8"},  {"mxfp8", "fp8"},
      {"w8a8_int8", "int8"},    {"modelopt_fp4", "nvfp4"}, {"nvfp4_online", "nvfp4"}, {"petit_nvfp4", "nvfp4"},
      {"mxfp4", "mxfp4"},       {"quark_mxfp4", "mxfp4"},  {"awq", "int4"},           {"awq_marlin", "int4"},
      {"gptq", "int4"},         {"gptq_marlin", "int4"},   {"marlin", "int4"},        {"moe_wna16", "int4"},
  };
  for (const auto& [name, format] : methods) {
    if (name == method) return std::string(format);
  }
  return std::nullopt;
}

double ParamBreakdown::total() const {
  return (attention_sharded + attention_replicated) * (dense_layers + moe_layers) + dense_mlp * dense_layers +
         expert * (experts + shared_experts) * moe_layers + embedding + lm_head;
}

double ParamBreakdown::active() const {
  return (attention_sharded + attention_replicated) * (dense_layers + moe_layers) + dense_mlp * dense_layers +
         expert * (experts_per_token + shared_experts) * moe_layers + (lm_head > 0 ? lm_head : embedding);
}

ParamBreakdown param_breakdown(const ModelCard& m) {
  ParamBreakdown p;
  const double h = static_cast<double>(m.hidden_size);
  const auto& a = m.attention;
  if (a.kind == AttentionKind::gqa) {
    p.attention_sharded = h * (a.heads + 2.0 * a.kv_heads) * a.head_dim + 1.0 * a.heads * a.head_dim * h;
  } else {
    const double qk = a.qk_nope_head_dim + a.qk_rope_head_dim;
    const double q_in = a.q_lora_rank > 0 ? a.q_lora_rank : h;
    p.attention_sharded = q_in * a.heads * qk + 1.0 * a.kv_lora_rank * a.heads * (a.qk_nope_head_dim + a.v_head_dim) +
                          1.0 * a.heads * a.v_head_dim * h;
    p.attention_replicated = h * ((a.q_lora_rank > 0 ? a.q_lora_rank : 0) + a.kv_lora_rank + a.qk_rope_head_dim);
    if (a.sparse) {
      p.attention_replicated += q_in * a.sparse->index_heads * a.sparse->index_head_dim +
                                h * a.sparse->index_head_dim + h * a.sparse->index_heads;
    }
  }
  if (m.mlp.is_moe()) p.attention_replicated += h * m.mlp.experts;  // router
  p.dense_mlp = 3.0 * h * static_cast<double>(m.mlp.intermediate_size);
  p.expert = 3.0 * h * static_cast<double>(m.mlp.moe_intermediate_size);
  p.dense_layers = m.mlp.is_moe() ? m.mlp.dense_layers : m.layers;
  p.moe_layers = m.layers - p.dense_layers;
  p.experts = m.mlp.experts;
  p.experts_per_token = m.mlp.experts_per_token;
  p.shared_experts = m.mlp.shared_experts;
  p.embedding = h * static_cast<double>(m.vocab_size);
  p.lm_head = m.tie_word_embeddings ? 0 : p.embedding;
  return p;
}

double kv_elements_per_token_layer(const ModelCard& m) {
  const auto& a = m.attention;
  if (a.kind == AttentionKind::mla) return a.kv_lora_rank + a.qk_rope_head_dim;
  return 2.0 * a.kv_heads * a.head_dim;
}

int kv_copies_per_tp_group(const ModelCard& m, int tp) {
  if (m.attention.kind == AttentionKind::mla) return tp;
  return m.attention.kv_heads >= tp ? 1 : tp / m.attention.kv_heads;
}

double index_key_elements_per_token_layer(const ModelCard& m) {
  return m.attention.sparse ? m.attention.sparse->index_head_dim : 0.0;
}

}  // namespace servebench::sim
