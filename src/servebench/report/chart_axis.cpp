#include "servebench/report/chart_axis.hpp"

#include <cmath>

#include "servebench/report/number_format.hpp"
#include "servebench/util/result.hpp"

namespace servebench::report {
namespace {

double nice_step(double raw) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * magnitude >= raw * (1 - 1e-12)) return m * magnitude;
  }
  return 10 * magnitude;
}

int decimals_for(double step) {
  int d = 0;
  while (d < 6 && std::fabs(step * std::pow(10.0, d) - std::round(step * std::pow(10.0, d))) > 1e-9) ++d;
  return d;
}

}  // namespace

double Axis::fraction(double v) const {
  if (scale == AxisScale::log2) return (std::log2(v) - std::log2(lo)) / (std::log2(hi) - std::log2(lo));
  return (v - lo) / (hi - lo);
}

Axis linear_axis(double max_value) {
  Axis axis;
  if (!std::isfinite(max_value) || max_value <= 0) max_value = 1;
  const double step = nice_step(max_value / 5.0);
  const int steps = static_cast<int>(std::ceil(max_value / step - 1e-9));
  axis.hi = step * steps;
  const int decimals = decimals_for(step);
  for (int i = 0; i <= steps; ++i) axis.ticks.push_back({step * i, format_fixed(step * i, decimals)});
  return axis;
}

Axis log2_axis(double min_value, double max_value) {
  SB_CHECK(min_value > 0 && min_value <= max_value);
  Axis axis;
  axis.scale = AxisScale::log2;
  const int lo = static_cast<int>(std::floor(std::log2(min_value) + 1e-9));
  int hi = static_cast<int>(std::ceil(std::log2(max_value) - 1e-9));
  if (hi <= lo) hi = lo + 1;
  axis.lo = std::ldexp(1.0, lo);
  axis.hi = std::ldexp(1.0, hi);
  for (int e = lo; e <= hi; ++e) {
    const double v = std::ldexp(1.0, e);
    axis.ticks.push_back({v, format_fixed(v, e < 0 ? -e : 0)});
  }
  return axis;
}

}  // namespace servebench::report
