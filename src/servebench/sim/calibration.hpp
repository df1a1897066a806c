#pragma once
// `servebench sim calibrate`: fit a small, bounded set of efficiency parameters to measured points by
// least squares on log error with a prior on each parameter (docs/sim.md "sim calibrate"): the
// maximum a-posteriori estimate, so a direction the points do not constrain stays at the card's
// value instead of running to a bound. Levenberg–Marquardt on the parameters scaled to [0, 1]
// within their bounds, forward-difference Jacobian, each evaluation a closed-loop replay of every
// point. Parameters with no effect, or moving the metrics exactly like a stronger one, are reported
// and left at their starting value; the others report how much the points narrowed their prior.
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
  double prior_sd;  // how far from the card's value the knob plausibly is (its unit), one standard deviation
};
// The fitted set, its bounds and prior widths: bandwidth [0.3, 1] ± 0.1, mfu [0.1, 0.9] ± 0.15,
// step_overhead_us [0, 5000] ± 2000, per_sequence_us [0, 1000] ± 100, per_request_us [0, 500000]
// ± 50000, routing_skew [0, 2] ± 0.5 (docs/sim.md says why each width).
std::vector<KnobBounds> default_knobs();

struct CalibrationOptions {
  std::vector<KnobBounds> knobs = default_knobs();
  EfficiencyOverrides start;  // starting values and prior means (unset: the card's value, clamped into the bounds)
  // The log error the prior is weighed against: small, so the points decide what they constrain and
  // the prior only what they leave open (docs/sim.md "sim calibrate").
  double residual_sd = 0.003;
  int max_iterations = 30;
};

struct FittedKnob {
  Knob knob;
  double value = 0, start = 0;
  bool identified = true;
  bool at_bound = false;  // the fit ended on a bound: the model's structure, not this knob, limits it
  std::string why;  // for an unidentified knob: "no effect on any metric" / "moves with <knob>"
  // For a fitted knob: its posterior standard deviation over its prior's (linearised at the fit);
  // below 0.5 the points pin it, near 1 the prior does.
  double narrowed = 1;
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
