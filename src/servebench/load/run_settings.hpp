#pragma once
// The rules for a run's settings, written once for every caller. Each caller names the settings
// in its own language — bench's command-line flags, a campaign file's YAML keys — and a violation
// is reported under that name: "--max-concurrency must be positive" to a bench user,
// "protocol.client_lag_limit must be positive" to a campaign author.
#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "servebench/util/result.hpp"

namespace servebench::load {

enum class Setting {
  num_prompts,      // 1 ..= 10^7
  warmup_requests,  // 0 ..= 10^6
  max_concurrency,  // 1 ..= 100,000 when set
  request_rate,     // (0, 10^9] when set (unset: all due at once)
  burstiness,       // (0, 1000]
  threads,          // 0 ..= 1024 (0: one per hardware thread)
  client_lag_limit, // (0, 1000]
  request_timeout,  // 0 ..= 604,800 seconds (0: none)
  stall_timeout,    // 0 ..= 604,800 seconds (0: none)
};
inline constexpr std::size_t k_setting_count = 9;

// How a caller spells each setting, in Setting order.
using SettingNames = std::array<std::string_view, k_setting_count>;
extern const SettingNames k_bench_flags;    // "--num-prompts", "--max-concurrency", ...
extern const SettingNames k_campaign_keys;  // "protocol.num_prompts", "scenarios[].concurrency", ...

// "<name> must be positive" (or "must not be negative", "must be at most N") when `value` breaks
// the setting's rule; NaN breaks every rule.
std::optional<std::string> setting_problem(Setting s, double value, const SettingNames& names);

struct RunSettings {
  std::int64_t num_prompts = 0, warmup_requests = 0;
  std::optional<std::int64_t> max_concurrency;
  std::optional<double> request_rate;
  double burstiness = 1.0;
  int threads = 0;
  double client_lag_limit = 0.1;
  std::chrono::nanoseconds request_timeout{0};
  std::chrono::nanoseconds stall_timeout{0};
};

// The first setting that breaks its rule, as bad_input named in `names`.
util::Result<void> check_settings(const RunSettings& s, const SettingNames& names);

}  // namespace servebench::load
