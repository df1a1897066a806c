#include "servebench/recipe/campaign_writer.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "servebench/recipe/command_text.hpp"
#include "servebench/recipe/parallelism.hpp"

namespace servebench::recipe {
namespace {

using util::ErrorKind;
using util::Result;

struct Arm {
  std::string name, engine, launch, select;
  std::int64_t gpus = 1;
};

Result<Arm> arm_of(const Catalog& catalog, const Selection& s, Target target, const ParallelismFlags& pf) {
  PlaceholderValues overrides;
  overrides.set(std::string(k_host_ip), "127.0.0.1");
  overrides.set(std::string(k_port), "{port}");
  auto rendered = render(catalog, s, target, overrides);
  if (!rendered) return std::unexpected(rendered.error());
  // Whatever address the recipe publishes, a campaign arm binds loopback on the campaign's port.
  rendered->set_flag("--host", "127.0.0.1");
  rendered->set_flag(catalog.rendering().port_flag, "{port}");
  auto command = normalize(catalog, *rendered);
  if (!command) return std::unexpected(command.error());
  auto p = parallelism_of(*command, pf);
  if (!p) return std::unexpected(p.error());
  // The arm requires the quality gate, whose arithmetic probe only serve-sim's oracle can answer;
  // serve-sim flags are not part of the fingerprint, so the evidence still matches the recipe.
  if (target == Target::sim) rendered->flags.push_back({"--sim-oracle"});
  return Arm{arm_name(catalog, s), target == Target::sim ? "sim" : std::string(flags::to_string(catalog.engine)),
             to_command_line(*rendered), rendered->selection, p->gpus()};
}

void emit_protocol(YAML::Emitter& y, const Catalog& catalog) {
  y << YAML::Key << "protocol" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "cold_cache" << YAML::Value << true;
  y << YAML::Key << "max_cache_hit_rate" << YAML::Value << 0.01;
  y << YAML::Key << "retries" << YAML::Value << 1;
  y << YAML::Key << "num_prompts" << YAML::Value << YAML::DoubleQuoted << catalog.benchmark.num_prompts;
  y << YAML::Key << "warmup_requests" << YAML::Value << 2;
  y << YAML::Key << "percentile" << YAML::Value << "nearest-rank";
  y << YAML::Key << "request" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "api" << YAML::Value
    << "completions" << YAML::Key << "stream" << YAML::Value << true << YAML::Key << "ignore_eos" << YAML::Value << true
    << YAML::Key << "temperature" << YAML::Value << 0 << YAML::Key << "seed" << YAML::Value << 42 << YAML::EndMap;
  y << YAML::Key << "prompts" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "source" << YAML::Value
    << "random-ids" << YAML::EndMap;
  y << YAML::EndMap;
}

void emit_arm(YAML::Emitter& y, const Catalog& catalog, const Arm& arm) {
  y << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << arm.name;
  y << YAML::Key << "engine" << YAML::Value << arm.engine;
  y << YAML::Key << "launch" << YAML::Value << YAML::DoubleQuoted << arm.launch;
  y << YAML::Key << "base_url" << YAML::Value << YAML::DoubleQuoted << "http://127.0.0.1:{port}";
  y << YAML::Key << "gpus" << YAML::Value << arm.gpus;
  y << YAML::Key << "ready_timeout_s" << YAML::Value << (arm.engine == "sim" ? 60 : 1800);
  y << YAML::Key << "gate" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "required" << YAML::Value
    << true << YAML::EndMap;
  y << YAML::Key << "recipe" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "catalog" << YAML::Value
    << catalog.name << YAML::Key << "select" << YAML::Value << YAML::DoubleQuoted << arm.select << YAML::EndMap;
  y << YAML::EndMap;
}

void emit_scenarios(YAML::Emitter& y, const Catalog& catalog) {
  y << YAML::Key << "scenarios" << YAML::Value << YAML::BeginSeq;
  for (const auto& s : catalog.benchmark.scenarios) {
    y << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << s.name << YAML::Key << "isl"
      << YAML::Value << s.isl << YAML::Key << "osl" << YAML::Value << s.osl << YAML::Key << "concurrency" << YAML::Value
      << YAML::Flow << s.concurrency << YAML::EndMap;
  }
  y << YAML::EndSeq;
}

}  // namespace

Result<std::string> campaign_yaml(const Catalog& catalog, const CampaignRequest& request, const ParallelismFlags& pf) {
  if (catalog.benchmark.scenarios.empty()) {
    return util::failf(ErrorKind::bad_input, "{}: benchmark.scenarios is empty; a campaign needs scenarios", catalog.file);
  }
  if (request.selections.empty()) return util::fail(ErrorKind::bad_input, "a campaign needs at least one selection");
  std::vector<Arm> arms;
  for (const auto& s : request.selections) {
    auto arm = arm_of(catalog, s, request.target, pf);
    if (!arm) return std::unexpected(arm.error());
    if (std::any_of(arms.begin(), arms.end(), [&](const Arm& a) { return a.name == arm->name; })) {
      return util::failf(ErrorKind::bad_input, "selection {} is given twice", arm->select);
    }
    arms.push_back(std::move(*arm));
  }
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << (request.name.empty() ? catalog.name + "-recipe" : request.name);
  y << YAML::Key << "model" << YAML::Value << (catalog.model.card.empty() ? catalog.name : catalog.model.card);
  emit_protocol(y, catalog);
  y << YAML::Key << "arms" << YAML::Value << YAML::BeginSeq;
  for (const auto& arm : arms) emit_arm(y, catalog, arm);
  y << YAML::EndSeq;
  emit_scenarios(y, catalog);
  y << YAML::EndMap;
  return fmt::format("# generated by servebench recipe campaign from {}\n{}\n", catalog.file, y.c_str());
}

}  // namespace servebench::recipe
