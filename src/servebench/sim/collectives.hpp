#pragma once
// Collectives on the deployment's links, α–β per link type (docs/sim.md "Collectives"): inside a node
// the card's scale-up link (NVLink when it has one, else PCIe), across nodes the inter-node NIC. An
// all-reduce takes the fastest algorithm the engine has for the message: the custom one-shot or
// two-shot all-reduce over NVLink up to 8 MiB (SGLang and vLLM), NCCL's ring, or a tree across nodes.
// Pure: same deployment and message -> same time.
#include <chrono>
#include <cmath>

#include "servebench/sim/deployment.hpp"

namespace servebench::sim {

// A modelled time in seconds as nanoseconds, rounded to the nearest (the model's terms are sums of
// doubles; rounding, not truncation, keeps a sum of terms from drifting down).
inline std::chrono::nanoseconds model_seconds(double s) {
  return std::chrono::nanoseconds{static_cast<std::chrono::nanoseconds::rep>(std::llround(s * 1e9))};
}

enum class AllReduceAlgorithm { one_shot, two_shot, ring, tree };

class Collectives {
 public:
  explicit Collectives(const Deployment& d);  // keeps a reference: `d` must outlive it
  explicit Collectives(Deployment&&) = delete;  // a temporary would not

  // One all-reduce of a `bytes` buffer on each of `ranks` GPUs (0 for one rank).
  std::chrono::nanoseconds all_reduce(double bytes, int ranks) const;
  AllReduceAlgorithm all_reduce_algorithm(double bytes, int ranks) const;  // the one all_reduce costs
  // One ring all-gather (or reduce-scatter) whose gathered result is `bytes`: n - 1 steps of 1/n each.
  std::chrono::nanoseconds all_gather(double bytes, int ranks) const;
  // One all-to-all in which each rank holds `bytes` spread evenly over the ranks (its own share stays):
  // every rank sends to all peers at once, so one step of latency and (n - 1)/n of the bytes.
  std::chrono::nanoseconds all_to_all(double bytes, int ranks) const;
  // Hidden states handed from one pipeline stage to the next (the average hop when stages span nodes).
  std::chrono::nanoseconds stage_send(double bytes) const;

 private:
  struct Path {
    double bytes_per_s;                 // slowest hop, derated by the card's link efficiency
    double node_bytes_per_s;            // the scale-up link inside a node, derated
    std::chrono::nanoseconds node_latency;  // α per node boundary (0 inside one node)
    int nodes;                          // nodes the group spans
    bool nvlink;                        // the scale-up link is NVLink (custom all-reduce possible)
  };
  Path path(int ranks) const;
  std::chrono::nanoseconds cost(AllReduceAlgorithm a, const Path& p, double bytes, int ranks) const;

  const Deployment& m_d;
};

}  // namespace servebench::sim
