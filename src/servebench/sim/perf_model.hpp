#pragma once
// Performance model (docs/sim.md): the time of one forward of one pipeline stage on one GPU, from a
// batch's shape: max(compute, memory) + the communication the engine does not overlap + fixed
// overhead (+ draft passes, + host-tier loads), and the engine's CPU work where it is not hidden
// behind the GPU. Compute runs at a GEMM efficiency that grows with the tokens per GEMM. Pure: same
// shape -> same time.
#include <chrono>
#include <cstdint>
#include <vector>

#include "servebench/sim/collectives.hpp"
#include "servebench/sim/deployment.hpp"

namespace servebench::sim {

using Nanos = std::chrono::nanoseconds;

// What a scheduler iteration computes, accumulated request by request (PerfModel::add_*).
struct BatchShape {
  std::int64_t decode_requests = 0;
  std::int64_t decode_tokens = 0;   // query tokens of decode / verify passes
  double decode_attn_pairs = 0;     // sum of query tokens x attended context
  double decode_index_pairs = 0;    // sum of query tokens x full context (DSA indexer scores)
  double decode_kv_tokens = 0;      // sum of attended context (KV read once per request)
  double decode_full_ctx = 0;       // sum of full context (indexer keys, draft attention)
  std::int64_t prefill_tokens = 0;  // new tokens of prefill chunks
  std::int64_t prefill_chunks = 0;
  double prefill_attn_pairs = 0, prefill_index_pairs = 0, prefill_kv_tokens = 0;
  std::int64_t host_load_tokens = 0;  // KV tokens moved host -> GPU before this forward
  std::int64_t new_requests = 0;      // requests admitted by this forward (per-request CPU cost)
  int draft_steps = 0;                // speculative draft passes before the verify pass
  bool cuda_graph = true;             // decode-only batch within cuda_graph_max_bs
  std::int64_t tokens() const { return decode_tokens + prefill_tokens; }
};

struct StepCost {
  Nanos total{0};
  Nanos compute{0}, memory{0};  // the larger of the two counts
  Nanos communication{0};       // what the engine does not overlap with compute (two-batch overlap hides some)
  Nanos overhead{0}, draft{0}, host_load{0};
  Nanos cpu{0};                 // the engine profile's CPU work not hidden behind the GPU
};

// Achieved fraction of the tensor rate for a GEMM of `tokens` rows: tokens / (tokens + half), the
// saturating curve of docs/sim.md "GEMM efficiency" (half = the card's gemm_half_tokens).
double gemm_efficiency(double tokens, double half_tokens);

class PerfModel {
 public:
  explicit PerfModel(const Deployment& d);  // keeps a reference: `d` must outlive the model

  // A request decoding (or verifying) `query_tokens` tokens against `context` cached tokens. Inline:
  // the engine adds every decoding request of every batch.
  void add_decode(BatchShape& b, std::int64_t context, int query_tokens) const {
    const double attended = static_cast<double>(attended_context(m_d.model, context));
    b.decode_requests += 1;
    b.decode_tokens += query_tokens;
    b.decode_attn_pairs += attended * query_tokens;
    b.decode_kv_tokens += attended;
    b.decode_full_ctx += static_cast<double>(context);
    if (m_d.model.attention.sparse) b.decode_index_pairs += static_cast<double>(context) * query_tokens;
  }
  // A prefill chunk of `new_tokens` tokens after `prefix` tokens already in KV (cached or earlier chunks).
  void add_prefill(BatchShape& b, std::int64_t prefix, std::int64_t new_tokens) const;
  // One pipeline stage's forward (the whole forward when pp_size == 1).
  StepCost stage_time(const BatchShape& b) const;

  // Expected distinct routed experts hit by `tokens` tokens under top-k routing (all GPUs).
  double experts_hit(double tokens) const;
  // Expected distinct routed experts held by the busiest EP rank for `tokens` tokens: the weights
  // one GPU reads (experts placed round-robin by popularity, as a balancing placement does).
  double experts_hit_per_rank(double tokens) const;
  const Collectives& collectives() const { return m_coll; }

 private:
  // DP attention: the fraction of the step's attention work on the busiest rank (requests spread
  // evenly: ceil(n / dp) / n); 1 without DP attention.
  double attention_share(const BatchShape& b) const;
  // Weight bytes one GPU reads for `tokens` tokens whose busiest EP rank hits `rank_hits` experts.
  double weight_bytes_read(double tokens, double rank_hits) const;
  double kv_bytes_read(const BatchShape& b) const;
  // Seconds of tensor-core work of the busiest rank, each GEMM at its own efficiency.
  double compute_seconds(const BatchShape& b, double rank_hits) const;
  Nanos communication(const BatchShape& b) const;
  Nanos draft_time(const BatchShape& b) const;
  Nanos cpu_work(const BatchShape& b) const;  // the engine profile's CPU time for this step

  const Deployment& m_d;
  Collectives m_coll;
  ParamBreakdown m_p;
  std::vector<double> m_pick;  // per expert by popularity: chance one token routes to it (sums to top-k)
  double m_rank0_pick = 0;      // sum of m_pick over the busiest EP rank's experts (top-k / ep when uniform)
  double m_stage_fraction = 1;  // layers of one stage / all layers
};

// Sum over the queries x = prefix+1 .. prefix+new_tokens of min(x, cap) (causal attention pairs).
double causal_pairs(std::int64_t prefix, std::int64_t new_tokens, std::int64_t cap);

}  // namespace servebench::sim
