#include "servebench/load/client_health.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

namespace servebench::load {
namespace {

double ns_to_ms(double ns) { return ns / 1e6; }

// The robust p99 of a histogram (see robust_p99_rank), in ms (0 with fewer than k_min_lag_samples samples).
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
  return fmt::format("send lag p99 {:.3f} ms of {} requests, read lag p99 {:.3f} ms and arrival lag p99 {:.3f} ms of "
                     "{} reads, loop lag p99 {:.3f} ms of {} ticks",
                     h.gated_send_lag_ms, h.send_lag_samples, h.gated_read_lag_ms, h.gated_arrival_lag_ms,
                     h.arrival_lag_samples, h.gated_loop_lag_ms, h.loop_lag_samples);
}

// The serve-sim step check: its loop's lateness against the same fraction of the real TPOT; the
// noise floor excuses lateness only at time scale 1 (scaled, it is multiplied in simulated time).
// The real time per serve-sim engine step over the run (first send to last response), when its step
// count is known: an upper bound of the token gap it paced (the engine may also have been idle).
std::optional<double> real_step_interval_ms(const HealthInputs& in) {
  if (!in.sim_steps || in.sim_steps->steps <= 0 || in.records.empty()) return std::nullopt;
  util::Nanos first = in.records.front().sent, last = in.records.front().done;
  for (const RequestRecord& r : in.records) {
    first = std::min(first, r.sent);
    last = std::max(last, r.done);
  }
  if (last <= first) return std::nullopt;
  return util::to_ms(last - first) / static_cast<double>(in.sim_steps->steps);
}

void judge_sim_steps(const HealthInputs& in, double tpot_ms, ClientHealthReport& h) {
  if (!in.sim_steps || in.sim_steps->steps < k_min_lag_samples) return;
  const double tpot_limit = in.limit_fraction * tpot_ms;
  h.sim_step_limit_ms = in.sim_time_scale ? tpot_limit : std::max(tpot_limit, h.noise_floor_ms);
  if (in.sim_steps->p99_ms <= h.sim_step_limit_ms) return;
  h.healthy = false;
  if (!h.reason.empty()) h.reason += "; and ";  // both verdicts are given, the client's first
  h.reason += fmt::format("serve-sim's engine loop ran late: step lateness p99 {:.3f} ms over {} steps exceeds {:.3f} "
                         "ms ({:.0f}% of the median TPOT {:.3f} ms{}), so every token left the server late (the "
                         "simulator was starved of CPU: fewer streams, a larger --sim-time-scale, or a quieter machine)",
                         in.sim_steps->p99_ms, in.sim_steps->steps, h.sim_step_limit_ms, in.limit_fraction * 100,
                         tpot_ms, in.sim_time_scale ? "" : ", or the noise floor");
}

}  // namespace

std::optional<SimStepWindow> sim_step_window(std::span<const wire::Bucket> before, std::span<const wire::Bucket> after) {
  if (before.empty() || after.size() != before.size()) return std::nullopt;
  for (std::size_t i = 0; i < after.size(); ++i) {
    if (after[i].le != before[i].le || after[i].count < before[i].count) return std::nullopt;
  }
  SimStepWindow w;
  w.steps = std::llround(after.back().count - before.back().count);
  if (w.steps < k_min_lag_samples) return w;
  // Linear within the bucket holding the robust p99's rank, as Prometheus' histogram_quantile.
  const auto rank = static_cast<double>(robust_p99_rank(w.steps));
  double below = 0, lower = 0;
  for (std::size_t i = 0; i < after.size(); ++i) {
    const double cum = after[i].count - before[i].count;
    if (cum + 1e-9 < rank) {
      below = cum;
      lower = std::isfinite(after[i].le) ? after[i].le : lower;
      continue;
    }
    const double upper = std::isfinite(after[i].le) ? after[i].le : lower;  // no upper bound: its lower edge
    w.p99_ms = 1e3 * (lower + (upper - lower) * (rank - below) / std::max(1.0, cum - below));
    break;
  }
  return w;
}

