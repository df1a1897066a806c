#include "servebench/campaign/arm_spec.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "servebench/campaign/in_service.hpp"
#include "servebench/campaign/pd_arm.hpp"
#include "servebench/campaign/ranges.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {
namespace {

GateSpec read_gate(util::YamlFields& arm) {
  GateSpec g;
  const YAML::Node n = arm.node("gate");
  if (!n.IsDefined() || n.IsNull()) return g;
  if (n.IsScalar()) {  // `gate: false` turns the gate off
    g.enabled = arm.take(util::yaml_bool(arm.file(), n, arm.what() + ".gate"), true);
    return g;
  }
  auto mapped = util::YamlFields::of(arm.file(), n, arm.what() + ".gate");
  if (!mapped) {
    arm.note(mapped.error());
    return g;
  }
  util::YamlFields& f = *mapped;
  g.enabled = f.boolean("enabled", g.enabled);
  g.required = f.boolean("required", g.required);
  g.problems = f.integer("problems", g.problems);
  if (g.problems < 1 || g.problems > 1000) f.note_at(f.node("problems"), "gate.problems must be in 1..1000");
  g.min_accuracy = f.number("min_accuracy", g.min_accuracy);
  g.min_natural_stop_rate = f.number("min_natural_stop_rate", g.min_natural_stop_rate);
  for (const double v : {g.min_accuracy, g.min_natural_stop_rate}) {
    if (!(v >= 0 && v <= 1)) f.note_at(n, "gate.min_accuracy and gate.min_natural_stop_rate must be in [0, 1]");
  }
  g.max_tokens = f.integer_in("max_tokens", g.max_tokens, 16, ranges::k_max_gate_tokens);
  g.seed = static_cast<std::uint64_t>(f.integer_in("seed", static_cast<std::int64_t>(g.seed), 0, ranges::k_max_seed));
  if (const auto dataset = f.optional_string("dataset")) {
    if (dataset->empty()) f.note_at(f.node("dataset"), "gate.dataset must name a GSM8K-format JSONL file");
    g.dataset = *dataset;  // resolved against the campaign file's directory by the spec reader
  }
  const std::string tool = f.string("tool_call", "auto");
  if (tool == "auto") g.tool_call = ToolCallProbe::when_declared;
  else if (auto on = util::parse_bool(tool, "gate.tool_call")) g.tool_call = *on ? ToolCallProbe::on : ToolCallProbe::off;
  else f.note_at(f.node("tool_call"), "gate.tool_call must be auto, true or false");
  if (auto ok = f.finish(); !ok) arm.note(ok.error());
  return g;
}

std::vector<flags::EnvVar> read_env(util::YamlFields& arm) {
  std::vector<flags::EnvVar> env;
  const YAML::Node n = arm.node("env");
  if (!n.IsDefined() || n.IsNull()) return env;
  if (!n.IsMap()) {
    arm.note_at(n, arm.what() + ".env must be a mapping NAME: value");
    return env;
  }
  for (const auto& kv : n) {
    const std::string name = kv.first.Scalar();
    if (!kv.second.IsScalar()) arm.note_at(kv.second, fmt::format("{}.env.{} must be a string", arm.what(), name));
    else env.push_back({name, kv.second.Scalar()});
  }
  return env;
}

std::optional<RecipeKey> read_recipe(util::YamlFields& arm) {
  const YAML::Node n = arm.node("recipe");
  if (!n.IsDefined() || n.IsNull()) return std::nullopt;
  auto f = util::YamlFields::of(arm.file(), n, arm.what() + ".recipe");
  if (!f) {
    arm.note(f.error());
    return std::nullopt;
  }
  RecipeKey key{f->required_string("catalog"), f->required_string("select")};
  if (auto ok = f->finish(); !ok) arm.note(ok.error());
  return key;
}

// launch, base_url and {port} must fit together; the launch must split like a shell command.
void check_endpoint(util::YamlFields& f, ArmSpec& a) {
  const bool port_in_url = a.base_url.find(k_port) != std::string::npos;
  if (!a.launch) {
    if (a.base_url.empty()) f.note_at(f.self_node(), fmt::format("{} needs 'launch' or 'base_url' (attach to a running server)", f.what()));
    else if (port_in_url) f.note_at(f.node("base_url"), fmt::format("{}: base_url uses {{port}} but there is no launch to pick it", f.what()));
    return;
  }
  if (auto words = util::shell_split(*a.launch); !words || words->empty()) {
    f.note_at(f.node("launch"), fmt::format("{}.launch: {}", f.what(), words ? "empty command" : words.error().message));
    return;
  }
  const bool port_in_launch = a.launch->find(k_port) != std::string::npos;
  if (a.base_url.empty()) {
    if (!port_in_launch) f.note_at(f.node("launch"), fmt::format("{}: give base_url, or use {{port}} in launch", f.what()));
    a.base_url = "http://127.0.0.1:{port}";
  } else if (port_in_url != port_in_launch) {
    f.note_at(f.node("base_url"), fmt::format("{}: use {{port}} in both launch and base_url, or in neither", f.what()));
  }
}

void check_api(util::YamlFields& f, const ArmSpec& a, RequestApi api) {
  const bool native = a.engine == engines::Engine::sglang || a.engine == engines::Engine::sim;
  if (api == RequestApi::generate && !native) {
    f.note_at(f.node("engine"), fmt::format("{}: protocol.request.api generate needs engine sglang or sim, not {}",
                                            f.what(), engines::to_string(a.engine)));
  }
}

std::optional<ArmSpec> read_arm(util::YamlFields& root, const YAML::Node& n, const CampaignSpec& spec) {
  const ProtocolSpec& protocol = spec.protocol;
  std::string label = "arm";
  if (n.IsMap() && n["name"] && n["name"].IsScalar()) label = fmt::format("arm '{}'", n["name"].Scalar());
  auto mapped = util::YamlFields::of(root.file(), n, label);
  if (!mapped) {
    root.note(mapped.error());
    return std::nullopt;
  }
  util::YamlFields& f = *mapped;
  ArmSpec a;
  a.name = f.required_string("name");
  if (!f.failed() && !is_valid_name(a.name)) f.note_at(f.node("name"), name_rule("arm name", a.name));
  const std::string engine = f.required_string("engine");
  if (!f.failed()) {
    if (auto e = engines::parse_engine(engine)) a.engine = *e;
    else f.note_at(f.node("engine"), fmt::format("{}.engine: {}", f.what(), e.error().message));
  }
  a.launch = f.optional_string("launch");
  a.base_url = f.string("base_url");
  a.env = read_env(f);
  a.api_key_env = f.string("api_key_env", spec.api_key_env);
  if (!a.api_key_env.empty() && !is_env_name(a.api_key_env)) {
    f.note_at(f.node("api_key_env"), env_name_rule(f.what() + ".api_key_env", a.api_key_env));
  }
  a.gpus = static_cast<int>(f.integer_in("gpus", 1, 1, ranges::k_max_gpus));
  a.nodes = static_cast<int>(f.integer_in("nodes", 1, 1, 1024));
  a.model = f.string("model");
  a.ready_timeout = std::chrono::seconds(f.integer_in("ready_timeout_s", 600, 1, ranges::k_max_ready_timeout_s));
  a.stop_timeout = std::chrono::seconds(f.integer_in("stop_timeout_s", 30, 1, ranges::k_max_stop_timeout_s));
  a.before = f.string("before");
  a.after = f.string("after");
  a.gate = read_gate(f);
  a.recipe = read_recipe(f);
  a.in_service = read_in_service(f);
  read_pd_parts(f, a);
  if (!f.failed() && !a.pd) check_endpoint(f, a);
  if (!f.failed()) check_api(f, a, protocol.request.api);
  if (auto ok = f.finish(); !ok) root.note(ok.error());
  return a;
}

}  // namespace

