#include "servebench/sim/calibration.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "servebench/sim/deployment.hpp"
#include "servebench/sim/validation.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::sim {
namespace {

using Vec = std::vector<double>;

constexpr double k_us = 1000.0;  // ns per µs

// Log residuals of every measured metric of every point; a failed prediction is a hard error.
util::Result<Vec> residuals(const std::vector<MeasuredPoint>& points, const EfficiencyOverrides& o) {
  Vec r;
  for (const auto& p : points) {
    auto pr = predict(p, points, o);
    if (!pr) return std::unexpected(pr.error());
    for (Metric m : k_metrics) {
      const auto meas = measured(p, m);
      if (!meas || *meas <= 0) continue;
      r.push_back(std::log(std::max(pr->value(m), 1e-9) / *meas));
    }
  }
  return r;
}

double cost(const Vec& r) {
  double s = 0;
  for (double x : r) s += x * x;
  return s;
}

// Solves A x = b (n x n, row-major) by Gaussian elimination with partial pivoting.
Vec solve(std::vector<double> a, Vec b) {
  const std::size_t n = b.size();
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t piv = c;
    for (std::size_t r = c + 1; r < n; ++r) if (std::abs(a[r * n + c]) > std::abs(a[piv * n + c])) piv = r;
    for (std::size_t k = 0; k < n; ++k) std::swap(a[c * n + k], a[piv * n + k]);
    std::swap(b[c], b[piv]);
    if (std::abs(a[c * n + c]) < 1e-300) continue;
    for (std::size_t r = c + 1; r < n; ++r) {
      const double f = a[r * n + c] / a[c * n + c];
      for (std::size_t k = c; k < n; ++k) a[r * n + k] -= f * a[c * n + k];
      b[r] -= f * b[c];
    }
  }
  Vec x(n, 0.0);
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t k = i + 1; k < n; ++k) s -= a[i * n + k] * x[k];
    x[i] = std::abs(a[i * n + i]) < 1e-300 ? 0 : s / a[i * n + i];
  }
  return x;
}

struct CalibrationProblem {
  const std::vector<MeasuredPoint>& points;
  std::vector<KnobBounds> knobs;
  EfficiencyOverrides base;
  int evaluations = 0;

  EfficiencyOverrides at(const Vec& u) const {
    EfficiencyOverrides o = base;
    for (std::size_t i = 0; i < knobs.size(); ++i) set_knob(o, knobs[i].knob, knobs[i].lo + u[i] * (knobs[i].hi - knobs[i].lo));
    return o;
  }
  util::Result<Vec> eval(const Vec& u) {
    ++evaluations;
    return residuals(points, at(u));
  }
};

// Levenberg–Marquardt in the unit box; returns the final point and its Jacobian (columns per knob).
util::Result<std::pair<Vec, std::vector<Vec>>> fit(CalibrationProblem& pb, Vec u, int max_iterations) {
  auto r = pb.eval(u);
  if (!r) return std::unexpected(r.error());
  double lambda = 1e-2, c = cost(*r);
  std::vector<Vec> jac;
  const std::size_t n = u.size();
  for (int it = 0; it < max_iterations && n > 0; ++it) {
    jac.assign(n, Vec{});
    for (std::size_t i = 0; i < n; ++i) {
      Vec v = u;
      const double h = v[i] + 1e-2 <= 1.0 ? 1e-2 : -1e-2;
      v[i] += h;
      auto rv = pb.eval(v);
      if (!rv) return std::unexpected(rv.error());
      jac[i].resize(r->size());
      for (std::size_t k = 0; k < r->size(); ++k) jac[i][k] = ((*rv)[k] - (*r)[k]) / h;
    }
    std::vector<double> jtj(n * n, 0.0);
    Vec jtr(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < r->size(); ++k) jtr[i] -= jac[i][k] * (*r)[k];
      for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t k = 0; k < r->size(); ++k) jtj[i * n + j] += jac[i][k] * jac[j][k];
      }
    }
    bool improved = false;
    for (int tries = 0; tries < 8 && !improved; ++tries) {
      auto a = jtj;
      for (std::size_t i = 0; i < n; ++i) a[i * n + i] += lambda * (jtj[i * n + i] + 1e-9);
      const Vec step = solve(a, jtr);
      Vec cand = u;
      for (std::size_t i = 0; i < n; ++i) cand[i] = std::clamp(u[i] + step[i], 0.0, 1.0);
      auto rc = pb.eval(cand);
      if (!rc) return std::unexpected(rc.error());
      const double cc = cost(*rc);
      if (cc < c) {
        const bool converged = c - cc < 1e-10 * (1 + c);
        u = cand, r = std::move(rc), c = cc, lambda = std::max(lambda / 3, 1e-7), improved = true;
        if (converged) return std::pair{u, jac};
      } else {
        lambda *= 4;
      }
    }
    if (!improved || c < 1e-14) break;
  }
  return std::pair{u, jac};
}

