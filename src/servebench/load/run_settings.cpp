#include "servebench/load/run_settings.hpp"

#include <fmt/format.h>

namespace servebench::load {

const SettingNames k_bench_flags{"--num-prompts", "--warmup-requests", "--max-concurrency", "--request-rate",
                                 "--burstiness",   "--threads",         "--max-client-lag",  "--request-timeout",
                                 "--stall-timeout"};
const SettingNames k_campaign_keys{"protocol.num_prompts",       "protocol.warmup_requests",
                                   "scenarios[].concurrency",    "scenarios[].request_rate",
                                   "burstiness",                 "threads",
                                   "protocol.client_lag_limit", "protocol.request.timeout_s",
                                   "protocol.request.stall_timeout_s"};

namespace {

// Upper bounds: beyond them a run cannot be meant (10^9 connections, a week-long timeout) and
// would fail later with an allocation failure or an overflow instead of a message.
double upper_bound(Setting s) {
  switch (s) {
    case Setting::num_prompts: return 10'000'000;
    case Setting::warmup_requests: return 1'000'000;
    case Setting::max_concurrency: return 100'000;
    case Setting::request_rate: return 1e9;
    case Setting::burstiness: return 1000;
    case Setting::threads: return 1024;
    case Setting::client_lag_limit: return 1000;
    case Setting::request_timeout:
    case Setting::stall_timeout: return 604'800;
  }
  return 0;
}

}  // namespace

std::optional<std::string> setting_problem(Setting s, double value, const SettingNames& names) {
  const std::string_view name = names[static_cast<std::size_t>(s)];
  if (value > upper_bound(s)) return fmt::format("{} must be at most {}", name, upper_bound(s));
  switch (s) {
    case Setting::warmup_requests:
    case Setting::threads:
    case Setting::request_timeout:
    case Setting::stall_timeout:
      if (!(value >= 0)) return fmt::format("{} must not be negative", name);
      return std::nullopt;
    case Setting::request_rate:
      if (!(value > 0)) return fmt::format("{} must be positive or inf", name);
      return std::nullopt;
    case Setting::num_prompts:
    case Setting::max_concurrency:
    case Setting::burstiness:
    case Setting::client_lag_limit:
      if (!(value > 0)) return fmt::format("{} must be positive", name);
      return std::nullopt;
  }
  return std::nullopt;
}

util::Result<void> check_settings(const RunSettings& s, const SettingNames& names) {
  const std::pair<Setting, std::optional<double>> values[] = {
      {Setting::num_prompts, static_cast<double>(s.num_prompts)},
      {Setting::warmup_requests, static_cast<double>(s.warmup_requests)},
      {Setting::max_concurrency, s.max_concurrency ? std::optional<double>(static_cast<double>(*s.max_concurrency)) : std::nullopt},
      {Setting::request_rate, s.request_rate},
      {Setting::burstiness, s.burstiness},
      {Setting::threads, static_cast<double>(s.threads)},
      {Setting::client_lag_limit, s.client_lag_limit},
      {Setting::request_timeout, std::chrono::duration<double>(s.request_timeout).count()},
      {Setting::stall_timeout, std::chrono::duration<double>(s.stall_timeout).count()},
  };
  for (const auto& [setting, value] : values) {
    if (!value) continue;  // not set: no cap, no rate
    if (auto problem = setting_problem(setting, *value, names)) return util::fail(util::ErrorKind::bad_input, *problem);
  }
  return {};
}

}  // namespace servebench::load
