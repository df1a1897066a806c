#pragma once
// The one-line progress shown on a terminal during the measured phase.
#include <string>

#include "servebench/load/phase.hpp"

namespace servebench::load {

// "  412/1000 done · 64 running · 2 failed · 8,976 out tok/s · ETA 0:41" (no newline).
std::string progress_line(const PhaseProgress& p);

}  // namespace servebench::load