std::int64_t robust_p99_rank(std::int64_t n) {
  SB_CHECK(n >= 2);
  // k = the fewest samples above the p99 that a lag whose true p99 sits exactly at the limit gives
  // with probability ≥ 0.999: the smallest k with P(Binomial(n, 0.01) ≤ k) ≥ 0.999. Exact sum of
  // the binomial terms while n·p is small, the normal approximation beyond (its error there is
  // far below one rank).
  constexpr double p = 0.01, confidence = 0.999, z = 3.090232306167813;  // z: the normal's 0.999 quantile
  const auto nd = static_cast<double>(n);
  std::int64_t k = 0;
  if (nd * p > 50) {
    k = static_cast<std::int64_t>(std::ceil(nd * p + z * std::sqrt(nd * p * (1 - p))));
  } else {
    double term = std::exp(nd * std::log1p(-p)), cumulative = term;
    while (cumulative < confidence && k < n) {
      term *= (nd - static_cast<double>(k)) / static_cast<double>(k + 1) * p / (1 - p);
      ++k;
      cumulative += term;
    }
  }
  return std::clamp<std::int64_t>(n - k, 1, n - 1);
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
    h.added_p999_ms = ns_to_ms(lags.client_added.percentile(99.9));
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
  h.loop_lag_samples = static_cast<std::int64_t>(lags.loop_lag.count());
  h.gated_loop_lag_ms = robust_p99_ms(lags.loop_lag);
  h.loop_lag_max_ms = ns_to_ms(static_cast<double>(lags.loop_lag.max()));
  h.arrival_lag_samples = static_cast<std::int64_t>(lags.arrival_lag.count());
  h.gated_arrival_lag_ms = robust_p99_ms(lags.arrival_lag);
  h.arrival_lag_max_ms = ns_to_ms(static_cast<double>(lags.arrival_lag.max()));
  // Arrival lag is what a late loop does to the measured reads; where it has samples, a loop tick
  // that ran late while no data waited (a VM or scheduler hiccup of that thread alone) distorts
  // nothing and does not fail the run. Without arrival samples the loop lag stands in for it.
  const bool arrivals_gated = h.arrival_lag_samples >= k_min_lag_samples;
  h.lag_p99_ms = std::max({h.gated_send_lag_ms, h.gated_read_lag_ms, h.gated_arrival_lag_ms,
                           arrivals_gated ? 0.0 : h.gated_loop_lag_ms});
  h.sim_steps = in.sim_steps;

  if (h.max_loop_busy > k_saturated_loop_busy) {
    h.healthy = false;
    h.reason = fmt::format("an event-loop thread was busy {:.0f}% of the run: the client was saturated (use more "
                           "--threads, fewer streams, or a faster machine)",
                           h.max_loop_busy * 100);
    return h;
  }
  h.limit_ms = std::nan("");
  // A median TPOT of exactly 0: every token of the median request arrived in one read. From a
  // time-scaled serve-sim that is either the scale crushing the token gaps below what a read
  // resolves or the server holding the stream back (a fault such as slow headers); the simulator's
  // step count over the run tells them apart: the real time per engine step is the token gap it
  // paced, and the time-scale check below judges it. From any other server it is a server that
  // buffered its stream.
  double tpot_ms = in.median_tpot_ms;
  if (in.sim_time_scale && tpot_ms == 0) tpot_ms = real_step_interval_ms(in).value_or(tpot_ms);
  if (!(tpot_ms > 0) || !std::isfinite(tpot_ms)) {
    h.reason = in.median_tpot_ms == 0
                   ? "not gated: the median request's tokens all arrived in one read (TPOT 0: the server buffered its "
                     "stream), so there is no token gap to compare with"
                   : "not gated: no request produced more than one token, so there is no TPOT to compare with";
    return h;
  }
  // The time-scale verdict needs no lag sample: it compares the scaled TPOT with the floor.
  const double tpot_limit = in.limit_fraction * tpot_ms;
  if (in.sim_time_scale && tpot_limit < h.noise_floor_ms) {
    h.healthy = false;
    h.limit_ms = tpot_limit;
    h.limit_basis = "tpot";
    h.reason = fmt::format(
        "time scale {} too small for this machine: {:.0f}% of the real {} is {:.3f} ms, below the machine's noise floor "
        "{:.3f} ms, so client and scheduler lag would be magnified {}x in simulated time (use a larger "
        "--sim-time-scale)",
        *in.sim_time_scale, in.limit_fraction * 100,
        tpot_ms == in.median_tpot_ms ? "median TPOT" : "time per engine step (every token arrived in one read)",
        tpot_limit, h.noise_floor_ms, 1.0 / *in.sim_time_scale);
    return h;
  }
  if (h.send_lag_samples < k_min_lag_samples && h.read_lag_samples < k_min_lag_samples &&
      h.loop_lag_samples < k_min_lag_samples) {
    h.reason = fmt::format("not gated: {} requests and {} socket reads, fewer than the {} samples a p99 needs (and {} "
                           "loop-lag ticks)",
                           h.send_lag_samples, h.read_lag_samples, k_min_lag_samples, h.loop_lag_samples);
    return h;
  }
  h.limit_basis = tpot_limit >= h.noise_floor_ms ? "tpot" : "noise_floor";
  h.limit_ms = std::max(tpot_limit, h.noise_floor_ms);
  if (h.lag_p99_ms > h.limit_ms) {
    h.healthy = false;
    const std::string basis =
        h.limit_basis == "tpot"
            ? fmt::format("{:.0f}% of the median TPOT {:.3f} ms", in.limit_fraction * 100, tpot_ms)
            : fmt::format("the machine's noise floor, above {:.0f}% of the median TPOT {:.3f} ms",
                          in.limit_fraction * 100, tpot_ms);
    h.reason = fmt::format("client lag p99 {:.3f} ms exceeds {:.3f} ms ({}): {}; the client was a bottleneck (use "
                           "more --threads, fewer streams, or a faster machine)",
                           h.lag_p99_ms, h.limit_ms, basis, lag_detail(h));
  }
  judge_sim_steps(in, tpot_ms, h);
  return h;
}

}  // namespace servebench::load
