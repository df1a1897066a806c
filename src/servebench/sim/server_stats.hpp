#pragma once
// What the engine thread publishes after every iteration for the routes that answer without it
// (/metrics, /server_info, /health): a plain copy, taken under the publisher's lock.
#include "servebench/sim/engine.hpp"
#include "servebench/sim/step_lateness.hpp"

namespace servebench::sim {

struct ServerStats {
  EngineCounters counters;
  double gen_throughput = 0;  // generated tokens/s of the last decode-log window (SGLang's gauge)
  double accept_length = 0;   // mean tokens per verify step since start; 0 without speculation
  StepLateness step_lateness;  // since start (time scale > 0 only)
  bool ready = false;         // the engine thread runs
};

}  // namespace servebench::sim
