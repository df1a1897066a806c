#include "servebench/results/gate_file.hpp"

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/redact.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::results {
namespace json = boost::json;
namespace {

json::object probe_json(const ProbeResult& p) {
  json::object o{{"name", p.name}, {"passed", p.passed}, {"n", p.n}};
  if (p.name == "arithmetic" || p.name == "gsm8k") {
    o["correct"] = p.correct;
    o["accuracy"] = p.accuracy;
    o["natural_stop_rate"] = p.natural_stop_rate;
  }
  if (!p.dataset.empty()) o["dataset"] = p.dataset;
  if (p.wilson_low && p.wilson_high) o["accuracy_wilson_95"] = json::array{*p.wilson_low, *p.wilson_high};
  if (p.identical) o["identical"] = *p.identical;
  if (p.name == "tool_call") o["skipped"] = p.skipped;
  if (!p.detail.empty()) o["detail"] = p.detail;
  return o;
}

ProbeResult probe_of(const json::object& o) {
  ProbeResult p;
  p.name = util::json_string(o, "name").value_or("probe");
  p.passed = util::json_bool(o, "passed").value_or(false);
  p.skipped = util::json_bool(o, "skipped").value_or(false);
  p.n = util::json_int(o, "n").value_or(0);
  p.correct = util::json_int(o, "correct").value_or(0);
  p.accuracy = util::json_number(o, "accuracy").value_or(0);
  p.natural_stop_rate = util::json_number(o, "natural_stop_rate").value_or(0);
  p.identical = util::json_bool(o, "identical");
  p.dataset = util::json_string(o, "dataset").value_or("");
  if (const auto* w = o.if_contains("accuracy_wilson_95"); w != nullptr && w->is_array() && w->get_array().size() == 2 &&
                                                             w->get_array()[0].is_number() && w->get_array()[1].is_number()) {
    p.wilson_low = w->get_array()[0].to_number<double>();
    p.wilson_high = w->get_array()[1].to_number<double>();
  }
  p.detail = util::json_string(o, "detail").value_or("");
  return p;
}

}  // namespace

std::string GateResult::summary() const {
  if (!passed) return "gate not run";
  std::vector<std::string> parts;
  for (const auto& p : probes) {
    if (p.skipped) parts.push_back(p.name + " skipped");
    else if (p.name == "arithmetic") parts.push_back(fmt::format("arithmetic {}/{}", p.correct, p.n));
    else if (p.name == "gsm8k" && p.wilson_low && p.wilson_high) {
      parts.push_back(fmt::format("gsm8k {}/{} (accuracy {:.2f}, 95% Wilson {:.2f}–{:.2f})", p.correct, p.n, p.accuracy,
                                  *p.wilson_low, *p.wilson_high));
    } else if (p.name == "gsm8k") parts.push_back(fmt::format("gsm8k {}/{}", p.correct, p.n));
    else parts.push_back(p.name + (p.passed ? " ok" : " FAILED"));
  }
  return util::join(parts, ", ");
}

json::object to_json(const GateResult& g, const std::string& arm) {
  json::array probes;
  for (const auto& p : g.probes) probes.push_back(probe_json(p));
  json::object out{{"schema", k_gate_schema}, {"arm", arm}, {"required", g.required}};
  out["passed"] = g.passed ? json::value(*g.passed) : json::value(nullptr);
  out["enabled"] = g.enabled;
  out["probes"] = std::move(probes);
  return out;
}

util::Result<GateResult> parse_gate(std::string_view text, const std::string& what) {
  auto v = util::parse_json(text, what);
  if (!v) return util::fail(util::ErrorKind::bad_input, v.error().message);
  if (!v->is_object()) return util::failf(util::ErrorKind::bad_input, "{}: not a JSON object", what);
  const json::object& o = v->get_object();
  GateResult g;
  g.enabled = util::json_bool(o, "enabled").value_or(true);
  g.required = util::json_bool(o, "required").value_or(false);
  g.passed = util::json_bool(o, "passed");
  if (const auto* a = o.if_contains("probes"); a != nullptr && a->is_array()) {
    for (const auto& p : a->get_array()) {
      if (p.is_object()) g.probes.push_back(probe_of(p.get_object()));
    }
  }
  return g;
}

util::Result<std::optional<GateResult>> read_gate(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return std::optional<GateResult>{};
  auto text = util::read_file(path);
  if (!text) return std::unexpected(text.error());
  auto g = parse_gate(*text, path.string());
  if (!g) return std::unexpected(g.error());
  return std::optional<GateResult>{std::move(*g)};
}

util::Result<void> write_gate(const std::filesystem::path& path, const GateResult& g, const std::string& arm) {
  if (auto ok = util::make_dirs(path.parent_path()); !ok) return ok;
  boost::json::value v = to_json(g, arm);
  util::redact_json(v);  // answers are the server's text
  return util::write_file_atomic(path, util::to_json_text_pretty(v) + "\n");
}

}  // namespace servebench::results
