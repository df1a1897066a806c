#pragma once
// RunResult → the ledger's servebench.point/1 record, so metric code lives in one place. The
// campaign fills what only it knows (cache verification and attempts, gate, prompts, server, tool)
// after this.
#include <cstdint>
#include <string>

#include "servebench/load/run_result.hpp"
#include "servebench/results/point.hpp"

namespace servebench::load {

struct PointContext {
  std::string campaign, arm, scenario;
  std::int64_t isl = 0, osl = 0, concurrency = 0;
};

// Status: `failed` when any request failed (reason counts them by kind; every request failing says
// so), else `invalid` when the client was unhealthy (reason from the health report), else `ok`.
results::PointRecord to_point_record(const RunResult& r, const PointContext& ctx);
// Mean, median, std, p90, p95, p99 and max of a summary in ms (NaN when undefined).
results::LatencyStats latency_stats(const stats::Summary& s);

}  // namespace servebench::load
