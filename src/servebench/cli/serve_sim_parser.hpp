#pragma once
// serve-sim's flag parser as a function, so `plan` maps a campaign arm's launch command to the
// deployment exactly as `servebench serve-sim` would (serve_sim.cpp owns the flag definitions).
#include <string>
#include <vector>

#include "servebench/plan/planner.hpp"

namespace servebench::cli {

// `args` are the words after `servebench serve-sim`. Fails (bad_input) naming the flag or card.
util::Result<plan::SimLaunch> parse_serve_sim_args(const std::vector<std::string>& args);

}  // namespace servebench::cli
