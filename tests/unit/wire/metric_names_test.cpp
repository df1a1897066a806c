#include "servebench/wire/metric_names.hpp"

#include <array>
#include <set>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "servebench/wire/prometheus.hpp"
#include "support/fixture.hpp"

namespace servebench::wire {
namespace {

namespace metric = sglang_metric;
using testing::read_fixture;

constexpr std::array k_all{
    metric::k_prompt_tokens_total,  metric::k_cached_tokens_total,      metric::k_generation_tokens_total,
    metric::k_num_requests_total,   metric::k_num_retracted_reqs_total, metric::k_spec_verify_ct_total,
    metric::k_spec_accepted_tokens_total, metric::k_num_running_reqs,   metric::k_num_queue_reqs,
    metric::k_num_used_tokens,      metric::k_token_usage,              metric::k_max_total_num_tokens,
    metric::k_gen_throughput,       metric::k_spec_accept_length,
};

TEST(SglangMetricNames, AreDistinctAndParseBackFromExpositionText) {
  std::string text;
  for (std::size_t i = 0; i < k_all.size(); ++i) {
    fmt::format_to(std::back_inserter(text), "{}{{model_name=\"m\"}} {}\n", k_all[i], i + 1);
  }
  const auto samples = parse_prometheus(text);
  ASSERT_EQ(samples.size(), k_all.size());
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < k_all.size(); ++i) {
    EXPECT_TRUE(k_all[i].starts_with("sglang:")) << k_all[i];
    EXPECT_TRUE(seen.insert(k_all[i]).second) << k_all[i];
    EXPECT_EQ(samples[i].name, k_all[i]);
    EXPECT_EQ(sum_metric(samples, k_all[i]), static_cast<double>(i + 1)) << k_all[i];
  }
}

// The hand-written fixtures stand for SGLang's /metrics and the simulator's contract: every name
// the adapters read must appear there with this spelling.
TEST(SglangMetricNames, MatchTheSglangAndSimulatorFixtures) {
  const auto sglang = parse_prometheus(read_fixture("engines/sglang_metrics.prom"));
  for (const auto name : {metric::k_prompt_tokens_total, metric::k_cached_tokens_total,
                          metric::k_generation_tokens_total, metric::k_num_running_reqs, metric::k_num_queue_reqs,
                          metric::k_spec_accept_length}) {
    EXPECT_TRUE(sum_metric(sglang, name)) << name;
  }
  const auto sim = parse_prometheus(read_fixture("engines/sim_metrics.prom"));
  EXPECT_EQ(sum_metric(sim, metric::k_spec_verify_ct_total), 250);
  EXPECT_EQ(sum_metric(sim, metric::k_spec_accepted_tokens_total), 750);
}

}  // namespace
}  // namespace servebench::wire
