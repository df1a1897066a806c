#include "servebench/load/client_health.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

namespace servebench::load {
namespace {

double ns_to_ms(double ns) { return ns / 1e6; }

}  // namespace

ClientHealthReport assess_client(std::span<const RequestRecord> records, const LagHistograms& lags,
                                 const LoopLoad& loops, double median_tpot_ms, double limit_fraction,
                                 stats::PercentileMethod method) {
  ClientHealthReport h;
  std::vector<double> send_lags;
  send_lags.reserve(records.size());
  for (const RequestRecord& r : records) send_lags.push_back(util::to_ms(r.sent - r.released));
  h.send_lag_ms = stats::summarize(send_lags, method, std::vector<double>{50, 99});
  h.read_lag_p99_ms = ns_to_ms(lags.read_lag.percentile(99));
  h.read_lag_max_ms = ns_to_ms(static_cast<double>(lags.read_lag.max()));
  h.stamped_chunks = static_cast<std::int64_t>(lags.client_added.count());
  if (h.stamped_chunks > 0) {
    h.added_p50_ms = ns_to_ms(lags.client_added.percentile(50));
    h.added_p99_ms = ns_to_ms(lags.client_added.percentile(99));
  }
  h.cpu_seconds = loops.cpu_seconds;
  h.max_loop_busy = loops.max_busy;
  h.threads = loops.threads;
  const double send_p99 = records.empty() ? 0.0 : h.send_lag_ms.at(99);
  h.lag_p99_ms = std::max(send_p99, h.read_lag_p99_ms);
  if (h.max_loop_busy > k_saturated_loop_busy) {
    h.healthy = false;
    h.reason = fmt::format("an event-loop thread was busy {:.0f}% of the run: the client was saturated (use more "
                           "--threads, fewer streams, or a faster machine)",
                           h.max_loop_busy * 100);
    return h;
  }
  if (!(median_tpot_ms > 0) || !std::isfinite(median_tpot_ms)) {
    h.limit_ms = std::nan("");
    h.reason = "not gated: no request produced more than one token, so there is no TPOT to compare with";
    return h;
  }
  h.limit_ms = limit_fraction * median_tpot_ms;
  if (h.lag_p99_ms > h.limit_ms) {
    h.healthy = false;
    h.reason = fmt::format(
        "client lag p99 {:.3f} ms exceeds {:.3f} ms ({:.0f}% of the median TPOT {:.3f} ms): send lag p99 {:.3f} ms, "
        "read lag p99 {:.3f} ms; the client was a bottleneck (use more --threads, fewer streams, or a faster machine)",
        h.lag_p99_ms, h.limit_ms, limit_fraction * 100, median_tpot_ms, send_p99, h.read_lag_p99_ms);
  }
  return h;
}

}  // namespace servebench::load
