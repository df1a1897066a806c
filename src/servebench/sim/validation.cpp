#include "servebench/sim/validation.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "servebench/sim/closed_loop.hpp"
#include "servebench/sim/sim_overrides.hpp"
#include "servebench/sim/speculative.hpp"

namespace servebench::sim {
namespace {

double pct(double x) { return 100.0 * x; }

}  // namespace

const char* to_string(Metric m) {
  switch (m) {
    case Metric::ttft: return "TTFT ms";
    case Metric::tpot: return "TPOT ms";
    case Metric::total_per_gpu: return "total tok/s/GPU";
    case Metric::output: return "output tok/s";
  }
  return "";
}

std::optional<double> measured(const MeasuredPoint& p, Metric m) {
  switch (m) {
    case Metric::ttft: return p.ttft_ms;
    case Metric::tpot: return p.tpot_ms;
    case Metric::total_per_gpu: return p.total_tok_s_per_gpu;
    case Metric::output: return p.output_tok_s;
  }
  return std::nullopt;
}

double Prediction::value(Metric m) const {
  switch (m) {
    case Metric::ttft: return ttft_ms;
    case Metric::tpot: return tpot_ms;
    case Metric::total_per_gpu: return total_tok_s_per_gpu;
    case Metric::output: return output_tok_s;
  }
  return 0;
}

util::Result<SimConfig> config_for(const MeasuredPoint& p, const std::vector<MeasuredPoint>& all,
                                   const EfficiencyOverrides& o, std::string* accept_note) {
  SimConfig c = p.config;
  apply(o, c.efficiency);
  if (accept_note) *accept_note = "–";
  if (c.speculative_algorithm == SpecAlgorithm::none) return c;
  std::optional<double> al = p.accept_length;
  std::string how;
  if (!al) {
    double sum = 0;
    int n = 0;
    for (const auto& q : all) {
      if (q.source == p.source && q.accept_length) sum += *q.accept_length, ++n;
    }
    if (n > 0) al = sum / n, how = ", source mean";
  }
  if (!al) {
    if (accept_note) *accept_note = "card rates";
    return c;
  }
  auto d = make_deployment(c);
  if (!d) return std::unexpected(d.error());
  const int steps = draft_steps(d->spec, p.concurrency);
  if (steps <= 0) return c;
  const double alpha = rate_for_accept_length(*al, steps);
  c.sim_accept_rates = {alpha};
  if (accept_note) *accept_note = fmt::format("{:.2f}{} (α {:.3f} at {} steps)", *al, how, alpha, steps);
  return c;
}

util::Result<Prediction> predict(const MeasuredPoint& p, const std::vector<MeasuredPoint>& all,
                                 const EfficiencyOverrides& o) {
  Prediction out;
  auto c = config_for(p, all, o, &out.accept);
  if (!c) return std::unexpected(c.error());
  auto d = make_deployment(*c);
  if (!d) return std::unexpected(util::Error{d.error().kind, p.label + ": " + d.error().message});
  const int gpus = d->gpus();
  Engine e(std::move(*d));
  const auto r = loop::run_closed_loop(e, p.isl, p.osl, p.concurrency, p.num_prompts);
  out.ttft_ms = r.mean_ttft_ms;
  out.tpot_ms = r.mean_tpot_ms;
  out.output_tok_s = r.output_tok_s;
  out.total_tok_s_per_gpu =
      r.output_tok_s * static_cast<double>(p.isl + p.osl) / static_cast<double>(p.osl) / static_cast<double>(gpus);
  return out;
}

double signed_error_pct(double predicted, double measured) { return pct((predicted - measured) / measured); }

std::vector<MetricError> summarize(const std::vector<PointResult>& points) {
  std::vector<MetricError> out;
  for (Metric m : k_metrics) {
    std::vector<double> errs;
    for (const auto& r : points) {
      if (auto v = measured(*r.point, m); v && *v > 0) errs.push_back(signed_error_pct(r.predicted.value(m), *v));
    }
    if (errs.empty()) continue;
    MetricError e;
    e.metric = m;
    e.n = static_cast<int>(errs.size());
    std::vector<double> abs;
    for (double x : errs) abs.push_back(std::abs(x)), e.bias += x;
    std::sort(abs.begin(), abs.end());
    for (double x : abs) e.mape += x;
    e.mape /= e.n;
    e.bias /= e.n;
    e.max = abs.back();
    // p90 by nearest rank, as the report's percentiles
    const auto rank = static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(abs.size())));
    e.p90 = abs[std::max<std::size_t>(rank, 1) - 1];
    out.push_back(e);
  }
  return out;
}

util::Result<Validation> validate(const std::vector<MeasuredPoint>& points, const EfficiencyOverrides& o) {
  Validation v;
  for (const auto& p : points) {
    auto pr = predict(p, points, o);
    if (!pr) return std::unexpected(pr.error());
    v.points.push_back({&p, std::move(*pr)});
  }
  v.metrics = summarize(v.points);
  return v;
}

std::string render_markdown(const Validation& v) {
  std::string out = fmt::format("Fold: {}.\n\n| point | accept length used | metric | measured | predicted | error |\n"
                                "|---|---|---|---|---|---|\n", v.fold);
  for (const auto& r : v.points) {
    bool first = true;
    for (Metric m : k_metrics) {
      const auto meas = measured(*r.point, m);
      if (!meas) continue;
      const double pred = r.predicted.value(m);
      out += fmt::format("| {} | {} | {} | {:.2f} | {:.2f} | {:+.0f} % |\n", first ? r.point->label : "",
                         first ? r.predicted.accept : "", to_string(m), *meas, pred, signed_error_pct(pred, *meas));
      first = false;
    }
  }
  out += "\n| metric | points | MAPE | p90 abs error | max abs error | bias |\n|---|---|---|---|---|---|\n";
  for (const auto& e : v.metrics) {
    out += fmt::format("| {} | {} | {:.1f} % | {:.1f} % | {:.1f} % | {:+.1f} % |\n", to_string(e.metric), e.n, e.mape,
                       e.p90, e.max, e.bias);
  }
  return out;
}

boost::json::object to_json(const Validation& v) {
  boost::json::object o;
  o["fold"] = v.fold;
  boost::json::array pts;
  for (const auto& r : v.points) {
    boost::json::object p;
    p["label"] = r.point->label;
    p["source"] = r.point->source;
    p["accept"] = r.predicted.accept;
    for (Metric m : k_metrics) {
      const auto meas = measured(*r.point, m);
      boost::json::object x;
      x["predicted"] = r.predicted.value(m);
      if (meas) {
        x["measured"] = *meas;
        x["error_pct"] = signed_error_pct(r.predicted.value(m), *meas);
      }
      p[to_string(m)] = std::move(x);
    }
    pts.push_back(std::move(p));
  }
  o["points"] = std::move(pts);
  boost::json::object ms;
  for (const auto& e : v.metrics) {
    ms[to_string(e.metric)] = {{"n", e.n}, {"mape_pct", e.mape}, {"p90_abs_pct", e.p90}, {"max_abs_pct", e.max},
                               {"bias_pct", e.bias}};
  }
  o["metrics"] = std::move(ms);
  return o;
}

}  // namespace servebench::sim