bool is_valid_name(std::string_view s) {
  if (s.empty() || s == "." || s == "..") return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
}

bool is_env_name(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string env_name_rule(std::string_view what, std::string_view value) {
  return fmt::format("{} '{}' must name an environment variable: letters, digits and '_', not starting with a digit "
                     "(the key itself goes into that variable, never into the file)",
                     what, value);
}

std::string name_rule(std::string_view what, std::string_view value) {
  return fmt::format("{} '{}' may use only letters, digits, '.', '_' and '-' (it names a directory)", what, value);
}

void read_arms(util::YamlFields& root, CampaignSpec& spec) {
  const YAML::Node list = root.node("arms");
  if (!list.IsDefined() || !list.IsSequence() || list.size() == 0) {
    return root.note_at(list, "the campaign needs 'arms': a list of {name, engine, launch or base_url, ...}");
  }
  std::set<std::string> names;
  for (const auto& n : list) {
    auto arm = read_arm(root, n, spec);
    if (root.failed() || !arm) return;
    if (!names.insert(arm->name).second) return root.note_at(n["name"], fmt::format("duplicate arm name '{}'", arm->name));
    spec.arms.push_back(std::move(*arm));
  }
}

}  // namespace servebench::campaign

namespace servebench::campaign {

wire::Backend backend_of(const ArmSpec& arm, RequestApi api) {
  using B = wire::Backend;
  const bool chat = api == RequestApi::chat;
  switch (arm.engine) {
    case engines::Engine::sglang: return api == RequestApi::generate ? B::sglang : chat ? B::sglang_oai_chat : B::sglang_oai;
    // The simulator speaks SGLang's routes; /generate carries exact per-request speculative data.
    case engines::Engine::sim: return api == RequestApi::generate ? B::sim : chat ? B::sglang_oai_chat : B::sglang_oai;
    case engines::Engine::vllm: return chat ? B::vllm_chat : B::vllm;
    case engines::Engine::llamacpp: return chat ? B::openai_chat : B::llamacpp;
    case engines::Engine::trtllm: return chat ? B::openai_chat : B::trtllm;
    case engines::Engine::openai: return chat ? B::openai_chat : B::openai;
  }
  return B::openai;
}

}  // namespace servebench::campaign
