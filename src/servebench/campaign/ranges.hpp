#pragma once
// The documented range of every numeric campaign-file value (docs/campaign-file.md, the "range"
// columns), in one place. Values outside them would be accepted by the types and then allocate,
// overflow or wait for years once an arm runs; the reader refuses them at load time instead.
#include <cstdint>

namespace servebench::campaign::ranges {

inline constexpr std::int64_t k_max_tokens = 10'000'000;        // isl, osl and every length key of a scenario
inline constexpr std::int64_t k_max_concurrency = 100'000;      // scenarios[].concurrency (load::Setting::max_concurrency)
inline constexpr std::int64_t k_max_point_tokens = 1'000'000'000;  // isl × requests of one point (4 GB of token ids)
inline constexpr std::int64_t k_max_requests = 10'000'000;      // requests of one point (load::Setting::num_prompts)
inline constexpr std::int64_t k_max_groups = 100'000;           // groups, prompts_per_group
inline constexpr std::int64_t k_max_turns = 1000;
inline constexpr std::int64_t k_max_gpus = 4096;
inline constexpr std::int64_t k_max_ready_timeout_s = 604'800;  // a week
inline constexpr std::int64_t k_max_stop_timeout_s = 3600;
inline constexpr std::int64_t k_max_interval_s = 86'400;
inline constexpr std::int64_t k_max_seed = INT64_MAX;
inline constexpr double k_max_temperature = 100;
inline constexpr std::int64_t k_max_gate_tokens = 1'000'000;

}  // namespace servebench::campaign::ranges
