#include "servebench/campaign/server_facts.hpp"

#include "servebench/engines/launch_facts.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::campaign {

util::Result<std::string> arm_fingerprint(const ArmSpec& arm) {
  if (!arm.launch) return std::string();
  return flags::fingerprint_command(engines::dialect_of(arm.engine), *arm.launch, arm.env);
}

CapturedFacts capture_facts(const ArmSpec& arm, ArmServer& server, const util::WallClock& wall) {
  CapturedFacts out;
  results::ServerFactsFile& f = out.file;
  f.arm = arm.name;
  f.engine = std::string(engines::to_string(arm.engine));
  f.gpus = arm.gpus;
  f.launch = arm.launch.value_or("");
  f.launched = server.command();
  for (const auto& e : arm.env) f.env.emplace_back(e.name, e.value);
  f.fingerprint = arm_fingerprint(arm).value_or("");
  f.base_url = server.base_url();
  f.captured_at = util::format_utc(wall.now());
  if (arm.recipe) f.recipe = results::RecipeOrigin{arm.recipe->catalog, arm.recipe->select};
  auto facts = server.adapter().facts(server.exchange());
  if (!facts) {
    f.facts_error = facts.error().message;
    return out;
  }
  if (arm.launch) {  // what the command says and the server does not (llama-server's unified KV cache)
    if (auto launch = flags::normalize_command(engines::dialect_of(arm.engine), *arm.launch, arm.env)) {
      engines::apply_launch(arm.engine, *launch, *facts);
    }
  }
  out.limits = {facts->context_length, facts->kv_pool_tokens, facts->max_running_requests};
  if (facts->sim) out.time_scale = facts->sim->time_scale;
  auto raw = util::parse_json(facts->raw_json.empty() ? "{}" : facts->raw_json, "server facts");
  f.raw = raw ? *raw : boost::json::value(boost::json::object{});
  f.facts = std::move(*facts);
  return out;
}

std::optional<ArmLimits> read_limits(const std::filesystem::path& path) {
  auto file = results::read_server_facts(path);
  if (!file || !*file || !(*file)->facts) return std::nullopt;
  const wire::ServerFacts& f = *(*file)->facts;
  return ArmLimits{f.context_length, f.kv_pool_tokens, f.max_running_requests};
}

}  // namespace servebench::campaign
