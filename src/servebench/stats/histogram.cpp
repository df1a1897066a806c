#include "servebench/stats/histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace servebench::stats {

Histogram::Histogram(int sub_buckets_log2) : m_sub_log2(sub_buckets_log2) {
  SB_CHECK(sub_buckets_log2 >= 1 && sub_buckets_log2 <= 16);
  // Values below 2^sub are exact; each octave above has 2^sub equal-width buckets.
  m_counts.assign(static_cast<std::size_t>(64 - m_sub_log2 + 1) << m_sub_log2, 0);
}

std::size_t Histogram::index_of(std::uint64_t value) const {
  const std::uint64_t sub = std::uint64_t{1} << m_sub_log2;
  if (value < sub) return static_cast<std::size_t>(value);
  const int msb = 63 - std::countl_zero(value);       // >= m_sub_log2
  const int shift = msb - m_sub_log2;                  // how many low bits are dropped
  const std::uint64_t mantissa = (value >> shift) - sub;  // in [0, sub)
  return static_cast<std::size_t>((static_cast<std::uint64_t>(shift + 1) << m_sub_log2) + mantissa);
}

std::uint64_t Histogram::value_of(std::size_t index) const {
  const std::uint64_t sub = std::uint64_t{1} << m_sub_log2;
  if (index < sub) return index;
  const std::uint64_t shift = (index >> m_sub_log2) - 1;
  const std::uint64_t mantissa = index & (sub - 1);
  const std::uint64_t low = (sub + mantissa) << shift;
  const std::uint64_t width = std::uint64_t{1} << shift;
  return low + width / 2;  // bucket midpoint
}

void Histogram::record(std::uint64_t value, std::uint64_t count) {
  m_counts[index_of(value)] += count;
  m_count += count;
  m_sum += static_cast<long double>(value) * count;
  m_min = std::min(m_min, value);
  m_max = std::max(m_max, value);
}

void Histogram::merge(const Histogram& other) {
  SB_CHECK(other.m_sub_log2 == m_sub_log2);
  for (std::size_t i = 0; i < m_counts.size(); ++i) m_counts[i] += other.m_counts[i];
  m_count += other.m_count;
  m_sum += other.m_sum;
  m_min = std::min(m_min, other.m_min);
  m_max = std::max(m_max, other.m_max);
}

double Histogram::mean() const { return m_count ? static_cast<double>(m_sum / m_count) : std::nan(""); }

double Histogram::percentile(double p) const {
  if (m_count == 0) return std::nan("");
  p = std::clamp(p, 0.0, 100.0);
  auto rank = static_cast<std::uint64_t>(std::ceil(p * static_cast<double>(m_count) / 100.0 - 1e-9));
  rank = std::clamp<std::uint64_t>(rank, 1, m_count);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < m_counts.size(); ++i) {
    seen += m_counts[i];
    if (seen >= rank) {
      const auto v = std::clamp(value_of(i), m_min, m_max);
      return static_cast<double>(v);
    }
  }
  return static_cast<double>(m_max);
}

}  // namespace servebench::stats
