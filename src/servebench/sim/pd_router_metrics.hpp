#pragma once
// The router's /metrics: its parts' SGLang counters and gauges folded into one deployment's, written
// by the simulator's own /metrics writer (metrics_text.hpp), so the campaign's adapter reads a
// router as it reads one server. Pure; tested without sockets.
//   prompt and cached tokens: the prefill parts' (the prefix cache is theirs; a decode part matches
//     nothing, so the hit rate is the prefill side's);
//   generated tokens, finished requests, speculative counters, KV transfers, the pool and its usage,
//   generation throughput and accept length: the decode parts';
//   running and waiting requests: every part's, and waiting also counts the requests the router
//     holds that no part counts (between the hops): max(0, in flight − Σ parts' running + waiting),
//     so the deployment is idle exactly when every part is and the router holds nothing.
#include <cstdint>
#include <span>
#include <vector>

#include "servebench/sim/server_stats.hpp"
#include "servebench/wire/prometheus.hpp"

namespace servebench::sim {

ServerStats router_stats(std::span<const std::vector<wire::Sample>> prefill,
                         std::span<const std::vector<wire::Sample>> decode, std::int64_t in_flight);

}  // namespace servebench::sim
