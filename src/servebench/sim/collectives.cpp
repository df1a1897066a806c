#include "servebench/sim/collectives.hpp"

#include <algorithm>
#include <cmath>

namespace servebench::sim {
namespace {

using Nanos = std::chrono::nanoseconds;

// SGLang's and vLLM's custom all-reduce handles buffers up to 8 MiB (its registered buffer); NCCL
// takes larger ones.
constexpr double k_custom_all_reduce_max_bytes = 8.0 * 1024 * 1024;

}  // namespace

Collectives::Collectives(const Deployment& d) : m_d(d) {}

Collectives::Path Collectives::path(int ranks) const {
  const auto& hw = m_d.hardware;
  const double eff = hw.efficiency.link;
  Path p{hw.link_bytes_per_s() * eff, hw.link_bytes_per_s() * eff, Nanos{0}, 1, hw.nvlink_gbs > 0};
  // Ranks fill a node before the next: a group larger than a node's share of GPUs spans nodes and
  // is as fast as its slowest hop, the inter-node link.
  const int nodes = std::max(1, m_d.config.nnodes);
  const int per_node = std::max(1, m_d.gpus() / nodes);
  p.nodes = std::max(1, (ranks + per_node - 1) / per_node);
  if (p.nodes > 1) {
    p.bytes_per_s = std::min(p.bytes_per_s, hw.internode_gbs * 1e9 * eff);
    p.node_latency = std::chrono::duration_cast<Nanos>(std::chrono::duration<double, std::micro>(hw.internode_latency_us));
  }
  return p;
}

Nanos Collectives::cost(AllReduceAlgorithm a, const Path& p, double bytes, int n) const {
  const auto& e = m_d.hardware.efficiency;
  const double bw = p.bytes_per_s;
  switch (a) {
    case AllReduceAlgorithm::one_shot:  // every rank reads all peers' buffers at once and reduces
      return e.all_reduce_base + e.hop_latency + model_seconds((n - 1) * bytes / bw);
    case AllReduceAlgorithm::two_shot:  // reduce-scatter then all-gather, one step each over NVSwitch
      return e.all_reduce_base + 2 * e.hop_latency + model_seconds(2.0 * (n - 1) / n * bytes / bw);
    case AllReduceAlgorithm::ring:
      return e.all_reduce_base + 2 * (n - 1) * e.hop_latency + 2 * (p.nodes - 1) * p.node_latency +
             model_seconds(2.0 * (n - 1) / n * bytes / bw);
    case AllReduceAlgorithm::tree: {  // NCCL: a chain inside each node, a double binary tree across nodes
      const int per_node = n / p.nodes;
      const int depth = static_cast<int>(std::ceil(std::log2(p.nodes)));
      return e.all_reduce_base + 2 * (per_node - 1) * e.hop_latency + 2 * depth * p.node_latency +
             model_seconds(2.0 * bytes / bw);
    }
  }
  return Nanos{0};
}

AllReduceAlgorithm Collectives::all_reduce_algorithm(double bytes, int ranks) const {
  const Path p = path(ranks);
  const bool custom = m_d.engine.custom_all_reduce && p.nvlink && p.nodes == 1 && bytes <= k_custom_all_reduce_max_bytes;
  AllReduceAlgorithm best = AllReduceAlgorithm::ring;
  Nanos best_cost = cost(best, p, bytes, ranks);
  for (auto a : {AllReduceAlgorithm::tree, AllReduceAlgorithm::one_shot, AllReduceAlgorithm::two_shot}) {
    const bool allowed = a == AllReduceAlgorithm::tree ? p.nodes > 1 : custom;
    if (!allowed) continue;
    if (const Nanos t = cost(a, p, bytes, ranks); t < best_cost) best = a, best_cost = t;
  }
  return best;
}

Nanos Collectives::all_reduce(double bytes, int ranks) const {
  if (ranks <= 1) return Nanos{0};
  return cost(all_reduce_algorithm(bytes, ranks), path(ranks), bytes, ranks);
}

Nanos Collectives::all_gather(double bytes, int ranks) const {
  if (ranks <= 1) return Nanos{0};
  const auto& e = m_d.hardware.efficiency;
  const Path p = path(ranks);
  return e.all_reduce_base + (ranks - 1) * e.hop_latency + (p.nodes - 1) * p.node_latency +
         model_seconds(1.0 * (ranks - 1) / ranks * bytes / p.bytes_per_s);
}

Nanos Collectives::all_to_all(double bytes, int ranks) const {
  if (ranks <= 1) return Nanos{0};
  const auto& e = m_d.hardware.efficiency;
  const Path p = path(ranks);
  // Shares for peers in the same node go over the scale-up link, the rest over the NIC, in parallel.
  const double per_node = static_cast<double>(ranks) / p.nodes;
  const double local = (per_node - 1) / ranks * bytes, remote = (ranks - per_node) / ranks * bytes;
  const double s = std::max(local / p.node_bytes_per_s, p.nodes > 1 ? remote / p.bytes_per_s : 0.0);
  return e.all_reduce_base + e.hop_latency + (p.nodes > 1 ? p.node_latency : Nanos{0}) + model_seconds(s);
}

Nanos Collectives::stage_send(double bytes) const {
  const auto& c = m_d.config;
  const auto& hw = m_d.hardware;
  double bw = hw.link_bytes_per_s() * hw.efficiency.link;
  // Over several nodes some stage boundaries are node boundaries: charge the average handoff.
  const double crossing = c.nnodes > 1 ? std::min(1.0, (c.nnodes - 1.0) / (c.pp_size - 1.0)) : 0.0;
  if (crossing > 0) bw = 1.0 / ((1 - crossing) / bw + crossing / (hw.internode_gbs * 1e9 * hw.efficiency.link));
  return hw.efficiency.all_reduce_base + model_seconds(bytes / bw);
}

}  // namespace servebench::sim
