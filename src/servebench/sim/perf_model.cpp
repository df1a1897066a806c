#include "servebench/sim/perf_model.hpp"

#include <algorithm>
#include <cmath>

namespace servebench::sim {
namespace {

Nanos seconds(double s) { return Nanos{static_cast<Nanos::rep>(std::llround(s * 1e9))}; }

}  // namespace

double causal_pairs(std::int64_t prefix, std::int64_t new_tokens, std::int64_t cap) {
  const double a = static_cast<double>(prefix) + 1, b = static_cast<double>(prefix + new_tokens);
  if (new_tokens <= 0) return 0;
  const double k = static_cast<double>(cap);
  if (b <= k) return (a + b) * (b - a + 1) / 2;           // every query below the cap
  if (a > k) return k * (b - a + 1);                      // every query capped
  return (a + k) * (k - a + 1) / 2 + k * (b - k);         // straddles the cap
}

// Per-expert inclusion probabilities under Zipf(skew) popularity, summing to k, each at most 1 (an
// expert is picked at most once per token): weights ∝ (i+1)^-s scaled to k, the excess of capped
// experts spread over the others until none exceeds 1.
std::vector<double> routing_probabilities(int experts, int k, double skew) {
  std::vector<double> p(static_cast<std::size_t>(experts));
  if (experts <= 0) return p;
  for (int i = 0; i < experts; ++i) p[static_cast<std::size_t>(i)] = std::pow(i + 1.0, -skew);
  std::vector<bool> capped(p.size(), false);
  for (int round = 0; round < experts; ++round) {
    double free_mass = 0, target = k;
    for (std::size_t i = 0; i < p.size(); ++i) (capped[i] ? target -= 1.0 : free_mass += p[i]);
    bool changed = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (capped[i]) continue;
      p[i] = p[i] * target / free_mass;
      if (p[i] > 1.0) p[i] = 1.0, capped[i] = true, changed = true;
    }
    if (!changed) break;
  }
  return p;
}

PerfModel::PerfModel(const Deployment& d)
    : m_d(d), m_p(d.params), m_stage_fraction(static_cast<double>(d.memory.layers_per_stage) / d.model.layers) {
  if (d.model.mlp.routing_skew > 0) m_pick = routing_probabilities(m_p.experts, m_p.experts_per_token, d.model.mlp.routing_skew);
}

void PerfModel::add_decode(BatchShape& b, std::int64_t context, int query_tokens) const {
  const double attended = static_cast<double>(attended_context(m_d.model, context));
  b.decode_requests += 1;
  b.decode_tokens += query_tokens;
  b.decode_attn_pairs += attended * query_tokens;
  b.decode_kv_tokens += attended;
  b.decode_full_ctx += static_cast<double>(context);
  if (m_d.model.attention.sparse) b.decode_index_pairs += static_cast<double>(context) * query_tokens;
}

void PerfModel::add_prefill(BatchShape& b, std::int64_t prefix, std::int64_t new_tokens) const {
  const std::int64_t cap = m_d.model.attention.sparse ? m_d.model.attention.sparse->index_topk : prefix + new_tokens;
  b.prefill_tokens += new_tokens;
  b.prefill_chunks += 1;
  b.prefill_attn_pairs += causal_pairs(prefix, new_tokens, cap);
  if (m_d.model.attention.sparse) b.prefill_index_pairs += causal_pairs(prefix, new_tokens, prefix + new_tokens);
  b.prefill_kv_tokens += static_cast<double>(prefix + new_tokens);
}

double PerfModel::experts_hit(double tokens) const {
  const double e = m_p.experts;
  if (e <= 0 || tokens <= 0) return 0;
  if (m_pick.empty()) return e * (1.0 - std::pow(1.0 - m_p.experts_per_token / e, tokens));  // uniform
  double hit = 0;
  for (double p : m_pick) hit += 1.0 - std::pow(1.0 - p, tokens);
  return hit;
}

