#pragma once
// The prefix cache (SGLang RadixCache + HiCache host tier) at page granularity: a compressed radix tree
// over token ids whose nodes hold KV on the device, on the host (pinned memory), or both. Running
// requests lock their path; unlocked device leaves are evicted LRU first. With a host tier, inserted
// KV is written through to the host (SGLang's write_through policy), so a device eviction keeps a host
// copy and a later match can load it back over PCIe instead of recomputing it.
// Token counts only: the engine owns pool accounting and asks the cache to evict.
#include <cstdint>
#include <set>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace servebench::sim {

struct PrefixMatch {
  std::int64_t device_tokens = 0;  // matched prefix resident on the GPU
  std::int64_t host_tokens = 0;    // matched continuation only in the host tier
  std::int32_t node = 0;           // deepest matched node (root when nothing matched)
};

enum class FlushScope { everything, device_only };

class RadixCache {
 public:
  // host_capacity_tokens = 0: no host tier.
  RadixCache(int page_size, std::int64_t host_capacity_tokens);

  // Longest cached page-aligned prefix of `tokens`; refreshes the LRU position of the matched path.
  PrefixMatch match(std::span<const std::int32_t> tokens);
  // Pins / unpins the path from `node` to the root against eviction.
  void lock(std::int32_t node);
  void unlock(std::int32_t node);
  // Makes the host part of a (locked) match device-resident; the caller made room for m.host_tokens.
  void load_host(PrefixMatch& m);
  // Inserts the page-aligned prefix of `tokens` (whose KV the caller computed on the device). The tree
  // then holds `length` leading tokens on the device; `adopted` of them came from the caller's KV (the
  // caller's other KV for those pages duplicates what the tree already held).
  struct Inserted {
    std::int32_t node = 0;
    std::int64_t adopted = 0;
    std::int64_t length = 0;
  };
  Inserted insert(std::span<const std::int32_t> tokens);
  // Evicts unlocked device leaves, least recently used first, until `tokens` are freed or none is left.
  std::int64_t evict(std::int64_t tokens);
  // Drops cached KV: everything, or only the device copies (the host tier survives).
  void flush(FlushScope scope);

  std::int64_t device_tokens() const { return m_device_tokens; }
  std::int64_t evictable_tokens() const { return m_evictable_tokens; }
  std::int64_t host_tokens() const { return m_host_tokens; }
  int page_size() const { return m_page; }

 private:
  struct Node {
    std::vector<std::int32_t> key;
    std::int32_t parent = -1;
    std::int32_t lock_ref = 0;
    std::int32_t children = 0, device_children = 0, host_children = 0;
    bool on_device = false, on_host = false, alive = false;
    std::uint64_t last_access = 0;
    std::uint64_t set_stamp = 0;  // the last_access under which it sits in an LRU set
    bool in_device_set = false, in_host_set = false;
  };

  std::uint64_t page_hash(std::span<const std::int32_t> page) const;
  std::uint64_t child_key(std::int32_t parent, std::span<const std::int32_t> first_page) const;
  std::int32_t find_child(std::int32_t parent, std::span<const std::int32_t> rest) const;
  std::int32_t alloc();
  std::int32_t new_node(std::int32_t parent, std::span<const std::int32_t> key, bool on_device, bool on_host);
  std::int32_t split(std::int32_t node, std::size_t at);
  std::size_t common_pages(const Node& n, std::span<const std::int32_t> rest) const;
  void set_device(std::int32_t node, bool on);
  bool set_host(std::int32_t node, bool on);  // false when the host tier cannot hold it
  void remove(std::int32_t node);
  void refresh(std::int32_t node);
  void touch(std::int32_t node);
  void evict_host(std::int64_t tokens, std::int32_t keep);

  int m_page;
  std::int64_t m_host_capacity;
  std::vector<Node> m_nodes;
  std::vector<std::int32_t> m_free;
  std::unordered_map<std::uint64_t, std::int32_t> m_children;
  std::set<std::pair<std::uint64_t, std::int32_t>> m_device_lru, m_host_lru;
  std::int64_t m_device_tokens = 0, m_evictable_tokens = 0, m_host_tokens = 0;
  std::uint64_t m_clock = 0;
};

}  // namespace servebench::sim
