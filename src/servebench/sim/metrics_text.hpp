#pragma once
// GET /metrics: the simulator's counters in Prometheus text format under SGLang's names, plus
// exact speculative-decoding counters SGLang lacks (names in docs/sim.md; the engines module's sim adapter reads
// them). One label set per metric ({model_name="..."}), so sums over label sets stay exact.
#include <string>
#include <string_view>

#include "servebench/sim/server_stats.hpp"

namespace servebench::sim {

// Appends the exposition text (HELP, TYPE and one sample per metric) to `out`.
void append_metrics_text(std::string& out, const ServerStats& stats, std::string_view model_name);

}  // namespace servebench::sim
