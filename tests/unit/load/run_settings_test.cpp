#include "servebench/load/run_settings.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

RunSettings good() {
  RunSettings s;
  s.num_prompts = 10;
  s.max_concurrency = 4;
  s.request_rate = 2.5;
  return s;
}

std::string problem(const RunSettings& s, const SettingNames& names) {
  auto ok = check_settings(s, names);
  if (ok) return "";
  EXPECT_EQ(ok.error().kind, util::ErrorKind::bad_input);
  return ok.error().message;
}

TEST(RunSettings, ValidSettingsPassAndUnsetOnesAreNotChecked) {
  EXPECT_EQ(problem(good(), k_bench_flags), "");
  RunSettings open = good();
  open.max_concurrency.reset();
  open.request_rate.reset();
  EXPECT_EQ(problem(open, k_bench_flags), "");
}

TEST(RunSettings, AViolationIsNamedInTheCallersLanguage) {
  RunSettings s = good();
  s.client_lag_limit = 0;
  EXPECT_EQ(problem(s, k_bench_flags), "--max-client-lag must be positive");
  EXPECT_EQ(problem(s, k_campaign_keys), "protocol.client_lag_limit must be positive");
  s = good();
  s.warmup_requests = -1;
  EXPECT_EQ(problem(s, k_bench_flags), "--warmup-requests must not be negative");
  EXPECT_EQ(problem(s, k_campaign_keys), "protocol.warmup_requests must not be negative");
  s = good();
  s.request_timeout = std::chrono::seconds(-1);
  EXPECT_EQ(problem(s, k_campaign_keys), "protocol.request.timeout_s must not be negative");
}

TEST(RunSettings, EachRuleHoldsAtItsBoundary) {
  const auto p = [](Setting s, double v) { return setting_problem(s, v, k_bench_flags).value_or(""); };
  EXPECT_EQ(p(Setting::num_prompts, 0), "--num-prompts must be positive");
  EXPECT_EQ(p(Setting::num_prompts, 1), "");
  EXPECT_EQ(p(Setting::max_concurrency, 0), "--max-concurrency must be positive");
  EXPECT_EQ(p(Setting::request_rate, 0), "--request-rate must be positive or inf");
  EXPECT_EQ(p(Setting::burstiness, -0.5), "--burstiness must be positive");
  EXPECT_EQ(p(Setting::threads, 0), "");
  EXPECT_EQ(p(Setting::threads, -1), "--threads must not be negative");
  EXPECT_EQ(p(Setting::request_timeout, 0), "");
  EXPECT_EQ(p(Setting::client_lag_limit, 0.01), "");
}

TEST(RunSettings, AbsurdlyLargeOrNanValuesAreRejected) {
  const auto p = [](Setting s, double v) { return setting_problem(s, v, k_bench_flags).value_or(""); };
  EXPECT_EQ(p(Setting::max_concurrency, 1e9), "--max-concurrency must be at most 100000");
  EXPECT_EQ(p(Setting::max_concurrency, 100'000), "");
  EXPECT_EQ(p(Setting::num_prompts, 1e12), "--num-prompts must be at most 10000000");
  EXPECT_EQ(p(Setting::request_rate, 1e300), "--request-rate must be at most 1000000000");
  EXPECT_EQ(p(Setting::burstiness, std::nan("")), "--burstiness must be positive");
  EXPECT_EQ(p(Setting::request_timeout, 1e18), "--request-timeout must be at most 604800");
}

}  // namespace
}  // namespace servebench::load
