#include "servebench/load/client_health.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

namespace servebench::load {
namespace {

double ns_to_ms(double ns) { return ns / 1e6; }

// The robust p99 of a histogram, in ms (0 with fewer than k_min_lag_samples samples).
double robust_p99_ms(const stats::Histogram& h) {
  const auto n = static_cast<std::int64_t>(h.count());
  if (n < k_min_lag_samples) return 0;
  // Histogram::percentile ranks by ceil(p/100 × n); aim half a rank below the wanted one.
  const double p = 100.0 * (static_cast<double>(robust_p99_rank(n)) - 0.5) / static_cast<double>(n);
  return ns_to_ms(h.percentile(p));
}

// The send lags the gate looks at: in open loop, the opening second is left out (every stream
// opens its connection then) unless too few requests would remain.
std::vector<double> gated_send_lags(const HealthInputs& in) {
  std::vector<double> all, settled;
  for (const RequestRecord& r : in.records) {
    const double lag = util::to_ms(r.sent - r.released);
    all.push_back(lag);
    if (r.intended >= k_open_loop_settle) settled.push_back(lag);
  }
  if (in.open_loop && std::ssize(settled) >= k_min_lag_samples) return settled;
  return all;
}

std::string lag_detail(const ClientHealthReport& h) {
  return fmt::format("send lag p99 {:.3f} ms of {} requests, read lag p99 {:.3f} ms of {} reads", h.gated_send_lag_ms,
                     h.send_lag_samples, h.gated_read_lag_ms, h.read_lag_samples);
}

}  // namespace

std::int64_t robust_p99_rank(std::int64_t n) {
  SB_CHECK(n >= 2);
  const auto nearest = static_cast<std::int64_t>(std::ceil(0.99 * static_cast<double>(n) - 1e-9));
  return std::min(nearest, n - 1);
}

ClientHealthReport assess_client(const HealthInputs& in) {
  SB_CHECK(in.lags != nullptr);
  const LagHistograms& lags = *in.lags;
  ClientHealthReport h;
  std::vector<double> send_lags;
  for (const RequestRecord& r : in.records) send_lags.push_back(util::to_ms(r.sent - r.released));
  h.send_lag_ms = stats::summarize(send_lags, in.method, std::vector<double>{50, 99});
  h.read_lag_p99_ms = ns_to_ms(lags.read_lag.percentile(99));
  h.read_lag_max_ms = ns_to_ms(static_cast<double>(lags.read_lag.max()));
  h.stamped_chunks = static_cast<std::int64_t>(lags.client_added.count());
  if (h.stamped_chunks > 0) {
    h.added_p50_ms = ns_to_ms(lags.client_added.percentile(50));
    h.added_p99_ms = ns_to_ms(lags.client_added.percentile(99));
  }
  h.cpu_seconds = in.loops.cpu_seconds;
  h.max_loop_busy = in.loops.max_busy;
  h.threads = in.loops.threads;
  if (lags.floor.count() > 0) h.measured_floor_ms = ns_to_ms(lags.floor.percentile(99));
  h.noise_floor_ms = std::max(h.measured_floor_ms, k_min_noise_floor_ms);

  std::vector<double> gated = gated_send_lags(in);
  h.send_lag_samples = std::ssize(gated);
  if (h.send_lag_samples >= k_min_lag_samples) {
    std::sort(gated.begin(), gated.end());
    h.gated_send_lag_ms = gated[static_cast<std::size_t>(robust_p99_rank(h.send_lag_samples) - 1)];
  }
  h.read_lag_samples = static_cast<std::int64_t>(lags.read_lag.count());
  h.gated_read_lag_ms = robust_p99_ms(lags.read_lag);
  h.lag_p99_ms = std::max(h.gated_send_lag_ms, h.gated_read_lag_ms);

  if (h.max_loop_busy > k_saturated_loop_busy) {
    h.healthy = false;
    h.reason = fmt::format("an event-loop thread was busy {:.0f}% of the run: the client was saturated (use more "
                           "--threads, fewer streams, or a faster machine)",
                           h.max_loop_busy * 100);
    return h;
  }
  h.limit_ms = std::nan("");
  if (!(in.median_tpot_ms > 0) || !std::isfinite(in.median_tpot_ms)) {
    h.reason = "not gated: no request produced more than one token, so there is no TPOT to compare with";
    return h;
  }
  if (h.send_lag_samples < k_min_lag_samples && h.read_lag_samples < k_min_lag_samples) {
    h.reason = fmt::format("not gated: {} requests and {} socket reads, fewer than the {} samples a p99 needs",
                           h.send_lag_samples, h.read_lag_samples, k_min_lag_samples);
    return h;
  }
  const double tpot_limit = in.limit_fraction * in.median_tpot_ms;
  if (in.sim_time_scale && tpot_limit < h.noise_floor_ms) {
    h.healthy = false;
    h.limit_ms = tpot_limit;
    h.limit_basis = "tpot";
    h.reason = fmt::format(
        "time scale {} too small for this machine: {:.0f}% of the real median TPOT is {:.3f} ms, below the machine's "
        "noise floor {:.3f} ms, so client and scheduler lag would be magnified {}x in simulated time (use a larger "
        "--sim-time-scale)",
        *in.sim_time_scale, in.limit_fraction * 100, tpot_limit, h.noise_floor_ms, 1.0 / *in.sim_time_scale);
    return h;
  }
  h.limit_basis = tpot_limit >= h.noise_floor_ms ? "tpot" : "noise_floor";
  h.limit_ms = std::max(tpot_limit, h.noise_floor_ms);
  if (h.lag_p99_ms > h.limit_ms) {
    h.healthy = false;
    const std::string basis =
        h.limit_basis == "tpot"
            ? fmt::format("{:.0f}% of the median TPOT {:.3f} ms", in.limit_fraction * 100, in.median_tpot_ms)
            : fmt::format("the machine's noise floor, above {:.0f}% of the median TPOT {:.3f} ms",
                          in.limit_fraction * 100, in.median_tpot_ms);
    h.reason = fmt::format("client lag p99 {:.3f} ms exceeds {:.3f} ms ({}): {}; the client was a bottleneck (use "
                           "more --threads, fewer streams, or a faster machine)",
                           h.lag_p99_ms, h.limit_ms, basis, lag_detail(h));
  }
  return h;
}

}  // namespace servebench::load
