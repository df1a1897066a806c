// The router's /metrics folds its parts' counters (docs/sim.md "Disaggregation: the router").
#include "servebench/sim/pd_router_metrics.hpp"

#include <gtest/gtest.h>

using namespace servebench;

namespace {

std::vector<wire::Sample> metric_samples(std::initializer_list<std::pair<std::string, double>> values) {
  std::vector<wire::Sample> out;
  for (const auto& [name, value] : values) out.push_back({name, {{"model_name", "m"}}, value});
  return out;
}

}  // namespace

TEST(PdRouterMetrics, PromptCountersComeFromPrefillPartsAndGenerationFromDecodeParts) {
  const std::vector<std::vector<wire::Sample>> prefill = {
      metric_samples({{"sglang:prompt_tokens_total", 1000}, {"sglang:cached_tokens_total", 10}, {"sglang:generation_tokens_total", 4}}),
      metric_samples({{"sglang:prompt_tokens_total", 500}, {"sglang:cached_tokens_total", 0}})};
  const std::vector<std::vector<wire::Sample>> decode = {metric_samples({{"sglang:prompt_tokens_total", 1500},
                                                                  {"sglang:generation_tokens_total", 400},
                                                                  {"servebench:kv_transfers_total", 4},
                                                                  {"servebench:kv_transfer_seconds_total", 0.25},
                                                                  {"sglang:max_total_num_tokens", 1000},
                                                                  {"sglang:num_used_tokens", 250}})};
  const sim::ServerStats s = sim::router_stats(prefill, decode, 0);
  EXPECT_EQ(s.counters.prompt_tokens_total, 1500);
  EXPECT_EQ(s.counters.cached_tokens_total, 10);
  EXPECT_EQ(s.counters.generation_tokens_total, 400) << "the prefill parts' first tokens are not the client's";
  EXPECT_EQ(s.counters.kv_transfers_total, 4);
  EXPECT_EQ(s.counters.kv_transfer_ns_total, 250'000'000);
  EXPECT_DOUBLE_EQ(s.counters.token_usage, 0.25);
}

TEST(PdRouterMetrics, RequestsTheRouterHoldsBetweenThePartsCountAsWaiting) {
  const std::vector<std::vector<wire::Sample>> prefill = {metric_samples({{"sglang:num_running_reqs", 1}})};
  const std::vector<std::vector<wire::Sample>> decode = {metric_samples({{"sglang:num_running_reqs", 2}, {"sglang:num_queue_reqs", 1}})};
  EXPECT_EQ(sim::router_stats(prefill, decode, 4).counters.queued, 1);  // 4 in flight, all counted by a part
  const sim::ServerStats s = sim::router_stats(prefill, decode, 6);     // two between the hops
  EXPECT_EQ(s.counters.running, 3);
  EXPECT_EQ(s.counters.queued, 3);
  EXPECT_EQ(sim::router_stats({}, {}, 0).counters.queued, 0);
}
