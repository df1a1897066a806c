#include "servebench/campaign/server_facts.hpp"

#include "servebench/engines/launch_facts.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/sha256.hpp"

namespace servebench::campaign {
namespace {

// What one server (an arm's, or one part of a disaggregated arm) says about itself; a facts route
// that fails is recorded in `error`, not fatal.
struct ReadFacts {
  std::optional<wire::ServerFacts> facts;
  std::string error;
  boost::json::value raw = boost::json::object{};
};

ReadFacts read_facts(ArmServer& server) {
  ReadFacts out;
  auto facts = server.adapter().facts(server.exchange());
  if (!facts) {
    out.error = facts.error().message;
    return out;
  }
  auto raw = util::parse_json(facts->raw_json.empty() ? "{}" : facts->raw_json, "server facts");
  if (raw) out.raw = *raw;
  out.facts = std::move(*facts);
  return out;
}

}  // namespace

util::Result<std::string> arm_fingerprint(const ArmSpec& arm) {
  if (arm.pd) {  // the two servers that decide performance; the router only relays
    auto prefill = flags::fingerprint_command(engines::dialect_of(arm.engine), arm.pd->prefill, arm.env);
    if (!prefill) return prefill;
    auto decode = flags::fingerprint_command(engines::dialect_of(arm.engine), arm.pd->decode, arm.env);
    if (!decode) return decode;
    return "sha256:" + util::sha256_hex("pd\nprefill " + *prefill + "\ndecode " + *decode);
  }
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
  for (std::size_t i = 0; arm.pd && i < server.parts().size(); ++i) {
    ArmServer& part = *server.parts()[i];
    ReadFacts read = read_facts(part);
    f.parts.push_back({std::string(to_string(k_pd_parts[i])), arm.pd->command(k_pd_parts[i]), part.command(),
                       part.base_url(), std::move(read.facts), std::move(read.error), std::move(read.raw)});
  }
  ReadFacts read = read_facts(server);
  f.raw = std::move(read.raw);
  if (!read.facts) {
    f.facts_error = read.error;
    return out;
  }
  if (arm.launch) {  // what the command says and the server does not (llama-server's unified KV cache)
    if (auto launch = flags::normalize_command(engines::dialect_of(arm.engine), *arm.launch, arm.env)) {
      engines::apply_launch(arm.engine, *launch, *read.facts);
    }
  }
  out.limits = {read.facts->context_length, read.facts->kv_pool_tokens, read.facts->max_running_requests};
  if (read.facts->sim) out.time_scale = read.facts->sim->time_scale;
  f.facts = std::move(read.facts);
  return out;
}

std::optional<ArmLimits> read_limits(const std::filesystem::path& path) {
  auto file = results::read_server_facts(path);
  if (!file || !*file || !(*file)->facts) return std::nullopt;
  const wire::ServerFacts& f = *(*file)->facts;
  return ArmLimits{f.context_length, f.kv_pool_tokens, f.max_running_requests};
}

}  // namespace servebench::campaign
