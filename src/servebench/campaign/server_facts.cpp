#include "servebench/campaign/server_facts.hpp"

#include <boost/json.hpp>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::campaign {
namespace {

namespace json = boost::json;

json::object env_object(const ArmSpec& arm) {
  json::object env;
  for (const auto& e : arm.env) env[e.name] = e.value;
  return env;
}

}  // namespace

util::Result<std::string> arm_fingerprint(const ArmSpec& arm) {
  if (!arm.launch) return std::string();
  return flags::fingerprint_command(engines::dialect_of(arm.engine), *arm.launch, arm.env);
}

CapturedFacts capture_facts(const ArmSpec& arm, ArmServer& server, const util::WallClock& wall) {
  CapturedFacts out;
  out.fingerprint = arm_fingerprint(arm).value_or("");
  json::object& o = out.json;
  o["schema"] = k_server_facts_schema;
  o["arm"] = arm.name;
  o["engine"] = engines::to_string(arm.engine);
  o["gpus"] = arm.gpus;
  o["launch"] = arm.launch.value_or("");
  o["launched"] = server.command();
  o["env"] = env_object(arm);
  o["fingerprint"] = out.fingerprint;
  o["base_url"] = server.base_url();
  o["captured_at"] = util::format_utc(wall.now());
  if (arm.recipe) o["recipe"] = json::object{{"catalog", arm.recipe->catalog}, {"select", arm.recipe->select}};
  auto facts = server.adapter().facts(server.exchange());
  if (!facts) {
    out.facts_error = facts.error().message;
    o["facts"] = json::object{{"version", nullptr}, {"model", nullptr}, {"context_length", nullptr},
                              {"kv_pool_tokens", nullptr}, {"max_running_requests", nullptr}, {"speculative", nullptr}};
    o["facts_error"] = out.facts_error;
    o["raw"] = json::object{};
    return out;
  }
  o["facts"] = wire::to_json(*facts);
  out.limits = {facts->context_length, facts->kv_pool_tokens, facts->max_running_requests};
  auto raw = util::parse_json(facts->raw_json.empty() ? "{}" : facts->raw_json, "server facts");
  o["raw"] = raw ? *raw : json::value(json::object{});
  if (facts->sim) {
    out.time_scale = facts->sim->time_scale;
    o["sim"] = facts->sim->block;
  }
  return out;
}

util::Result<void> write_facts(const std::filesystem::path& path, const CapturedFacts& facts) {
  if (auto ok = util::make_dirs(path.parent_path()); !ok) return ok;
  return util::write_file_atomic(path, util::to_json_text_pretty(facts.json) + "\n");
}

std::optional<ArmLimits> read_limits(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  if (!text) return std::nullopt;
  auto v = util::parse_json(*text, path.string());
  if (!v || !v->is_object()) return std::nullopt;
  const auto* facts = v->get_object().if_contains("facts");
  if (facts == nullptr || !facts->is_object()) return std::nullopt;
  const auto& f = facts->get_object();
  return ArmLimits{util::json_int(f, "context_length"), util::json_int(f, "kv_pool_tokens"),
                   util::json_int(f, "max_running_requests")};
}

}  // namespace servebench::campaign
