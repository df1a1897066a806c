#pragma once
// A card-override file (`sim calibrate` writes it; `serve-sim --sim-overrides`, `sim validate
// --sim-overrides` and campaign arms that launch serve-sim with that flag read it):
//   # servebench sim calibrate, <points file>, <n> points
//   hardware: gb300            # the cards it was fitted for (informational; empty = any)
//   model: glm-5.3-flash
//   efficiency: {bandwidth: 0.71, mfu: 0.42, step_overhead_us: 310, per_sequence_us: 4.5,
//                per_request_us: 0, routing_skew: 0.6}
// Every key is optional; unknown keys are errors (file:line:col).
#include <string>

#include "servebench/sim/sim_config.hpp"
#include "servebench/util/result.hpp"

namespace servebench::sim {

struct SimOverrides {
  std::string hardware, model;
  EfficiencyOverrides efficiency;
};

util::Result<SimOverrides> parse_sim_overrides(const std::string& yaml_text, const std::string& file);
util::Result<SimOverrides> read_sim_overrides(const std::string& path);
// The YAML text of `o`, after `comment` lines (each prefixed "# ").
std::string to_yaml(const SimOverrides& o, const std::string& comment);
// Sets every override `o` gives on `c` (the others keep c's values).
void apply(const EfficiencyOverrides& o, EfficiencyOverrides& c);

}  // namespace servebench::sim
