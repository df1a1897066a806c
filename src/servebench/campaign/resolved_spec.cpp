// DIR/campaign.yaml: the spec as the campaign ran it, every default written out and paths made
// absolute, so the run directory explains itself and `campaign run DIR/campaign.yaml` reruns it.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "servebench/campaign/scenario_kind.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/results/run_files.hpp"

namespace servebench::campaign {
namespace {

// Numbers as people write them ("0.01", not yaml-cpp's 17-digit form).
std::string num(double v) { return fmt::format("{}", v); }

void emit_protocol(YAML::Emitter& y, const ProtocolSpec& p) {
  y << YAML::Key << "protocol" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "cold_cache" << YAML::Value << p.cold_cache;
  y << YAML::Key << "max_cache_hit_rate" << YAML::Value;
  if (p.max_cache_hit_rate) y << num(*p.max_cache_hit_rate);
  else y << YAML::Null;
  y << YAML::Key << "retries" << YAML::Value << p.retries;
  if (p.repeats != 1) y << YAML::Key << "repeats" << YAML::Value << p.repeats;
  y << YAML::Key << "num_prompts" << YAML::Value << YAML::DoubleQuoted << p.num_prompts.text();
  y << YAML::Key << "warmup_requests" << YAML::Value << p.warmup_requests;
  y << YAML::Key << "percentile" << YAML::Value << std::string(stats::to_string(p.percentile));
  y << YAML::Key << "client_lag_limit" << YAML::Value << num(p.client_lag_limit);
  const RequestSpec& r = p.request;
  y << YAML::Key << "request" << YAML::Value << YAML::Flow << YAML::BeginMap;
  y << YAML::Key << "api" << YAML::Value << std::string(to_string(r.api));
  y << YAML::Key << "stream" << YAML::Value << r.stream << YAML::Key << "ignore_eos" << YAML::Value << r.ignore_eos;
  y << YAML::Key << "temperature" << YAML::Value << num(r.temperature);
  y << YAML::Key << "seed" << YAML::Value << r.seed << YAML::Key << "timeout_s" << YAML::Value << r.timeout.count();
  y << YAML::Key << "stall_timeout_s" << YAML::Value << r.stall_timeout.count();
  y << YAML::EndMap;
  y << YAML::Key << "prompts" << YAML::Value << YAML::Flow << YAML::BeginMap;
  y << YAML::Key << "source" << YAML::Value << std::string(to_string(p.prompts.kind));
  if (p.prompts.kind == PromptSourceKind::corpus) y << YAML::Key << "path" << YAML::Value << p.prompts.path.string();
  y << YAML::EndMap;
  y << YAML::EndMap;
}

std::string_view tool_call_text(ToolCallProbe t) {
  return t == ToolCallProbe::on ? "true" : t == ToolCallProbe::off ? "false" : "auto";
}

void emit_gate(YAML::Emitter& y, const GateSpec& g) {
  y << YAML::Key << "gate" << YAML::Value << YAML::Flow << YAML::BeginMap;
  y << YAML::Key << "enabled" << YAML::Value << g.enabled << YAML::Key << "required" << YAML::Value << g.required;
  y << YAML::Key << "problems" << YAML::Value << g.problems;
  y << YAML::Key << "min_accuracy" << YAML::Value << num(g.min_accuracy);
  y << YAML::Key << "min_natural_stop_rate" << YAML::Value << num(g.min_natural_stop_rate);
  y << YAML::Key << "max_tokens" << YAML::Value << g.max_tokens;
  y << YAML::Key << "tool_call" << YAML::Value << std::string(tool_call_text(g.tool_call));
  y << YAML::Key << "seed" << YAML::Value << g.seed;
  if (!g.dataset.empty()) y << YAML::Key << "dataset" << YAML::Value << g.dataset.string();
  y << YAML::EndMap;
}

void emit_arm(YAML::Emitter& y, const ArmSpec& a, const std::string& default_key_env) {
  y << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << a.name;
  y << YAML::Key << "engine" << YAML::Value << std::string(engines::to_string(a.engine));
  if (a.launch) y << YAML::Key << "launch" << YAML::Value << YAML::DoubleQuoted << *a.launch;
  if (a.pd) {
    for (const PdPart part : k_pd_parts) {
      y << YAML::Key << std::string(to_string(part)) << YAML::Value << YAML::DoubleQuoted << a.pd->command(part);
    }
  }
  y << YAML::Key << "base_url" << YAML::Value << YAML::DoubleQuoted << a.base_url;
  if (!a.env.empty()) {
    y << YAML::Key << "env" << YAML::Value << YAML::BeginMap;
    for (const auto& e : a.env) y << YAML::Key << e.name << YAML::Value << YAML::DoubleQuoted << e.value;
    y << YAML::EndMap;
  }
  if (!a.api_key_env.empty() || !default_key_env.empty()) {
    y << YAML::Key << "api_key_env" << YAML::Value << YAML::DoubleQuoted << a.api_key_env;
  }
  y << YAML::Key << "gpus" << YAML::Value << a.gpus;
  if (a.nodes != 1) y << YAML::Key << "nodes" << YAML::Value << a.nodes;  // single-node files stay as they were
  if (!a.model.empty()) y << YAML::Key << "model" << YAML::Value << a.model;
  y << YAML::Key << "ready_timeout_s" << YAML::Value << a.ready_timeout.count();
  y << YAML::Key << "stop_timeout_s" << YAML::Value << a.stop_timeout.count();
  if (!a.before.empty()) y << YAML::Key << "before" << YAML::Value << YAML::DoubleQuoted << a.before;
  if (!a.after.empty()) y << YAML::Key << "after" << YAML::Value << YAML::DoubleQuoted << a.after;
  emit_gate(y, a.gate);
  if (a.recipe) {
    y << YAML::Key << "recipe" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "catalog" << YAML::Value
      << a.recipe->catalog << YAML::Key << "select" << YAML::Value << YAML::DoubleQuoted << a.recipe->select
      << YAML::EndMap;
  }
  if (a.in_service) {
    y << YAML::Key << "in_service" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "url" << YAML::Value
      << YAML::DoubleQuoted << a.in_service->url << YAML::Key << "restore_check" << YAML::Value
      << std::string(to_string(a.in_service->check)) << YAML::Key << "restore_timeout_s" << YAML::Value
      << a.in_service->restore_timeout.count() << YAML::EndMap;
  }
  y << YAML::EndMap;
}

}  // namespace

std::string resolved_yaml(const CampaignSpec& spec) {
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << spec.name;
  if (!spec.model.empty()) y << YAML::Key << "model" << YAML::Value << spec.model;
  if (!spec.api_key_env.empty()) y << YAML::Key << "api_key_env" << YAML::Value << spec.api_key_env;
  emit_protocol(y, spec.protocol);
  y << YAML::Key << "arms" << YAML::Value << YAML::BeginSeq;
  for (const auto& a : spec.arms) emit_arm(y, a, spec.api_key_env);
  y << YAML::EndSeq;
  y << YAML::Key << "scenarios" << YAML::Value << YAML::BeginSeq;
  for (const auto& s : spec.scenarios) {
    y << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << s.name;
    if (s.kind == ScenarioKind::fixed || s.kind == ScenarioKind::controlled_hit_rate) {
      y << YAML::Key << "isl" << YAML::Value << s.isl;
    }
    emit_scenario_kind(y, s);
    if (s.kind != ScenarioKind::trace) y << YAML::Key << "osl" << YAML::Value << s.osl;  // a trace has its own
    y << YAML::Key << "concurrency" << YAML::Value << YAML::Flow << s.concurrency << YAML::EndMap;
  }
  y << YAML::EndSeq;
  if (spec.baseline) {
    y << YAML::Key << "baseline" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value
      << spec.baseline->name << YAML::Key << "ledger" << YAML::Value << spec.baseline->ledger.string() << YAML::EndMap;
  }
  y << YAML::Key << "telemetry" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "interval_s"
    << YAML::Value << spec.telemetry.interval.count() << YAML::EndMap;
  if (!spec.assets.empty()) y << YAML::Key << "assets" << YAML::Value << spec.assets;
  y << YAML::EndMap;
  return fmt::format("# resolved by servebench campaign from {}\n{}\n", spec.file, y.c_str());
}

util::Result<CampaignSpec> read_resolved_campaign(const results::RunLayout& run) {
  const auto file = run.campaign_file();
  auto text = results::read_campaign_file(run);
  if (!text) return util::fail(util::ErrorKind::bad_input, text.error().message);
  if (!*text) return util::failf(util::ErrorKind::bad_input, "cannot open {}: No such file or directory", file.string());
  return parse_campaign(**text, file.string(), std::filesystem::absolute(file).parent_path());
}

}  // namespace servebench::campaign
