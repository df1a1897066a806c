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
  Vec prior_u;  // each knob's prior mean, in unit coordinates
  Vec prior_w;  // residual_sd over its prior sd, in unit coordinates: the weight of its prior row
  int evaluations = 0;

  EfficiencyOverrides at(const Vec& u) const {
    EfficiencyOverrides o = base;
    for (std::size_t i = 0; i < knobs.size(); ++i) set_knob(o, knobs[i].knob, knobs[i].lo + u[i] * (knobs[i].hi - knobs[i].lo));
    return o;
  }
  // The log residuals of the points, then one row per knob for its prior.
  util::Result<Vec> eval(const Vec& u) {
    ++evaluations;
    auto r = residuals(points, at(u));
    if (!r) return r;
    for (std::size_t i = 0; i < knobs.size(); ++i) r->push_back(prior_w[i] * (u[i] - prior_u[i]));
    return r;
  }
};

// Forward-difference Jacobian at u (residuals r there): one column per knob.
util::Result<std::vector<Vec>> jacobian(CalibrationProblem& pb, const Vec& u, const Vec& r) {
  std::vector<Vec> jac(u.size());
  for (std::size_t i = 0; i < u.size(); ++i) {
    Vec v = u;
    const double h = v[i] + 1e-2 <= 1.0 ? 1e-2 : -1e-2;
    v[i] += h;
    auto rv = pb.eval(v);
    if (!rv) return std::unexpected(rv.error());
    jac[i].resize(r.size());
    for (std::size_t k = 0; k < r.size(); ++k) jac[i][k] = ((*rv)[k] - r[k]) / h;
  }
  return jac;
}