double PerfModel::experts_hit_per_rank(double tokens) const {
  const int ep = m_d.config.ep_size;
  if (m_pick.empty() || ep <= 1) return experts_hit(tokens) / ep;  // uniform: every rank alike
  double hit = 0;  // rank 0 holds popularity ranks 0, ep, 2ep, ...: the busiest
  for (std::size_t i = 0; i < m_pick.size(); i += static_cast<std::size_t>(ep)) hit += 1.0 - std::pow(1.0 - m_pick[i], tokens);
  return hit;
}

double PerfModel::attention_share(const BatchShape& b) const {
  const int dp = m_d.attention_dp();
  if (dp <= 1) return 1;
  const auto n = b.decode_requests + b.prefill_chunks;
  if (n <= 0) return 1.0 / dp;
  return std::ceil(static_cast<double>(n) / dp) / static_cast<double>(n);
}

double PerfModel::weight_bytes_read(double tokens) const {
  if (tokens <= 0) return 0;
  const auto& m = m_d.model;
  const double tp = m_d.config.tp_size, f = m_stage_fraction;
  const double attn = m.layers * (m_p.attention_sharded * m.weight_dtype_bytes / m_d.attention_tp() +
                                  m_p.attention_replicated * m.replicated_dtype_bytes);
  const double dense = m_p.dense_layers * m_p.dense_mlp * m.weight_dtype_bytes / tp;
  // EP: a rank holds E/ep whole experts sliced by tp/ep; shared experts are sliced by TP on every rank.
  const double ep = m_d.config.ep_size;
  const double experts = m_p.moe_layers * (experts_hit_per_rank(tokens) * ep + m_p.shared_experts) * m_p.expert *
                         m.weight_dtype_bytes / tp;
  const double head = (m_p.lm_head > 0 ? m_p.lm_head : m_p.embedding) * m.embedding_dtype_bytes / tp /
                      m_d.config.pp_size;
  return f * (attn + dense + experts) + head;
}

double PerfModel::kv_bytes_read(const BatchShape& b) const {
  const auto& mem = m_d.memory;
  return attention_share(b) * mem.layers_per_stage *
         ((b.decode_kv_tokens + b.prefill_kv_tokens) * mem.kv_bytes_per_token_layer +
          (b.decode_full_ctx + b.prefill_kv_tokens) * mem.index_bytes_per_token_layer);
}

double PerfModel::flops(const BatchShape& b) const {
  const auto& m = m_d.model;
  const auto& a = m.attention;
  const double tp = m_d.config.tp_size, f = m_stage_fraction;
  const double atp = m_d.attention_tp(), share = attention_share(b);  // DP attention: this rank's part
  const double attention = f * m.layers * (m_p.attention_sharded / atp + m_p.attention_replicated);
  const double mlp = f * (m_p.dense_layers * m_p.dense_mlp / tp +
                          m_p.moe_layers * (m_p.experts_per_token + m_p.shared_experts) * m_p.expert / tp);
  const double head = (m_p.lm_head > 0 ? m_p.lm_head : m_p.embedding) / tp / m_d.config.pp_size;
  double total = 2.0 * static_cast<double>(b.tokens()) * (share * attention + mlp) +
                 2.0 * static_cast<double>(b.decode_tokens + b.prefill_chunks) * head;
  // Attention per (query, key) pair and head: 2 * (d_qk + d_v). MLA decode runs absorbed on the latent.
  const bool mla = a.kind == AttentionKind::mla;
  const double decode_dims = mla ? 2.0 * a.kv_lora_rank + a.qk_rope_head_dim : 2.0 * a.head_dim;
  const double prefill_dims = mla ? 1.0 * a.qk_nope_head_dim + a.qk_rope_head_dim + a.v_head_dim : 2.0 * a.head_dim;
  const double layers = m_d.memory.layers_per_stage;
  total += share * layers * 2.0 * (a.heads / atp) *
           (decode_dims * b.decode_attn_pairs + prefill_dims * b.prefill_attn_pairs);
  if (a.sparse) {  // the indexer is replicated on every TP rank and scores the full context (its DCP shard)
    total += share * layers * 2.0 * a.sparse->index_heads * a.sparse->index_head_dim *
             (b.decode_index_pairs + b.prefill_index_pairs) / m_d.config.dcp_size;
  }
  return total;
}

