#include "servebench/sim/kv_transfer.hpp"

#include <algorithm>
#include <cmath>

namespace servebench::sim {

std::chrono::nanoseconds KvTransferModel::wire_time(std::int64_t tokens) const {
  if (!moves_bytes || tokens <= 0 || link_bytes_per_s <= 0) return std::chrono::nanoseconds{0};
  const double seconds = static_cast<double>(tokens) * bytes_per_token_per_gpu / link_bytes_per_s;
  return std::chrono::nanoseconds(static_cast<std::int64_t>(std::ceil(seconds * 1e9)));
}

std::chrono::nanoseconds KvTransferModel::time(std::int64_t tokens) const {
  if (!moves_bytes) return std::chrono::nanoseconds{0};
  return latency + wire_time(tokens);
}

KvTransferModel kv_transfer_model(const Deployment& d) {
  const ModelCard& m = d.model;
  const MemoryPlan& mem = d.memory;
  KvTransferModel t;
  t.bytes_per_token = m.layers * (kv_elements_per_token_layer(m) * mem.kv_dtype_bytes +
                                  index_key_elements_per_token_layer(m));  // index keys are FP8: 1 B each
  // The pool's own per-GPU layout, draft KV left out: the draft's KV is not transferred (SGLang's
  // decode server runs the draft itself).
  t.bytes_per_token_per_gpu = mem.layers_per_stage * (mem.kv_bytes_per_token_layer + mem.index_bytes_per_token_layer);
  t.gpus = d.gpus();
  t.link_bytes_per_s = d.hardware.internode_gbs * 1e9 * d.hardware.efficiency.link;
  t.latency = std::chrono::nanoseconds(
      static_cast<std::int64_t>(std::llround(k_transfer_latency_hops * d.hardware.internode_latency_us * 1e3)));
  t.moves_bytes = d.config.disaggregation.moves_bytes();
  return t;
}

util::TimePoint KvTransferLink::arrival(util::TimePoint start, std::int64_t tokens) {
  if (!m_model.moves_bytes) return start;
  const util::TimePoint last_byte = std::max(start, m_free) + m_model.wire_time(tokens);
  m_free = last_byte;
  return last_byte + m_model.latency;
}

}  // namespace servebench::sim
