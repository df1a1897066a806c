#include "servebench/report/arm_facts.hpp"

#include <fmt/format.h>

#include "servebench/results/gate_file.hpp"
#include "servebench/results/server_facts_file.hpp"
#include "servebench/util/strings.hpp"
#include "servebench/wire/server_facts.hpp"

namespace servebench::report {
namespace {

std::string speculative_text(const std::optional<wire::ServerFacts>& facts) {
  if (!facts) return "";  // not recorded
  if (!facts->speculative || facts->speculative->algorithm.empty()) return "none";
  const wire::SpeculativeFacts& s = *facts->speculative;
  std::vector<std::string> parts;
  const std::pair<const std::optional<std::int64_t>*, const char*> k_parts[] = {
      {&s.num_steps, "steps"}, {&s.eagle_topk, "topk"}, {&s.num_draft_tokens, "draft tokens"}};
  for (const auto& [value, label] : k_parts) {
    if (*value) parts.push_back(fmt::format("{} {}", label, **value));
  }
  return parts.empty() ? s.algorithm : fmt::format("{} {}", s.algorithm, util::join(parts, ", "));
}

std::string probe_text(const results::ProbeResult& p) {
  if (p.skipped) return p.name + " skipped";
  const bool counted = p.name == "arithmetic" || p.name == "gsm8k";
  const std::string counts = counted ? fmt::format(" {}/{}", p.correct, p.n) : "";
  std::string text = fmt::format("{}{} {}", p.name, counts, p.passed ? "passed" : "FAILED");
  if (p.wilson_low && p.wilson_high) {
    text += fmt::format(" (accuracy {:.2f}, 95% Wilson {:.2f}–{:.2f})", p.accuracy, *p.wilson_low, *p.wilson_high);
  }
  return text;
}

}  // namespace

util::Result<ServerFacts> read_server_facts(const std::filesystem::path& file) {
  auto read = results::read_server_facts(file);
  if (!read) return std::unexpected(read.error());
  ServerFacts out;
  if (!*read) return out;
  const results::ServerFactsFile& f = **read;
  out.found = true;
  out.engine = f.engine;
  out.launch = f.launch;
  out.fingerprint = f.fingerprint;
  out.captured_at = f.captured_at;
  out.gpus = f.gpus;
  if (f.facts) {
    out.engine_version = f.facts->version;
    out.model = f.facts->model;
    out.context_length = f.facts->context_length;
    out.kv_pool_tokens = f.facts->kv_pool_tokens;
    out.max_running_requests = f.facts->max_running_requests;
    if (f.facts->sim) {
      out.sim_hardware = f.facts->sim->hardware;
      out.sim_time_scale = f.facts->sim->time_scale;
    }
  }
  out.speculative = speculative_text(f.facts);
  for (const auto& p : f.parts) out.parts.emplace_back(p.part, p.launch);
  if (f.facts && f.facts->disaggregation) out.kv_transfer = f.facts->disaggregation->kv_transfer;
  return out;
}

util::Result<GateResult> read_gate(const std::filesystem::path& file) {
  auto read = results::read_gate(file);
  if (!read) return std::unexpected(read.error());
  GateResult out;
  if (!*read) return out;
  out.found = true;
  out.passed = (*read)->passed;
  out.required = (*read)->required;
  std::vector<std::string> probes;
  for (const auto& p : (*read)->probes) {
    probes.push_back(probe_text(p));
    if (p.name == "gsm8k" && p.wilson_low && p.wilson_high) {
      out.accuracy = GateResult::Accuracy{p.dataset, p.correct, p.n, p.accuracy, *p.wilson_low, *p.wilson_high};
    }
  }
  out.probes = util::join(probes, "; ");
  return out;
}

std::string gate_verdict(const GateResult& g) {
  if (!g.found || !g.passed) return "not run";
  if (*g.passed) return "passed";
  return g.required ? "FAILED" : "failed (not required)";
}

}  // namespace servebench::report
