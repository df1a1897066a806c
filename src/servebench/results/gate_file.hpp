#pragma once
// arms/<arm>/gate.json (servebench.gate/1, docs/formats.md): the quality-gate result of one arm.
// The campaign's gate fills GateResult and writes it here; the report reads it back here.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/util/result.hpp"

namespace servebench::results {

inline constexpr std::string_view k_gate_schema = "servebench.gate/1";

struct ProbeResult {
  std::string name;  // "arithmetic" or "gsm8k", "greedy_identity", "tool_call"
  bool passed = false, skipped = false;
  std::int64_t n = 0, correct = 0;  // arithmetic: problems and right answers
  double accuracy = 0, natural_stop_rate = 0;
  std::optional<bool> identical;    // greedy_identity
  std::string detail;               // why it failed or was skipped; examples of wrong answers
  // gsm8k (a GSM8K-format file instead of the built-in problems): the file's name and the 95 %
  // Wilson score interval of the accuracy.
  std::string dataset{};
  std::optional<double> wilson_low{}, wilson_high{};
};

struct GateResult {
  bool enabled = true, required = true;
  std::optional<bool> passed;  // nullopt: not run (disabled)
  std::vector<ProbeResult> probes;
  // "arithmetic 8/8, greedy_identity ok, tool_call skipped" — for ledger reasons and the console.
  std::string summary() const;
};

boost::json::object to_json(const GateResult& g, const std::string& arm);
// Fails (bad_input, naming `what`) when the text is not a JSON object; absent keys keep their defaults
// (`required` false, `passed` unknown).
util::Result<GateResult> parse_gate(std::string_view text, const std::string& what);
// The file at `path`; nullopt when it does not exist. Fails when it exists but cannot be read or parsed.
util::Result<std::optional<GateResult>> read_gate(const std::filesystem::path& path);
// Writes the file atomically.
util::Result<void> write_gate(const std::filesystem::path& path, const GateResult& g, const std::string& arm);

}  // namespace servebench::results
