#include "servebench/sim/radix_cache.hpp"

#include <numeric>

#include <gtest/gtest.h>

using namespace servebench::sim;

namespace {
std::vector<std::int32_t> seq(int from, int n) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), from);
  return v;
}
}  // namespace

TEST(RadixCache, MatchesInsertedPrefixAtPageGranularity) {
  RadixCache c(4, 0);
  const auto a = seq(0, 10);
  const auto ins = c.insert(a);
  EXPECT_EQ(ins.length, 8);  // two full pages
  EXPECT_EQ(ins.adopted, 8);
  auto b = seq(0, 6);
  b.push_back(99);
  const auto m = c.match(b);
  EXPECT_EQ(m.device_tokens, 4);  // page 2 differs at its 3rd token
  EXPECT_EQ(c.device_tokens(), 8);
}

TEST(RadixCache, LockedPathsAreNotEvicted) {
  RadixCache c(1, 0);
  const auto a = seq(0, 100), b = seq(1000, 50);
  const auto na = c.insert(a), nb = c.insert(b);
  c.lock(na.node);
  EXPECT_EQ(c.evictable_tokens(), 50);
  EXPECT_EQ(c.evict(1000), 50);
  EXPECT_EQ(c.match(a).device_tokens, 100);
  EXPECT_EQ(c.match(b).device_tokens, 0);
  c.unlock(na.node);
  (void)nb;
}

TEST(RadixCache, EvictionIsLeastRecentlyUsedFirst) {
  RadixCache c(1, 0);
  const auto a = seq(0, 10), b = seq(100, 10);
  c.insert(a);
  c.insert(b);
  (void)c.match(a);  // a is now the most recent
  c.evict(5);
  EXPECT_EQ(c.match(a).device_tokens, 10);
  EXPECT_EQ(c.match(b).device_tokens, 0);
}

TEST(RadixCache, HostTierKeepsEvictedPrefixes) {
  RadixCache c(1, 1000);
  const auto a = seq(0, 64);
  c.insert(a);
  EXPECT_EQ(c.host_tokens(), 64);  // written through
  c.evict(64);
  auto m = c.match(a);
  EXPECT_EQ(m.device_tokens, 0);
  EXPECT_EQ(m.host_tokens, 64);
  c.lock(m.node);
  c.load_host(m);
  EXPECT_EQ(m.device_tokens, 64);
  EXPECT_EQ(c.device_tokens(), 64);
  c.unlock(m.node);
}

TEST(RadixCache, FlushClearsBothTiersOrKeepsTheHostTier) {
  const auto a = seq(0, 32);
  RadixCache all(1, 1000), keep(1, 1000);
  all.insert(a);
  keep.insert(a);
  all.flush(FlushScope::everything);
  keep.flush(FlushScope::device_only);
  EXPECT_EQ(all.match(a).device_tokens + all.match(a).host_tokens, 0);
  const auto m = keep.match(a);
  EXPECT_EQ(m.device_tokens, 0);
  EXPECT_EQ(m.host_tokens, 32);
  EXPECT_EQ(keep.device_tokens(), 0);
}

TEST(RadixCache, SplitKeepsTokenAccounting) {
  RadixCache c(1, 0);
  c.insert(seq(0, 20));
  auto other = seq(0, 10);
  for (int i = 0; i < 5; ++i) other.push_back(500 + i);
  const auto ins = c.insert(other);
  EXPECT_EQ(ins.adopted, 5);
  EXPECT_EQ(c.device_tokens(), 25);
  EXPECT_EQ(c.match(seq(0, 20)).device_tokens, 20);
  EXPECT_EQ(c.match(other).device_tokens, 15);
  EXPECT_EQ(c.evict(100), 25);
  EXPECT_EQ(c.device_tokens(), 0);
}
