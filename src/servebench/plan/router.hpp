#pragma once
// The router in front of `plan --replicas N`: which replica of a fleet of identical engines a
// request goes to, decided when the request is sent, from what a real router can see — the
// requests it has in flight per replica and the prompts it sent each one, never the engines'
// caches (docs/plan.md "Replicas and routing").
//   round-robin        replicas in turn;
//   least-outstanding  the replica with the fewest requests in flight (the lowest index on a tie);
//   prefix-aware       the replica whose past prompts share the longest prefix with this one, when
//                      that prefix is at least half the prompt and the fleet is not out of balance;
//                      else the least-outstanding replica (the policy of SGLang's cache-aware router).
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::plan {

enum class RouterKind { round_robin, least_outstanding, prefix_aware };
std::string_view to_string(RouterKind k);
// "round-robin" | "least-outstanding" | "prefix-aware"; fails (bad_input) listing them.
util::Result<RouterKind> parse_router(std::string_view text);

struct RouteDecision {
  int replica = 0;
  std::string_view reason;          // "round-robin", "least-outstanding", "prefix", "balance" (static text)
  std::int64_t matched_tokens = 0;  // prefix-aware: the prefix the chosen replica was sent before (tokens)
};

class Router {
 public:
  static constexpr std::int64_t k_block_tokens = 16;          // prefixes are matched in whole blocks
  static constexpr double k_match_threshold = 0.5;            // of the prompt, to follow the prefix
  static constexpr std::int64_t k_balance_abs = 32;           // in-flight gap that overrides the prefix …
  static constexpr double k_balance_rel = 1.5;                // … when the busiest also has 1.5× the idlest's
  static constexpr std::size_t k_max_blocks = std::size_t{1} << 20;  // per replica; then its table restarts

  Router(RouterKind kind, int replicas);

  // Where a request with `prompt` goes, given each replica's requests in flight (size = replicas).
  // Prefix-aware also remembers the prompt as sent to the chosen replica.
  RouteDecision route(std::span<const std::int32_t> prompt, std::span<const std::int64_t> outstanding);
  // The engines' caches were flushed: forget every prompt sent.
  void reset();

  RouterKind kind() const { return m_kind; }
  int replicas() const { return m_replicas; }

 private:
  int least_outstanding(std::span<const std::int64_t> outstanding) const;
  // Prefix hashes of the prompt's whole blocks (m_hashes[k] = the first k + 1 blocks).
  void hash_blocks(std::span<const std::int32_t> prompt);

  RouterKind m_kind;
  int m_replicas;
  int m_next = 0;                                                  // round-robin
  std::vector<std::unordered_set<std::uint64_t>> m_sent;  // prefix-aware: block hashes per replica
  std::vector<std::uint64_t> m_hashes;
  std::vector<std::int64_t> m_matched;  // tokens, per replica, of the request being routed
};

}  // namespace servebench::plan