// Levenberg–Marquardt in the unit box; returns the final point and the last Jacobian (columns per knob).
util::Result<std::pair<Vec, std::vector<Vec>>> fit(CalibrationProblem& pb, Vec u, int max_iterations) {
  auto r = pb.eval(u);
  if (!r) return std::unexpected(r.error());
  double lambda = 1e-2, c = cost(*r);
  std::vector<Vec> jac;
  const std::size_t n = u.size();
  for (int it = 0; it < max_iterations && n > 0; ++it) {
    auto j = jacobian(pb, u, *r);
    if (!j) return std::unexpected(j.error());
    jac = std::move(*j);
    std::vector<double> jtj(n * n, 0.0);
    Vec jtr(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < r->size(); ++k) jtr[i] -= jac[i][k] * (*r)[k];
      for (std::size_t j2 = 0; j2 < n; ++j2) {
        for (std::size_t k = 0; k < r->size(); ++k) jtj[i * n + j2] += jac[i][k] * jac[j2][k];
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

// Posterior standard deviation over prior standard deviation of each knob, linearised: the Hessian
// of the objective is JᵀJ over the data rows (first `rows` of each column) plus the prior rows' w².
Vec narrowing(const std::vector<Vec>& jac, std::size_t rows, const Vec& prior_w) {
  const std::size_t n = jac.size();
  std::vector<double> h(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t k = 0; k < rows; ++k) h[i * n + j] += jac[i][k] * jac[j][k];
    }
    h[i * n + i] += prior_w[i] * prior_w[i];
  }
  Vec out(n, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    Vec e(n, 0.0);
    e[i] = 1;
    const Vec col = solve(h, e);  // column i of the posterior covariance (in units of residual_sd²)
    out[i] = col[i] > 0 ? std::min(1.0, std::sqrt(col[i]) * prior_w[i]) : 1.0;
  }
  return out;
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
  return {{Knob::bandwidth, 0.3, 1.0, 0.1},          {Knob::mfu, 0.1, 0.9, 0.15},
          {Knob::step_overhead_us, 0, 5000, 2000},  {Knob::per_sequence_us, 0, 1000, 100},
          {Knob::per_request_us, 0, 500000, 50000}, {Knob::routing_skew, 0, 2, 0.5}};
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
  if (!(options.residual_sd > 0)) return util::failf(util::ErrorKind::bad_input, "residual_sd must be > 0");
  auto d = make_deployment(points.front().config);
  if (!d) return std::unexpected(util::Error{d.error().kind, points.front().label + ": " + d.error().message});
  // Card values, in the knobs' units, as the default start and prior mean.
  EfficiencyOverrides card;
  const auto& e = d->hardware.efficiency;
  card.bandwidth = e.bandwidth, card.mfu = e.mfu, card.step_overhead = e.step_overhead;
  card.per_sequence = e.per_sequence, card.per_request = e.per_request, card.routing_skew = d->model.mlp.routing_skew;
  CalibrationProblem pb{points, options.knobs, options.start, {}, {}};
  Vec u;
  Calibration out;
  for (const auto& b : options.knobs) {
    if (!(b.hi > b.lo)) return util::failf(util::ErrorKind::bad_input, "{}: bounds must satisfy lo < hi", to_string(b.knob));
    if (!(b.prior_sd > 0)) return util::failf(util::ErrorKind::bad_input, "{}: prior_sd must be > 0", to_string(b.knob));
    const double v = std::clamp(knob_value(options.start, b.knob).value_or(knob_value(card, b.knob).value_or(b.lo)),
                                b.lo, b.hi);
    pb.prior_u.push_back((v - b.lo) / (b.hi - b.lo));
    pb.prior_w.push_back(options.residual_sd * (b.hi - b.lo) / b.prior_sd);
    // A start on a bound is moved 5 % inside: a knob whose effect vanishes at the bound (routing skew
    // near 0) would otherwise show no gradient there.
    u.push_back(std::clamp(pb.prior_u.back(), 0.05, 0.95));
    out.knobs.push_back({b.knob, v, v, true, false, "", 1});
  }
  // One replay at the start: the points' rows come first, the knobs' prior rows after them.
  auto start_r = pb.eval(u);
  if (!start_r) return std::unexpected(start_r.error());
  const std::size_t rows = start_r->size() - options.knobs.size();
  const Vec r0(start_r->begin(), start_r->begin() + static_cast<std::ptrdiff_t>(rows));
  out.rms_log_error_start = std::sqrt(cost(r0) / static_cast<double>(std::max<std::size_t>(rows, 1)));
  // Identifiability at the start, from the points' rows of the Jacobian: a knob that moves no
  // residual, or whose column is (anti)parallel to a stronger knob's, cannot be told apart by these
  // points at all; it stays at its start and out of the fit. (Directions the points constrain only in
  // combination are the prior's to settle.)
  auto jac0 = jacobian(pb, u, *start_r);
  if (!jac0) return std::unexpected(jac0.error());
  const auto data_norm = [&](const Vec& col) { return norm(Vec(col.begin(), col.begin() + static_cast<std::ptrdiff_t>(rows))); };
  for (std::size_t i = 0; i < jac0->size(); ++i) {
    const double ni = data_norm((*jac0)[i]);
    if (ni < 1e-3) { out.knobs[i].identified = false, out.knobs[i].why = "no effect on any measured metric"; }
    for (std::size_t j = 0; j < jac0->size() && out.knobs[i].identified; ++j) {
      if (i == j || !out.knobs[j].identified) continue;
      const double nj = data_norm((*jac0)[j]);
      double dot = 0;
      for (std::size_t k = 0; k < rows; ++k) dot += (*jac0)[i][k] * (*jac0)[j][k];
      if (nj >= ni && nj > 0 && std::abs(dot) / (ni * nj) > 0.999) {
        out.knobs[i].identified = false;
        out.knobs[i].why = fmt::format("moves the metrics like {}", to_string(options.knobs[j].knob));
      }
    }
  }
  CalibrationProblem keep{points, {}, options.start, {}, {}};
  Vec uk;
  for (std::size_t i = 0; i < options.knobs.size(); ++i) {
    if (out.knobs[i].identified) {
      keep.knobs.push_back(options.knobs[i]), keep.prior_u.push_back(pb.prior_u[i]);
      keep.prior_w.push_back(pb.prior_w[i]), uk.push_back(u[i]);
    } else {
      set_knob(keep.base, options.knobs[i].knob, out.knobs[i].start);
    }
  }
  auto fitted = fit(keep, uk, options.max_iterations);
  if (!fitted) return std::unexpected(fitted.error());
  const Vec narrowed = narrowing(fitted->second, rows, keep.prior_w);
  for (std::size_t i = 0, k = 0; i < options.knobs.size(); ++i) {
    if (!out.knobs[i].identified) continue;  // an unidentified knob stays where it started: the card's value
    const auto& b = options.knobs[i];
    const double uf = fitted->first[k];
    out.knobs[i].value = b.lo + uf * (b.hi - b.lo);
    out.knobs[i].at_bound = uf <= 1e-6 || uf >= 1 - 1e-6;
    out.knobs[i].narrowed = k < narrowed.size() ? narrowed[k] : 1.0;
    set_knob(out.overrides.efficiency, b.knob, out.knobs[i].value);
    ++k;
  }
  EfficiencyOverrides final_o = options.start;
  apply(out.overrides.efficiency, final_o);
  auto r1 = residuals(points, final_o);
  if (!r1) return std::unexpected(r1.error());
  out.rms_log_error = std::sqrt(cost(*r1) / static_cast<double>(std::max<std::size_t>(r1->size(), 1)));
  out.overrides.hardware = points.front().config.hardware;
  out.overrides.model = points.front().config.model;
  out.evaluations = pb.evaluations + keep.evaluations + 1;
  return out;
}

}  // namespace servebench::sim
