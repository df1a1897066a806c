#include "servebench/sim/perf_model.hpp"

#include <algorithm>
#include <cmath>

namespace servebench::sim {
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

double gemm_efficiency(double tokens, double half_tokens) {
  if (tokens <= 0) return 1;
  return tokens / (tokens + half_tokens);
}

PerfModel::PerfModel(const Deployment& d)
    : m_d(d), m_coll(d), m_p(d.params),
      m_stage_fraction(static_cast<double>(d.memory.layers_per_stage) / d.model.layers) {
  if (d.model.mlp.routing_skew > 0) m_pick = routing_probabilities(m_p.experts, m_p.experts_per_token, d.model.mlp.routing_skew);
  const int ep = std::max(1, d.config.ep_size);
  m_rank0_pick = static_cast<double>(m_p.experts_per_token) / ep;
  if (!m_pick.empty() && ep > 1) {  // rank 0 holds popularity ranks 0, ep, 2ep, ...
    m_rank0_pick = 0;
    for (std::size_t i = 0; i < m_pick.size(); i += static_cast<std::size_t>(ep)) m_rank0_pick += m_pick[i];
  }
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

double PerfModel::weight_bytes_read(double tokens, double rank_hits) const {
  if (tokens <= 0) return 0;
  const auto& m = m_d.model;
  const double tp = m_d.config.tp_size, f = m_stage_fraction;
  const double attn = m.layers * (m_p.attention_sharded * m.weight_dtype_bytes / m_d.attention_tp() +
                                  m_p.attention_replicated * m.replicated_dtype_bytes);
  const double dense = m_p.dense_layers * m_p.dense_mlp * m.weight_dtype_bytes / tp;
  // EP: a rank holds E/ep whole experts sliced by tp/ep; shared experts are sliced by TP on every rank.
  const double ep = m_d.config.ep_size;
  const double experts = m_p.moe_layers * (rank_hits * ep + m_p.shared_experts) * m_p.expert *
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

double PerfModel::compute_seconds(const BatchShape& b, double rank_hits) const {
  const auto& m = m_d.model;
  const auto& a = m.attention;
  const auto& e = m_d.hardware.efficiency;
  const double rate = m_d.hardware.tensor_flops(m.weight_gemm) * e.mfu;
  const auto at = [&](double flops, double rows) { return flops / (rate * gemm_efficiency(rows, e.gemm_half_tokens)); };
  const double tp = m_d.config.tp_size, f = m_stage_fraction, ep = m_d.config.ep_size;
  const double atp = m_d.attention_tp(), share = attention_share(b);  // DP attention: this rank's part
  const double tokens = static_cast<double>(b.tokens());
  // Linear layers, each GEMM at the efficiency of its rows: attention projections over this rank's
  // tokens, dense MLP and shared experts over all tokens, a routed expert over the tokens it received.
  const double attention = f * m.layers * (m_p.attention_sharded / atp + m_p.attention_replicated);
  const double dense = f * (m_p.dense_layers * m_p.dense_mlp + m_p.moe_layers * m_p.shared_experts * m_p.expert) / tp;
  const double routed_tokens = tokens * m_rank0_pick;  // token-expert pairs on the busiest rank
  const double routed = f * m_p.moe_layers * m_p.expert * ep / tp;
  const double head_tokens = static_cast<double>(b.decode_tokens + b.prefill_chunks);
  const double head = (m_p.lm_head > 0 ? m_p.lm_head : m_p.embedding) / tp / m_d.config.pp_size;
  double s = at(2.0 * tokens * share * attention, tokens * share) + at(2.0 * tokens * dense, tokens) +
             at(2.0 * head_tokens * head, head_tokens);
  if (rank_hits > 0) s += at(2.0 * routed_tokens * routed, routed_tokens / rank_hits);
  // Attention per (query, key) pair and head: 2 * (d_qk + d_v). MLA decode runs absorbed on the latent.
  // The attention kernels tile over the keys, so they run at the card's rate (no rows curve).
  const bool mla = a.kind == AttentionKind::mla;
  const double decode_dims = mla ? 2.0 * a.kv_lora_rank + a.qk_rope_head_dim : 2.0 * a.head_dim;
  const double prefill_dims = mla ? 1.0 * a.qk_nope_head_dim + a.qk_rope_head_dim + a.v_head_dim : 2.0 * a.head_dim;
  const double layers = m_d.memory.layers_per_stage;
  double pairs = share * layers * 2.0 * (a.heads / atp) * (decode_dims * b.decode_attn_pairs + prefill_dims * b.prefill_attn_pairs);
  if (a.sparse) {  // the indexer is replicated on every TP rank and scores the full context (its DCP shard)
    pairs += share * layers * 2.0 * a.sparse->index_heads * a.sparse->index_head_dim *
             (b.decode_index_pairs + b.prefill_index_pairs) / m_d.config.dcp_size;
  }
  return s + pairs / rate;
}

Nanos PerfModel::communication(const BatchShape& b) const {
  const auto& c = m_d.config;
  const double tokens = static_cast<double>(b.tokens());
  const double hidden = static_cast<double>(m_d.model.hidden_size);
  const double activation = tokens * hidden * 2.0;  // BF16 hidden states
  const double share = attention_share(b);
  const bool dp_attention = m_d.attention_dp() > 1;
  const double layers = m_d.memory.layers_per_stage;
  const double moe_layers = m_stage_fraction * m_p.moe_layers;
  const bool deepep = c.moe_a2a_backend == MoeA2aBackend::deepep && m_d.model.mlp.is_moe();
  // After attention: an all-reduce over the TP group (DP attention: within its attention group).
  Nanos attention = dp_attention ? m_coll.all_reduce(activation * share, m_d.attention_tp())
                                 : m_coll.all_reduce(activation, c.tp_size);
  // After the MLP: the TP all-reduce (plain EP combines its experts' outputs in the same all-reduce);
  // DP attention gathers every rank's tokens before it and scatters them back after it.
  const Nanos mlp = dp_attention ? 2 * m_coll.all_gather(activation, c.tp_size) : m_coll.all_reduce(activation, c.tp_size);
  Nanos moe = mlp;
  if (deepep) {  // dispatch each token's top-k copies to the experts' ranks in FP8, combine in BF16
    const double rank_tokens = dp_attention ? tokens * share : tokens / c.tp_size;
    const double copies = rank_tokens * m_p.experts_per_token;
    moe = m_coll.all_to_all(copies * hidden * 1.0, c.ep_size) + m_coll.all_to_all(copies * hidden * 2.0, c.ep_size);
    if (!dp_attention) moe += m_coll.all_gather(activation, c.tp_size);  // every TP rank needs all tokens again
  }
  const auto times = [](double n, Nanos t) { return Nanos{static_cast<Nanos::rep>(n * static_cast<double>(t.count()))}; };
  Nanos t = times(layers, attention) + times(layers - moe_layers, mlp) + times(moe_layers, moe);
  if (c.dcp_size > 1) {  // per layer: gather the queries of the DCP group, combine the partial outputs
    const auto& a = m_d.model.attention;
    const bool mla = a.kind == AttentionKind::mla;
    const double q_dims = mla ? a.kv_lora_rank + a.qk_rope_head_dim : a.head_dim;  // absorbed MLA query
    const double out_dims = (mla ? a.kv_lora_rank : a.head_dim) + 2.0;           // partial output + FP32 LSE
    const double heads = static_cast<double>(a.heads) / m_d.attention_tp() * c.dcp_size;  // heads the group shares
    const double attended = tokens * share;  // this DP attention rank's tokens
    const Nanos one = m_coll.all_gather(attended * heads * q_dims * 2.0, c.dcp_size) +
                      m_coll.all_gather(attended * heads * out_dims * 2.0, c.dcp_size);  // reduce-scatter: same ring
    t += m_d.memory.layers_per_stage * one;
  }
  if (c.pp_size > 1) t += m_coll.stage_send(activation);  // hand the hidden states to the next stage
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
                        (m_d.hardware.tensor_flops(gemm) * e.mfu * gemm_efficiency(tokens, e.gemm_half_tokens));
  Nanos pass = model_seconds(std::max(mem_s, flop_s));
  pass += 2 * dr.layers * m_coll.all_reduce(tokens * static_cast<double>(m_d.model.hidden_size) * 2.0, m_d.config.tp_size);
  if (!b.cuda_graph) pass += dr.layers * e.eager_layer;
  return b.draft_steps * pass;
}

Nanos PerfModel::cpu_work(const BatchShape& b) const {
  const auto& p = m_d.engine;
  const auto dp = m_d.attention_dp();  // a scheduler per DP attention rank, in parallel
  return p.cpu_step + (b.decode_requests + dp - 1) / dp * p.cpu_sequence + b.new_requests * p.cpu_request;
}

StepCost PerfModel::stage_time(const BatchShape& b) const {
  StepCost c;
  const auto& e = m_d.hardware.efficiency;
  const auto& hw = m_d.hardware;
  const double tokens = static_cast<double>(b.tokens());
  const double rank_hits = m_p.experts > 0 && tokens > 0 ? experts_hit_per_rank(tokens) : 0;
  const double weights = weight_bytes_read(tokens, rank_hits);
  // Two-batch overlap: each half of the batch runs every layer, so the weights are read twice.
  const bool tbo = m_d.config.enable_two_batch_overlap && b.tokens() >= 2;
  const double bytes = weights * (tbo ? 2 : 1) + kv_bytes_read(b);
  c.memory = model_seconds(bytes / (hw.hbm_tbs * 1e12 * e.bandwidth));
  c.compute = model_seconds(compute_seconds(b, rank_hits));
  const Nanos busy = std::max(c.compute, c.memory);
  c.communication = communication(b);
  // ... while one half's communication hides behind the other half's compute.
  if (tbo) c.communication -= std::min(c.communication, model_seconds(m_d.engine.two_batch_overlap * std::chrono::duration<double>(busy).count()));
  // Calibrated CPU time the engine does not hide (hardware efficiency; 0 unless sim calibrate found it).
  // DP attention: every rank runs its own scheduler over its share of the sequences, in parallel. The
  // per-request front time (per_request) is not here: it delays the request, not the step (engine.cpp).
  const auto dp = m_d.attention_dp();
  c.overhead = e.step_overhead + (b.decode_requests + dp - 1) / dp * e.per_sequence;
  if (!b.cuda_graph) c.overhead += m_d.memory.layers_per_stage * e.eager_layer;
  c.draft = draft_time(b);
  c.host_load = model_seconds(static_cast<double>(b.host_load_tokens) * m_d.memory.kv_bytes_per_token /
                        (hw.pcie_gbs * 1e9 * e.link));
  const Nanos gpu = busy + c.communication + c.overhead + c.draft + c.host_load;
  // The engine's CPU work: an overlap scheduler runs it during the GPU's step, so only what exceeds
  // the GPU's time shows; without one it adds up.
  const Nanos cpu = cpu_work(b);
  c.cpu = m_d.overlap_scheduler ? std::max(Nanos{0}, cpu - gpu) : cpu;
  c.total = gpu + c.cpu;
  return c;
}

}  // namespace servebench::sim
