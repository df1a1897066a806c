#include "servebench/sim/pd_router_metrics.hpp"

#include <algorithm>
#include <cmath>

#include "servebench/wire/metric_names.hpp"

namespace servebench::sim {
namespace {

double total(std::span<const std::vector<wire::Sample>> parts, std::string_view name) {
  double sum = 0;
  for (const auto& samples : parts) sum += wire::sum_metric(samples, name).value_or(0);
  return sum;
}

std::int64_t count(std::span<const std::vector<wire::Sample>> parts, std::string_view name) {
  return std::llround(total(parts, name));
}

}  // namespace

ServerStats router_stats(std::span<const std::vector<wire::Sample>> prefill,
                         std::span<const std::vector<wire::Sample>> decode, std::int64_t in_flight) {
  namespace metric = wire::sglang_metric;
  ServerStats s;
  EngineCounters& c = s.counters;
  c.prompt_tokens_total = count(prefill, metric::k_prompt_tokens_total);
  c.cached_tokens_total = count(prefill, metric::k_cached_tokens_total);
  c.generation_tokens_total = count(decode, metric::k_generation_tokens_total);
  c.requests_finished_total = count(decode, metric::k_num_requests_total);
  c.spec_verify_steps_total = count(decode, metric::k_spec_verify_ct_total);
  c.spec_accepted_tokens_total = count(decode, metric::k_spec_accepted_tokens_total);
  c.retractions_total = count(prefill, metric::k_num_retracted_reqs_total) + count(decode, metric::k_num_retracted_reqs_total);
  c.kv_transfers_total = count(decode, metric::k_kv_transfers_total);
  c.kv_transfer_tokens_total = count(decode, metric::k_kv_transfer_tokens_total);
  c.kv_transfer_ns_total = std::llround(total(decode, metric::k_kv_transfer_seconds_total) * 1e9);
  c.running = count(prefill, metric::k_num_running_reqs) + count(decode, metric::k_num_running_reqs);
  c.queued = count(prefill, metric::k_num_queue_reqs) + count(decode, metric::k_num_queue_reqs);
  c.queued += std::max<std::int64_t>(0, in_flight - c.running - c.queued);
  c.used_tokens = count(decode, metric::k_num_used_tokens);
  c.max_total_num_tokens = count(decode, metric::k_max_total_num_tokens);
  c.token_usage = c.max_total_num_tokens > 0 ? static_cast<double>(c.used_tokens) / c.max_total_num_tokens : 0;
  s.gen_throughput = total(decode, metric::k_gen_throughput);
  s.accept_length = decode.empty() ? 0 : wire::sum_metric(decode.front(), metric::k_spec_accept_length).value_or(0);
  s.ready = true;
  return s;
}

}  // namespace servebench::sim
