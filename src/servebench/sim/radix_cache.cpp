#include "servebench/sim/radix_cache.hpp"

#include <algorithm>
#include <cstring>

#include "servebench/sim/seeded_rng.hpp"
#include "servebench/util/result.hpp"

namespace servebench::sim {

RadixCache::RadixCache(int page_size, std::int64_t host_capacity_tokens)
    : m_page(page_size), m_host_capacity(host_capacity_tokens) {
  SB_CHECK(page_size >= 1);
  flush(FlushScope::everything);
}

std::uint64_t RadixCache::page_hash(std::span<const std::int32_t> page) const {
  std::uint64_t h = 0x70616765ULL;
  for (std::int32_t t : page) h = mix64(h ^ static_cast<std::uint32_t>(t));
  return h;
}

std::uint64_t RadixCache::child_key(std::int32_t parent, std::span<const std::int32_t> first_page) const {
  return mix64(static_cast<std::uint64_t>(parent), page_hash(first_page.first(static_cast<std::size_t>(m_page))));
}

std::int32_t RadixCache::find_child(std::int32_t parent, std::span<const std::int32_t> rest) const {
  if (rest.size() < static_cast<std::size_t>(m_page)) return -1;
  const auto it = m_children.find(child_key(parent, rest));
  return it == m_children.end() ? -1 : it->second;
}

std::size_t RadixCache::common_pages(const Node& n, std::span<const std::int32_t> rest) const {
  const std::size_t limit = std::min(n.key.size(), rest.size());
  constexpr std::size_t k_block = 64;  // whole blocks by memcmp (vectorized), then token by token
  std::size_t i = 0;
  while (i + k_block <= limit && std::memcmp(n.key.data() + i, rest.data() + i, k_block * sizeof(std::int32_t)) == 0)
    i += k_block;
  while (i < limit && n.key[i] == rest[i]) ++i;
  return i - i % static_cast<std::size_t>(m_page);
}

void RadixCache::refresh(std::int32_t id) {
  if (id == 0) return;
  Node& n = m_nodes[static_cast<std::size_t>(id)];
  const bool dev = n.alive && n.on_device && n.lock_ref == 0 && n.device_children == 0;
  const bool host = n.alive && n.on_host && n.host_children == 0;
  if (n.in_device_set && (!dev || n.set_stamp != n.last_access)) m_device_lru.erase({n.set_stamp, id});
  if (n.in_host_set && (!host || n.set_stamp != n.last_access)) m_host_lru.erase({n.set_stamp, id});
  n.in_device_set = n.in_device_set && dev && n.set_stamp == n.last_access;
  n.in_host_set = n.in_host_set && host && n.set_stamp == n.last_access;
  n.set_stamp = n.last_access;
  if (dev && !n.in_device_set) n.in_device_set = m_device_lru.insert({n.last_access, id}).second;
  if (host && !n.in_host_set) n.in_host_set = m_host_lru.insert({n.last_access, id}).second;
}

void RadixCache::touch(std::int32_t id) {
  m_nodes[static_cast<std::size_t>(id)].last_access = ++m_clock;
  refresh(id);
}

std::int32_t RadixCache::alloc() {
  if (m_free.empty()) {
    m_nodes.emplace_back();
    return static_cast<std::int32_t>(m_nodes.size() - 1);
  }
  const std::int32_t id = m_free.back();
  m_free.pop_back();
  Node& n = m_nodes[static_cast<std::size_t>(id)];
  std::vector<std::int32_t> key = std::move(n.key);  // a freed node's key storage serves the next
  n = Node{};
  n.key = std::move(key);
  n.key.clear();
  return id;
}

std::int32_t RadixCache::new_node(std::int32_t parent, std::span<const std::int32_t> key, bool on_device,
                                  bool on_host) {
  const std::int32_t id = alloc();
  Node& n = m_nodes[static_cast<std::size_t>(id)];
  n.key.assign(key.begin(), key.end());
  n.parent = parent;
  n.alive = true;
  n.last_access = ++m_clock;
  m_children[child_key(parent, key)] = id;
  m_nodes[static_cast<std::size_t>(parent)].children += 1;
  if (on_device) set_device(id, true);
  if (on_host) set_host(id, true);
  refresh(id);
  return id;
}

std::int32_t RadixCache::split(std::int32_t id, std::size_t at) {
  // `mid` takes the first `at` tokens and the place of `id` under the same parent (same first page).
  const std::int32_t mid = alloc();
  Node& n = m_nodes[static_cast<std::size_t>(id)];
  Node& m = m_nodes[static_cast<std::size_t>(mid)];
  m.alive = true;
  m.parent = n.parent;
  m.key.assign(n.key.begin(), n.key.begin() + static_cast<std::ptrdiff_t>(at));
  m.lock_ref = n.lock_ref;
  m.on_device = n.on_device;
  m.on_host = n.on_host;
  m.last_access = n.last_access;
  m.children = 1;
  m.device_children = n.on_device ? 1 : 0;
  m.host_children = n.on_host ? 1 : 0;
  m_children[child_key(n.parent, m.key)] = mid;
  n.key.erase(n.key.begin(), n.key.begin() + static_cast<std::ptrdiff_t>(at));
  n.parent = mid;
  m_children[child_key(mid, n.key)] = id;
  refresh(mid);
  refresh(id);
  return mid;
}

void RadixCache::set_device(std::int32_t id, bool on) {
  Node& n = m_nodes[static_cast<std::size_t>(id)];
  if (n.on_device == on) return;
  const auto size = static_cast<std::int64_t>(n.key.size());
  const std::int64_t sign = on ? 1 : -1;
  n.on_device = on;
  m_device_tokens += sign * size;
  if (n.lock_ref == 0) m_evictable_tokens += sign * size;
  m_nodes[static_cast<std::size_t>(n.parent)].device_children += static_cast<std::int32_t>(sign);
  refresh(id);
  refresh(n.parent);
}

bool RadixCache::set_host(std::int32_t id, bool on) {
  Node& n = m_nodes[static_cast<std::size_t>(id)];
  if (n.on_host == on) return true;
  const auto size = static_cast<std::int64_t>(n.key.size());
  if (on) {
    // Host copies form a rooted subtree, so a host child never outlives its parent's copy.
    const Node& parent = m_nodes[static_cast<std::size_t>(n.parent)];
    if (m_host_capacity < size || !(n.parent == 0 || parent.on_host)) return false;
    evict_host(size, id);
    if (m_host_capacity - m_host_tokens < size) return false;
  }
  Node& node = m_nodes[static_cast<std::size_t>(id)];
  node.on_host = on;
  m_host_tokens += on ? size : -size;
  m_nodes[static_cast<std::size_t>(node.parent)].host_children += on ? 1 : -1;
  refresh(id);
  refresh(node.parent);
  return true;
}

void RadixCache::remove(std::int32_t id) {
  Node& n = m_nodes[static_cast<std::size_t>(id)];
  SB_CHECK(!n.on_device && !n.on_host && n.children == 0);
  n.alive = false;
  refresh(id);
  m_children.erase(child_key(n.parent, n.key));
  m_nodes[static_cast<std::size_t>(n.parent)].children -= 1;
  refresh(n.parent);
  n.key.clear();  // its storage is kept for the next node (alloc)
  m_free.push_back(id);
}

void RadixCache::evict_host(std::int64_t tokens, std::int32_t keep) {
  while (m_host_capacity - m_host_tokens < tokens && !m_host_lru.empty()) {
    const std::int32_t id = m_host_lru.begin()->second;
    if (id == keep) break;
    set_host(id, false);
    if (!m_nodes[static_cast<std::size_t>(id)].on_device) remove(id);
  }
}

PrefixMatch RadixCache::match(std::span<const std::int32_t> tokens) {
  PrefixMatch m;
  std::size_t pos = 0;
  while (true) {
    const auto rest = tokens.subspan(pos);
    std::int32_t child = find_child(m.node, rest);
    if (child < 0) break;
    const std::size_t common = common_pages(m_nodes[static_cast<std::size_t>(child)], rest);
    if (common == 0) break;  // a page-hash collision, not a match
    if (common < m_nodes[static_cast<std::size_t>(child)].key.size()) child = split(child, common);
    (m_nodes[static_cast<std::size_t>(child)].on_device ? m.device_tokens : m.host_tokens) +=
        static_cast<std::int64_t>(common);
    touch(child);
    m.node = child;
    pos += common;
  }
  return m;
}

void RadixCache::lock(std::int32_t id) {
  for (; id > 0; id = m_nodes[static_cast<std::size_t>(id)].parent) {
    Node& n = m_nodes[static_cast<std::size_t>(id)];
    if (n.lock_ref++ == 0 && n.on_device) m_evictable_tokens -= static_cast<std::int64_t>(n.key.size());
    refresh(id);
  }
}

void RadixCache::unlock(std::int32_t id) {
  for (; id > 0; id = m_nodes[static_cast<std::size_t>(id)].parent) {
    Node& n = m_nodes[static_cast<std::size_t>(id)];
    SB_CHECK(n.lock_ref > 0);
    if (--n.lock_ref == 0 && n.on_device) m_evictable_tokens += static_cast<std::int64_t>(n.key.size());
    refresh(id);
  }
}

void RadixCache::load_host(PrefixMatch& m) {
  for (std::int32_t id = m.node; id > 0; id = m_nodes[static_cast<std::size_t>(id)].parent) {
    if (m_nodes[static_cast<std::size_t>(id)].on_device) break;
    set_device(id, true);
  }
  m.device_tokens += m.host_tokens;
  m.host_tokens = 0;
}

RadixCache::Inserted RadixCache::insert(std::span<const std::int32_t> tokens) {
  const std::size_t len = tokens.size() - tokens.size() % static_cast<std::size_t>(m_page);
  std::int32_t node = 0;
  std::int64_t adopted = 0;
  std::size_t pos = 0;
  while (pos < len) {
    const auto rest = tokens.subspan(pos, len - pos);
    std::int32_t child = find_child(node, rest);
    if (child < 0) {
      node = new_node(node, rest, true, m_host_capacity > 0);
      adopted += static_cast<std::int64_t>(rest.size());
      pos = len;
      break;
    }
    const std::size_t common = common_pages(m_nodes[static_cast<std::size_t>(child)], rest);
    if (common == 0) break;  // hash collision: keep the existing branch
    if (common < m_nodes[static_cast<std::size_t>(child)].key.size()) child = split(child, common);
    if (!m_nodes[static_cast<std::size_t>(child)].on_device) {
      set_device(child, true);
      adopted += static_cast<std::int64_t>(common);
    }
    touch(child);
    node = child;
    pos += common;
  }
  return {node, adopted, static_cast<std::int64_t>(pos)};
}

std::int64_t RadixCache::evict(std::int64_t tokens) {
  std::int64_t freed = 0;
  while (freed < tokens && !m_device_lru.empty()) {
    const std::int32_t id = m_device_lru.begin()->second;
    freed += static_cast<std::int64_t>(m_nodes[static_cast<std::size_t>(id)].key.size());
    set_device(id, false);
    if (m_host_capacity > 0) set_host(id, true);
    if (!m_nodes[static_cast<std::size_t>(id)].on_host) remove(id);
  }
  return freed;
}

void RadixCache::flush(FlushScope scope) {
  if (scope == FlushScope::everything || m_nodes.empty()) {
    m_nodes.assign(1, Node{});
    m_nodes[0].alive = m_nodes[0].on_device = m_nodes[0].on_host = true;
    m_free.clear();
    m_children.clear();
    m_device_lru.clear();
    m_host_lru.clear();
    m_device_tokens = m_evictable_tokens = m_host_tokens = 0;
    return;
  }
  // Keep the host subtree: drop every device copy and every node that has no host copy.
  m_device_lru.clear();
  m_host_lru.clear();
  m_device_tokens = m_evictable_tokens = 0;
  for (std::size_t i = 0; i < m_nodes.size(); ++i) {
    Node& n = m_nodes[i];
    n.children = n.device_children = n.host_children = 0;
    n.lock_ref = 0;
    n.in_device_set = n.in_host_set = false;
    if (i == 0 || !n.alive) continue;
    n.on_device = false;
    if (!n.on_host) {
      m_children.erase(child_key(n.parent, n.key));
      n.alive = false;
      n.key.clear();
      m_free.push_back(static_cast<std::int32_t>(i));
    }
  }
  for (std::size_t i = 1; i < m_nodes.size(); ++i) {
    if (!m_nodes[i].alive) continue;
    Node& parent = m_nodes[static_cast<std::size_t>(m_nodes[i].parent)];
    parent.children += 1;
    parent.host_children += 1;
  }
  for (std::size_t i = 1; i < m_nodes.size(); ++i) refresh(static_cast<std::int32_t>(i));
}

}  // namespace servebench::sim