PerfModel::Ring PerfModel::ring(int ranks) const {
  const auto& e = m_d.hardware.efficiency;
  Ring r{m_d.hardware.link_bytes_per_s() * e.link, Nanos{0}};
  // Ranks fill a node before the next: a group larger than a node's share of GPUs spans nodes, and
  // the ring is then as fast as its slowest hop, the inter-node link.
  const int nodes = std::max(1, m_d.config.nnodes);
  const int per_node = std::max(1, m_d.gpus() / nodes);
  if (const int spanned = (ranks + per_node - 1) / per_node; spanned > 1) {
    r.bytes_per_s = std::min(r.bytes_per_s, m_d.hardware.internode_gbs * 1e9 * e.link);
    r.node_latency = (spanned - 1) * std::chrono::duration_cast<Nanos>(
                                         std::chrono::duration<double, std::micro>(m_d.hardware.internode_latency_us));
  }
  return r;
}

Nanos PerfModel::all_reduce(double bytes, int ranks) const {
  if (ranks <= 1) return Nanos{0};
  const auto& e = m_d.hardware.efficiency;
  const Ring r = ring(ranks);
  const Nanos alpha = e.all_reduce_base + 2 * (ranks - 1) * e.hop_latency + 2 * r.node_latency;
  return alpha + seconds(2.0 * (ranks - 1) / ranks * bytes / r.bytes_per_s);
}

Nanos PerfModel::all_gather(double bytes, int ranks) const {
  if (ranks <= 1) return Nanos{0};
  const auto& e = m_d.hardware.efficiency;
  const Ring r = ring(ranks);
  const Nanos alpha = e.all_reduce_base + (ranks - 1) * e.hop_latency + r.node_latency;
  return alpha + seconds(1.0 * (ranks - 1) / ranks * bytes / r.bytes_per_s);
}

Nanos PerfModel::communication(const BatchShape& b) const {
  const auto& c = m_d.config;
  const double tokens = static_cast<double>(b.tokens());
  const double activation = tokens * static_cast<double>(m_d.model.hidden_size) * 2.0;  // BF16 hidden states
  Nanos t{0};
  const double share = attention_share(b);
  if (m_d.attention_dp() == 1) {
    t += 2 * m_d.memory.layers_per_stage * all_reduce(activation, c.tp_size);  // after attention and after the MLP
  } else {  // DP attention: reduce within the attention group, gather all tokens for the MLP, scatter back
    t += m_d.memory.layers_per_stage *
         (all_reduce(activation * share, m_d.attention_tp()) + 2 * all_gather(activation, c.tp_size));
  }
  if (c.ep_size > 1) {  // dispatch + combine of top-k copies per MoE layer
    const double layers = m_stage_fraction * m_p.moe_layers;
    const Nanos one = all_reduce(activation * m_p.experts_per_token / 2.0, c.ep_size);
    t += Nanos{static_cast<Nanos::rep>(2.0 * layers * static_cast<double>(one.count()))};
  }
  if (c.dcp_size > 1) {  // per layer: gather the queries of the DCP group, combine the partial outputs
    const auto& a = m_d.model.attention;
    const bool mla = a.kind == AttentionKind::mla;
    const double q_dims = mla ? a.kv_lora_rank + a.qk_rope_head_dim : a.head_dim;  // absorbed MLA query
    const double out_dims = (mla ? a.kv_lora_rank : a.head_dim) + 2.0;           // partial output + FP32 LSE
    const double heads = static_cast<double>(a.heads) / m_d.attention_tp() * c.dcp_size;  // heads the group shares
    const double attended = tokens * share;  // this DP attention rank's tokens
    const Nanos one = all_gather(attended * heads * q_dims * 2.0, c.dcp_size) +
                      all_gather(attended * heads * out_dims * 2.0, c.dcp_size);  // reduce-scatter: same ring
    t += m_d.memory.layers_per_stage * one;
  }
  if (c.pp_size > 1) {  // hand the hidden states to the next stage
    const auto& e = m_d.hardware.efficiency;
    double bw = m_d.hardware.link_bytes_per_s() * e.link;
    // Over several nodes some stage boundaries are node boundaries: charge the average handoff.
    const double crossing = c.nnodes > 1 ? std::min(1.0, (c.nnodes - 1.0) / (c.pp_size - 1.0)) : 0.0;
    if (crossing > 0) bw = 1.0 / ((1 - crossing) / bw + crossing / (m_d.hardware.internode_gbs * 1e9 * e.link));
    t += e.all_reduce_base + seconds(activation / bw);
  }
  return t;
}

