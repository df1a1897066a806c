#include "servebench/plan/router.hpp"

#include <algorithm>

namespace servebench::plan {

std::string_view to_string(RouterKind k) {
  switch (k) {
    case RouterKind::round_robin: return "round-robin";
    case RouterKind::least_outstanding: return "least-outstanding";
    case RouterKind::prefix_aware: return "prefix-aware";
  }
  return "round-robin";
}

util::Result<RouterKind> parse_router(std::string_view text) {
  for (const auto k : {RouterKind::round_robin, RouterKind::least_outstanding, RouterKind::prefix_aware}) {
    if (text == to_string(k)) return k;
  }
  return util::failf(util::ErrorKind::bad_input,
                     "--router '{}': expected round-robin, least-outstanding or prefix-aware", text);
}

Router::Router(RouterKind kind, int replicas) : m_kind(kind), m_replicas(replicas) {
  SB_CHECK(replicas >= 1);
  if (kind == RouterKind::prefix_aware) m_sent.resize(static_cast<std::size_t>(replicas));
}

void Router::reset() {
  for (auto& s : m_sent) s.clear();
  m_next = 0;
}

int Router::least_outstanding(std::span<const std::int64_t> outstanding) const {
  return static_cast<int>(std::min_element(outstanding.begin(), outstanding.end()) - outstanding.begin());
}

void Router::hash_blocks(std::span<const std::int32_t> prompt) {
  m_hashes.clear();
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::size_t i = 0; i < prompt.size(); ++i) {
    h = (h ^ static_cast<std::uint32_t>(prompt[i])) * 0x100000001b3ULL;
    h ^= h >> 29;
    if ((i + 1) % k_block_tokens == 0) m_hashes.push_back(h);
  }
}

RouteDecision Router::route(std::span<const std::int32_t> prompt, std::span<const std::int64_t> outstanding) {
  SB_CHECK(outstanding.size() == static_cast<std::size_t>(m_replicas));
  if (m_kind == RouterKind::round_robin) {
    const int r = m_next;
    m_next = (m_next + 1) % m_replicas;
    return {r, "round-robin", 0};
  }
  const int idlest = least_outstanding(outstanding);
  if (m_kind == RouterKind::least_outstanding) return {idlest, "least-outstanding", 0};
  hash_blocks(prompt);
  // The prefix each replica was sent before, in whole blocks; the longest wins, on a tie the replica
  // with fewer requests in flight.
  m_matched.assign(static_cast<std::size_t>(m_replicas), 0);
  int best = idlest;
  for (int r = 0; r < m_replicas; ++r) {
    const auto& sent = m_sent[static_cast<std::size_t>(r)];
    std::size_t k = 0;
    while (k < m_hashes.size() && sent.contains(m_hashes[k])) ++k;
    m_matched[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(k) * k_block_tokens;
    const auto b = static_cast<std::size_t>(best);
    if (m_matched[static_cast<std::size_t>(r)] > m_matched[b] ||
        (m_matched[static_cast<std::size_t>(r)] == m_matched[b] && outstanding[static_cast<std::size_t>(r)] < outstanding[b])) {
      best = r;
    }
  }
  const auto busiest = *std::max_element(outstanding.begin(), outstanding.end());
  const auto least = outstanding[static_cast<std::size_t>(idlest)];
  const bool imbalanced =
      busiest - least > k_balance_abs && static_cast<double>(busiest) > k_balance_rel * static_cast<double>(least);
  const bool follows = !prompt.empty() && static_cast<double>(m_matched[static_cast<std::size_t>(best)]) >=
                                              k_match_threshold * static_cast<double>(prompt.size());
  RouteDecision d{idlest, imbalanced ? "balance" : "least-outstanding", 0};
  if (follows && !imbalanced) d = {best, "prefix", 0};
  d.matched_tokens = m_matched[static_cast<std::size_t>(d.replica)];
  auto& sent = m_sent[static_cast<std::size_t>(d.replica)];
  if (sent.size() + m_hashes.size() > k_max_blocks) sent.clear();  // bounded memory: the table restarts
  sent.insert(m_hashes.begin(), m_hashes.end());
  return d;
}

}  // namespace servebench::plan
