#pragma once
// Deterministic randomness for the simulator: SplitMix64 mixing (Steele et al., 2014) so every draw is
// a pure function of its inputs (seed, request, position) and never of the order draws are made in.
#include <array>
#include <cstdint>

namespace servebench::sim {

constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

constexpr std::uint64_t mix64(std::uint64_t a, std::uint64_t b) { return mix64(a ^ mix64(b)); }

// mix64(i) for a position i (an output token's index): small positions come from a table made at
// compile time, so a per-token draw costs one mix64 instead of two.
inline constexpr std::size_t k_position_table = 4096;
inline constexpr std::array<std::uint64_t, k_position_table> k_position_mix = [] {
  std::array<std::uint64_t, k_position_table> t{};
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = mix64(i);
  return t;
}();
constexpr std::uint64_t position_mix(std::uint64_t i) { return i < k_position_table ? k_position_mix[i] : mix64(i); }

// A uniform double in [0, 1) from 53 bits of `h`.
constexpr double unit_interval(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-53; }

// A sequential generator (per request stream), cheap to copy and to seed.
class SeededRng {
 public:
  explicit constexpr SeededRng(std::uint64_t seed) : m_state(seed) {}
  constexpr std::uint64_t next() { return mix64(m_state++); }
  constexpr double uniform() { return unit_interval(next()); }

 private:
  std::uint64_t m_state;
};

}  // namespace servebench::sim
