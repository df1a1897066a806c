#pragma once
// The quality gate, run per arm before measuring (docs/protocol.md "Gate"): arithmetic word
// problems with known answers (temperature 0, natural stop: accuracy and natural-stop rate), a
// tool call for arms that declare a tool-call parser, and greedy identity (one prompt three times
// at temperature 0 must give identical text — with speculative decoding on, the cheap check that
// speculation does not change outputs). Requests go to the chat route, one at a time.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "servebench/campaign/spec.hpp"
#include "servebench/http/exchange.hpp"
#include "servebench/results/gate_file.hpp"
#include "servebench/results/point.hpp"

namespace servebench::campaign {

// The gate's result is what gate.json holds (results/gate_file.hpp).
using results::GateResult;
using results::ProbeResult;

// Runs the gate against the arm's server; `model` names the model in requests. A probe whose
// requests fail (HTTP errors, unreachable) fails with the reason; nothing here throws or aborts.
GateResult run_gate(const ArmSpec& arm, http::Exchange& ex, const std::string& model);

// What every ledger record of the arm carries.
results::GateSummary summary_of(const GateResult& g);

}  // namespace servebench::campaign
