#pragma once
// What a run directory says about one arm: arms/<arm>/server_facts.json (servebench.server_facts/1)
// and arms/<arm>/gate.json (servebench.gate/1), reduced to what the report shows. Keys the file
// does not carry stay empty and are shown as "not recorded".
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "servebench/util/result.hpp"
#include "servebench/wire/disaggregation_facts.hpp"

namespace servebench::report {

struct ServerFacts {
  bool found = false;  // the file exists
  std::string engine, engine_version, model, launch, fingerprint, captured_at;
  std::optional<std::int64_t> gpus, context_length, kv_pool_tokens, max_running_requests;
  std::string speculative;  // "EAGLE3 steps 4, topk 1, draft tokens 5", "none", or "" (not recorded)
  // serve-sim's `sim` block: the modeled GPU and how fast its virtual clock ran (empty/nullopt for a
  // real engine).
  std::string sim_hardware;
  std::optional<double> sim_time_scale;
  // A prefill/decode-disaggregated arm: its parts' launch commands (part, command) in launch order,
  // and the KV-transfer model its simulated decode part reported (nullopt for a real engine).
  std::vector<std::pair<std::string, std::string>> parts;
  std::optional<wire::KvTransferFacts> kv_transfer;
};

struct GateResult {
  bool found = false;  // the file exists
  std::optional<bool> passed;
  bool required = false;
  std::string probes;  // "arithmetic 8/8 passed; greedy_identity passed; tool_call skipped"
  // The gsm8k probe (gate.dataset): its file, counts, accuracy and 95 % Wilson interval.
  struct Accuracy {
    std::string dataset;
    std::int64_t correct = 0, n = 0;
    double accuracy = 0, low = 0, high = 0;
  };
  std::optional<Accuracy> accuracy;
};

// Reads DIR/arms/<arm>/server_facts.json; a missing file gives found=false. Fails (bad_input,
// naming the file) when the file exists but is not a JSON object.
util::Result<ServerFacts> read_server_facts(const std::filesystem::path& file);
// Reads DIR/arms/<arm>/gate.json; same failure rule.
util::Result<GateResult> read_gate(const std::filesystem::path& file);

// "passed", "FAILED", "failed (not required)", "not run".
std::string gate_verdict(const GateResult& g);

}  // namespace servebench::report