double norm(const Vec& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

}  // namespace

const char* to_string(Knob k) {
  switch (k) {
    case Knob::bandwidth: return "bandwidth";
    case Knob::mfu: return "mfu";
    case Knob::step_overhead_us: return "step_overhead_us";
    case Knob::per_sequence_us: return "per_sequence_us";
    case Knob::per_request_us: return "per_request_us";
    case Knob::routing_skew: return "routing_skew";
  }
  return "";
}

util::Result<Knob> parse_knob(const std::string& name) {
  for (const auto& b : default_knobs()) {
    if (name == to_string(b.knob)) return b.knob;
  }
  return util::failf(util::ErrorKind::bad_input, "unknown calibration parameter '{}'; known: bandwidth, mfu, "
                     "step_overhead_us, per_sequence_us, per_request_us, routing_skew", name);
}

std::vector<KnobBounds> default_knobs() {
  return {{Knob::bandwidth, 0.3, 1.0},        {Knob::mfu, 0.1, 0.9},
          {Knob::step_overhead_us, 0, 5000},  {Knob::per_sequence_us, 0, 1000},
          {Knob::per_request_us, 0, 50000},   {Knob::routing_skew, 0, 2}};
}

std::optional<double> knob_value(const EfficiencyOverrides& o, Knob k) {
  const auto us = [](const std::optional<Nanos>& n) -> std::optional<double> {
    if (!n) return std::nullopt;
    return static_cast<double>(n->count()) / k_us;
  };
  switch (k) {
    case Knob::bandwidth: return o.bandwidth;
    case Knob::mfu: return o.mfu;
    case Knob::step_overhead_us: return us(o.step_overhead);
    case Knob::per_sequence_us: return us(o.per_sequence);
    case Knob::per_request_us: return us(o.per_request);
    case Knob::routing_skew: return o.routing_skew;
  }
  return std::nullopt;
}

void set_knob(EfficiencyOverrides& o, Knob k, double v) {
  const auto ns = [](double us) { return Nanos{static_cast<Nanos::rep>(std::llround(us * k_us))}; };
  switch (k) {
    case Knob::bandwidth: o.bandwidth = v; break;
    case Knob::mfu: o.mfu = v; break;
    case Knob::step_overhead_us: o.step_overhead = ns(v); break;
    case Knob::per_sequence_us: o.per_sequence = ns(v); break;
    case Knob::per_request_us: o.per_request = ns(v); break;
    case Knob::routing_skew: o.routing_skew = v; break;
  }
}

