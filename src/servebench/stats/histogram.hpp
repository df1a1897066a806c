#pragma once
// A mergeable log-linear histogram for long runs where keeping every sample is too much:
// bounded memory, relative error <= 1 / (2 * sub_buckets) on every recorded value, exact count,
// sum, min and max. Per-thread histograms are merged after the run (wrk's habit).
#include <cstdint>
#include <vector>

#include "servebench/stats/summary.hpp"

namespace servebench::stats {

class Histogram {
 public:
  // Values are non-negative integers (e.g. microseconds); sub_buckets_log2 sets precision
  // (7 -> 128 sub-buckets per power of two, <= 0.4 % error).
  explicit Histogram(int sub_buckets_log2 = 7);

  void record(std::uint64_t value, std::uint64_t count = 1);
  // Adds another histogram's counts; both must have the same precision (SB_CHECK).
  void merge(const Histogram& other);

  std::uint64_t count() const { return m_count; }
  std::uint64_t min() const { return m_count ? m_min : 0; }
  std::uint64_t max() const { return m_max; }
  double mean() const;
  // Percentile (0..100) by nearest rank over the bucket midpoints, clamped to [min, max].
  double percentile(double p) const;

 private:
  std::size_t index_of(std::uint64_t value) const;
  std::uint64_t value_of(std::size_t index) const;

  int m_sub_log2;
  std::vector<std::uint64_t> m_counts;
  std::uint64_t m_count = 0;
  long double m_sum = 0;
  std::uint64_t m_min = UINT64_MAX;
  std::uint64_t m_max = 0;
};

}  // namespace servebench::stats
