#pragma once
// The KV transfer of prefill/decode disaggregation (docs/sim.md "Disaggregation: the KV transfer"):
// after a prefill server has computed a prompt, the prompt's KV crosses the link between the two
// servers into the decode server's pool. From first principles:
//   time(n tokens) = latency + n · bytes per token per GPU / (internode_gbs · link efficiency)
// Every decode GPU receives its own shard (its TP share of its pipeline stage's layers; MLA's latent
// is replicated, so each TP rank receives all of it) over its own NIC, all GPUs in parallel; the
// latency is three inter-node hops (the decode side names its free KV pages, the RDMA write, the
// completion notice). Transfers into one decode server share its NICs: they queue (KvTransferLink).
#include <chrono>
#include <cstdint>

#include "servebench/sim/deployment.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::sim {

inline constexpr int k_transfer_latency_hops = 3;

struct KvTransferModel {
  double bytes_per_token = 0;          // the whole model's KV of one token: every layer (+ DSA index keys)
  double bytes_per_token_per_gpu = 0;  // what one decode GPU receives per token
  int gpus = 1;                        // decode GPUs receiving in parallel, one NIC each
  double link_bytes_per_s = 0;         // per GPU and direction: internode_gbs × link efficiency
  std::chrono::nanoseconds latency{0};
  bool moves_bytes = true;             // false for the `fake` backend: no transfer, no time
  // The link time of `tokens` tokens (without the latency); zero when no bytes move.
  std::chrono::nanoseconds wire_time(std::int64_t tokens) const;
  // latency + wire_time: one transfer on an idle link.
  std::chrono::nanoseconds time(std::int64_t tokens) const;
};

// The transfer into the decode server `decode` (its cards, KV dtype and parallelism).
KvTransferModel kv_transfer_model(const Deployment& decode);

// The decode server's receiving link on the virtual clock: transfers take it one after another,
// each at the full bandwidth, and each adds its latency after its last byte.
class KvTransferLink {
 public:
  explicit KvTransferLink(KvTransferModel model) : m_model(model) {}
  // A transfer of `tokens` tokens that may start at `start`: when its KV has arrived.
  util::TimePoint arrival(util::TimePoint start, std::int64_t tokens);
  const KvTransferModel& model() const { return m_model; }

 private:
  KvTransferModel m_model;
  util::TimePoint m_free{};  // when the link finishes what it already carries
};

}  // namespace servebench::sim
