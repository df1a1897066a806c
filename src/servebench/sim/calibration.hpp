#pragma once
// `servebench sim calibrate`: fit a small, bounded set of efficiency parameters to measured points by
// least squares on log error (docs/sim.md "sim calibrate"). Levenberg–Marquardt on the parameters
// scaled to [0, 1] within their bounds, forward-difference Jacobian, each evaluation a closed-loop
// replay of every point; then the parameters the data cannot identify are reported (and left at
// their starting value) instead of being fitted to noise.
#include <string>
#include <vector>

#include "servebench/sim/measured_point.hpp"
#include "servebench/sim/sim_overrides.hpp"
#include "servebench/util/result.hpp"

namespace servebench::sim {

enum class Knob { bandwidth, mfu, step_overhead_us, per_sequence_us, per_request_us, routing_skew };
const char* to_string(Knob k);
util::Result<Knob> parse_knob(const std::string& name);

struct KnobBounds {
  Knob knob;
  double lo, hi;
};
// The fitted set and its bounds: bandwidth [0.3, 1], mfu [0.1, 0.9], step_overhead_us [0, 5000],
// per_sequence_us [0, 1000], per_request_us [0, 50000], routing_skew [0, 2].
std::vector<KnobBounds> default_knobs();

struct CalibrationOptions {
  std::vector<KnobBounds> knobs = default_knobs();
  EfficiencyOverrides start;  // starting values (unset: the card's value, clamped into the bounds)
  int max_iterations = 30;
};

struct FittedKnob {
  Knob knob;
  double value = 0, start = 0;
  bool identified = true;
  bool at_bound = false;  // the fit ended on a bound: the model's structure, not this knob, limits it
  std::string why;  // for an unidentified knob: "no effect on any metric" / "moves with <knob>"
};

struct Calibration {
  std::vector<FittedKnob> knobs;
  SimOverrides overrides;  // the identified knobs (what the override file holds)
  double rms_log_error_start = 0, rms_log_error = 0;  // over every measured metric of every point
  int evaluations = 0;
};

util::Result<Calibration> calibrate(const std::vector<MeasuredPoint>& points, const CalibrationOptions& options);

// The knob's value in `o`, if set.
std::optional<double> knob_value(const EfficiencyOverrides& o, Knob k);
void set_knob(EfficiencyOverrides& o, Knob k, double value);

}  // namespace servebench::sim
