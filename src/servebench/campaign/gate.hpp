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

#include <boost/json/object.hpp>

#include "servebench/campaign/spec.hpp"
#include "servebench/http/exchange.hpp"
#include "servebench/results/point.hpp"

namespace servebench::campaign {

inline constexpr std::string_view k_gate_schema = "servebench.gate/1";

struct ProbeResult {
  std::string name;  // "arithmetic", "greedy_identity", "tool_call"
  bool passed = false, skipped = false;
  std::int64_t n = 0, correct = 0;    // arithmetic: problems and right answers
  double accuracy = 0, natural_stop_rate = 0;
  std::optional<bool> identical;      // greedy_identity
  std::string detail;                 // why it failed or was skipped; examples of wrong answers
};

struct GateResult {
  bool enabled = true, required = true;
  std::optional<bool> passed;  // nullopt: not run (disabled)
  std::vector<ProbeResult> probes;
  // "arithmetic 8/8, greedy_identity ok, tool_call skipped" — for ledger reasons and the console.
  std::string summary() const;
};

// Runs the gate against the arm's server; `model` names the model in requests. A probe whose
// requests fail (HTTP errors, unreachable) fails with the reason; nothing here throws or aborts.
GateResult run_gate(const ArmSpec& arm, http::Exchange& ex, const std::string& model);

// gate.json (servebench.gate/1).
boost::json::object to_json(const GateResult& g, const std::string& arm);
// What every ledger record of the arm carries.
results::GateSummary summary_of(const GateResult& g);

}  // namespace servebench::campaign
