#include "servebench/report/arm_facts.hpp"

#include <fmt/format.h>
#include <boost/json.hpp>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"
#include "servebench/wire/server_facts.hpp"

namespace servebench::report {
namespace json = boost::json;
namespace {

// The object in `file`, nullopt when the file does not exist.
util::Result<std::optional<json::object>> read_object(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file)) return std::optional<json::object>{};
  auto text = util::read_file(file);
  if (!text) return std::unexpected(text.error());
  auto v = util::parse_json(*text, file.string());
  if (!v) return std::unexpected(util::Error{util::ErrorKind::bad_input, v.error().message});
  if (!v->is_object()) return util::failf(util::ErrorKind::bad_input, "{}: not a JSON object", file.string());
  return std::optional<json::object>{std::move(v->get_object())};
}

const json::object& child(const json::object& o, std::string_view key) {
  static const json::object k_empty;
  const auto* v = o.if_contains(key);
  return v != nullptr && v->is_object() ? v->get_object() : k_empty;
}

std::string speculative_text(const json::object& facts) {
  const auto* v = facts.if_contains("speculative");
  if (v == nullptr) return "";
  if (v->is_null()) return "none";
  if (!v->is_object()) return "";
  const auto& s = v->get_object();
  const auto algorithm = util::json_string(s, "algorithm");
  if (!algorithm || algorithm->empty()) return "none";
  std::vector<std::string> parts;
  const std::pair<const char*, const char*> k_keys[] = {
      {"num_steps", "steps"}, {"eagle_topk", "topk"}, {"num_draft_tokens", "draft tokens"}};
  for (const auto& [key, label] : k_keys) {
    if (auto n = util::json_int(s, key)) parts.push_back(fmt::format("{} {}", label, *n));
  }
  if (auto adaptive = util::json_bool(s, "adaptive"); adaptive && *adaptive) parts.emplace_back("adaptive");
  return parts.empty() ? *algorithm : fmt::format("{} {}", *algorithm, util::join(parts, ", "));
}

std::string probe_text(const json::object& p) {
  const std::string name = util::json_string(p, "name").value_or("probe");
  if (util::json_bool(p, "skipped").value_or(false)) return name + " skipped";
  const bool passed = util::json_bool(p, "passed").value_or(false);
  const auto n = util::json_int(p, "n");
  const auto correct = util::json_int(p, "correct");
  const std::string counts = n && correct ? fmt::format(" {}/{}", *correct, *n) : "";
  return fmt::format("{}{} {}", name, counts, passed ? "passed" : "FAILED");
}

}  // namespace

util::Result<ServerFacts> read_server_facts(const std::filesystem::path& file) {
  auto object = read_object(file);
  if (!object) return std::unexpected(object.error());
  ServerFacts out;
  if (!*object) return out;
  const json::object& o = **object;
  const json::object& facts = child(o, "facts");
  out.found = true;
  out.engine = util::json_string(o, "engine").value_or("");
  out.launch = util::json_string(o, "launch").value_or("");
  out.fingerprint = util::json_string(o, "fingerprint").value_or("");
  out.captured_at = util::json_string(o, "captured_at").value_or("");
  out.gpus = util::json_int(o, "gpus");
  out.engine_version = util::json_string(facts, "version").value_or("");
  out.model = util::json_string(facts, "model").value_or("");
  out.context_length = util::json_int(facts, "context_length");
  out.kv_pool_tokens = util::json_int(facts, "kv_pool_tokens");
  out.max_running_requests = util::json_int(facts, "max_running_requests");
  out.speculative = speculative_text(facts);
  const wire::SimFacts sim = wire::read_sim_facts(child(o, "sim"));
  out.sim_hardware = sim.hardware;
  out.sim_time_scale = sim.time_scale;
  return out;
}

util::Result<GateResult> read_gate(const std::filesystem::path& file) {
  auto object = read_object(file);
  if (!object) return std::unexpected(object.error());
  GateResult out;
  if (!*object) return out;
  const json::object& o = **object;
  out.found = true;
  out.passed = util::json_bool(o, "passed");
  out.required = util::json_bool(o, "required").value_or(false);
  std::vector<std::string> probes;
  if (const auto* a = o.if_contains("probes"); a != nullptr && a->is_array()) {
    for (const auto& p : a->get_array()) {
      if (p.is_object()) probes.push_back(probe_text(p.get_object()));
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