util::Result<Calibration> calibrate(const std::vector<MeasuredPoint>& points, const CalibrationOptions& options) {
  if (points.empty()) return util::failf(util::ErrorKind::bad_input, "no measured points to calibrate on");
  auto d = make_deployment(points.front().config);
  if (!d) return std::unexpected(util::Error{d.error().kind, points.front().label + ": " + d.error().message});
  // Card values, in the knobs' units, as the default start.
  EfficiencyOverrides card;
  const auto& e = d->hardware.efficiency;
  card.bandwidth = e.bandwidth, card.mfu = e.mfu, card.step_overhead = e.step_overhead;
  card.per_sequence = e.per_sequence, card.per_request = e.per_request, card.routing_skew = d->model.mlp.routing_skew;
  CalibrationProblem pb{points, options.knobs, options.start};
  Vec u;
  Calibration out;
  for (const auto& b : options.knobs) {
    if (!(b.hi > b.lo)) return util::failf(util::ErrorKind::bad_input, "{}: bounds must satisfy lo < hi", to_string(b.knob));
    const double v = std::clamp(knob_value(options.start, b.knob).value_or(knob_value(card, b.knob).value_or(b.lo)),
                                b.lo, b.hi);
    // A start on a bound is moved 5 % inside: a knob whose effect vanishes at the bound (routing skew
    // near 0) would otherwise show no gradient there.
    u.push_back(std::clamp((v - b.lo) / (b.hi - b.lo), 0.05, 0.95));
    out.knobs.push_back({b.knob, v, v, true, false, ""});
  }
  auto r0 = pb.eval(u);
  if (!r0) return std::unexpected(r0.error());
  out.rms_log_error_start = std::sqrt(cost(*r0) / static_cast<double>(std::max<std::size_t>(r0->size(), 1)));
  auto fitted = fit(pb, u, options.max_iterations);
  if (!fitted) return std::unexpected(fitted.error());
  // Identifiability from the last Jacobian: a knob that moves no residual, or whose column is
  // (anti)parallel to a stronger knob's, cannot be told apart by these points; refit without it.
  const auto& jac = fitted->second;
  bool dropped = false;
  for (std::size_t i = 0; i < jac.size(); ++i) {
    const double ni = norm(jac[i]);
    if (ni < 1e-3) { out.knobs[i].identified = false, out.knobs[i].why = "no effect on any measured metric"; }
    for (std::size_t j = 0; j < jac.size() && out.knobs[i].identified; ++j) {
      if (i == j || !out.knobs[j].identified) continue;
      const double nj = norm(jac[j]);
      double dot = 0;
      for (std::size_t k = 0; k < jac[i].size(); ++k) dot += jac[i][k] * jac[j][k];
      if (nj >= ni && nj > 0 && std::abs(dot) / (ni * nj) > 0.999) {
        out.knobs[i].identified = false;
        out.knobs[i].why = fmt::format("moves the metrics like {}", to_string(options.knobs[j].knob));
      }
    }
    dropped = dropped || !out.knobs[i].identified;
  }
  Vec u_final = fitted->first;
  if (dropped) {
    CalibrationProblem keep{points, {}, options.start};
    Vec uk;
    for (std::size_t i = 0; i < options.knobs.size(); ++i) {
      if (out.knobs[i].identified) keep.knobs.push_back(options.knobs[i]), uk.push_back(fitted->first[i]);
      else set_knob(keep.base, options.knobs[i].knob, out.knobs[i].start);
    }
    auto refit = fit(keep, uk, options.max_iterations);
    if (!refit) return std::unexpected(refit.error());
    pb.evaluations += keep.evaluations;
    for (std::size_t i = 0, k = 0; i < options.knobs.size(); ++i) {
      u_final[i] = out.knobs[i].identified ? refit->first[k++] : u[i];
    }
  }
  for (std::size_t i = 0; i < options.knobs.size(); ++i) {
    const auto& b = options.knobs[i];
    // An unidentified knob stays where it started (the card's value), not at the 5 %-inside probe.
    out.knobs[i].value = out.knobs[i].identified ? b.lo + u_final[i] * (b.hi - b.lo) : out.knobs[i].start;
    out.knobs[i].at_bound = out.knobs[i].identified && (u_final[i] <= 1e-6 || u_final[i] >= 1 - 1e-6);
    if (out.knobs[i].identified) set_knob(out.overrides.efficiency, b.knob, out.knobs[i].value);
  }
  EfficiencyOverrides final_o = options.start;
  apply(out.overrides.efficiency, final_o);
  auto r1 = residuals(points, final_o);
  if (!r1) return std::unexpected(r1.error());
  out.rms_log_error = std::sqrt(cost(*r1) / static_cast<double>(std::max<std::size_t>(r1->size(), 1)));
  out.overrides.hardware = points.front().config.hardware;
  out.overrides.model = points.front().config.model;
  out.evaluations = pb.evaluations + 1;
  return out;
}

}  // namespace servebench::sim