Nanos PerfModel::draft_time(const BatchShape& b) const {
  if (b.draft_steps <= 0 || !m_d.model.draft) return Nanos{0};
  const auto& dr = *m_d.model.draft;
  const auto& e = m_d.hardware.efficiency;
  const double tp = m_d.config.tp_size;
  const double tokens = static_cast<double>(b.decode_requests * m_d.spec.topk);
  const bool mtp = dr.kind == DraftKind::mtp;  // an MTP module is quantized like the target; EAGLE heads are BF16
  const double dtype = mtp ? m_d.model.weight_dtype_bytes : 2.0;
  const GemmDtype gemm = mtp ? m_d.model.weight_gemm : GemmDtype::bf16;
  const double bytes = dr.active_params_b * 1e9 * dtype / tp + b.decode_full_ctx * m_d.memory.draft_kv_bytes_per_token;
  const double mem_s = bytes / (m_d.hardware.hbm_tbs * 1e12 * e.bandwidth);
  const double flop_s = 2.0 * dr.active_params_b * 1e9 * tokens / tp /
                        (m_d.hardware.tensor_flops(gemm) * e.mfu);
  Nanos pass = seconds(std::max(mem_s, flop_s));
  pass += 2 * dr.layers * all_reduce(tokens * static_cast<double>(m_d.model.hidden_size) * 2.0, m_d.config.tp_size);
  if (!b.cuda_graph) pass += dr.layers * e.eager_layer;
  return b.draft_steps * pass;
}

StepCost PerfModel::stage_time(const BatchShape& b) const {
  StepCost c;
  const auto& e = m_d.hardware.efficiency;
  const auto& hw = m_d.hardware;
  const double bytes = weight_bytes_read(static_cast<double>(b.tokens())) + kv_bytes_read(b);
  c.memory = seconds(bytes / (hw.hbm_tbs * 1e12 * e.bandwidth));
  c.compute = seconds(flops(b) / (hw.tensor_flops(m_d.model.weight_gemm) * e.mfu));
  c.communication = communication(b);
  // DP attention: every rank runs its own scheduler over its share of the sequences, in parallel; the
  // per-request work (HTTP, tokenizer) stays in the one front process.
  const auto dp = m_d.attention_dp();
  c.overhead = e.step_overhead + (b.decode_requests + dp - 1) / dp * e.per_sequence + b.new_requests * e.per_request;
  if (!b.cuda_graph) c.overhead += m_d.memory.layers_per_stage * e.eager_layer;
  c.draft = draft_time(b);
  c.host_load = seconds(static_cast<double>(b.host_load_tokens) * m_d.memory.kv_bytes_per_token /
                        (hw.pcie_gbs * 1e9 * e.link));
  c.total = std::max(c.compute, c.memory) + c.communication + c.overhead + c.draft + c.host_load;
  return c;
}

}  // namespace servebench::sim
