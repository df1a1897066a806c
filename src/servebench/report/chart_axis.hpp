#pragma once
// Axis ranges and tick marks for svg_chart: a linear axis from 0 to a "nice" maximum (steps of
// 1, 2, 2.5 or 5 × 10^k), or a log₂ axis with a tick at every power of two in range.
#include <string>
#include <vector>

#include "servebench/report/svg_chart.hpp"

namespace servebench::report {

struct AxisTick {
  double value = 0;
  std::string label;  // formatted with the report's thousands separators
};

struct Axis {
  AxisScale scale = AxisScale::linear;
  double lo = 0, hi = 1;
  std::vector<AxisTick> ticks;
  // Position of v along the axis: 0 at lo, 1 at hi (not clamped).
  double fraction(double v) const;
};

// [0, nice max ≥ max_value] with about 5 ticks; max_value ≤ 0 or non-finite gives [0, 1].
Axis linear_axis(double max_value);
// [2^floor(log2 min), 2^ceil(log2 max)] (at least one doubling wide); requires 0 < min ≤ max.
Axis log2_axis(double min_value, double max_value);

}  // namespace servebench::report
