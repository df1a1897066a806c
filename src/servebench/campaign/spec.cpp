#include "servebench/campaign/scenario_kind.hpp"
#include "servebench/campaign/spec.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "servebench/campaign/arm_spec.hpp"
#include "servebench/campaign/assets.hpp"
#include "servebench/campaign/gsm8k.hpp"
#include "servebench/campaign/trace_scenario.hpp"
#include "servebench/campaign/ranges.hpp"
#include "servebench/load/run_settings.hpp"
#include "servebench/util/yaml_fields.hpp"
#include "servebench/util/file_io.hpp"

namespace servebench::campaign {
namespace {

using util::ErrorKind;
using util::Result;

struct ApiName {
  RequestApi api;
  std::string_view name;
};
constexpr ApiName k_apis[] = {{RequestApi::completions, "completions"},
                              {RequestApi::chat, "chat"},
                              {RequestApi::generate, "generate"}};

std::filesystem::path resolve_path(const std::filesystem::path& base_dir, const std::string& p) {
  const std::filesystem::path path(p);
  return (path.is_absolute() ? path : base_dir / path).lexically_normal();
}

RequestSpec read_request(util::YamlFields& parent) {
  RequestSpec r;
  const YAML::Node n = parent.node("request");
  if (!n.IsDefined() || n.IsNull()) return r;
  auto f = util::YamlFields::of(parent.file(), n, "protocol.request");
  if (!f) {
    parent.note(f.error());
    return r;
  }
  const std::string api = f->string("api", "completions");
  const auto it = std::find_if(std::begin(k_apis), std::end(k_apis), [&](const ApiName& a) { return a.name == api; });
  if (it == std::end(k_apis)) {
    f->note_at(f->node("api"), fmt::format("protocol.request.api '{}' is not one of completions, chat, generate", api));
  } else {
    r.api = it->api;
  }
  r.stream = f->boolean("stream", r.stream);
  r.ignore_eos = f->boolean("ignore_eos", r.ignore_eos);
  r.temperature = f->number_in("temperature", r.temperature, 0, ranges::k_max_temperature);
  r.seed = static_cast<std::uint64_t>(f->integer_in("seed", static_cast<std::int64_t>(r.seed), 0, ranges::k_max_seed));
  const std::int64_t timeout = f->integer("timeout_s", r.timeout.count());
  if (auto why = load::setting_problem(load::Setting::request_timeout, static_cast<double>(timeout), load::k_campaign_keys)) {
    f->note_at(f->node("timeout_s"), *why);
  }
  r.timeout = std::chrono::seconds(std::max<std::int64_t>(timeout, 0));
  const std::int64_t stall = f->integer("stall_timeout_s", r.stall_timeout.count());
  if (auto why = load::setting_problem(load::Setting::stall_timeout, static_cast<double>(stall), load::k_campaign_keys)) {
    f->note_at(f->node("stall_timeout_s"), *why);
  }
  r.stall_timeout = std::chrono::seconds(std::max<std::int64_t>(stall, 0));
  if (auto ok = f->finish(); !ok) parent.note(ok.error());
  return r;
}

PromptSourceSpec read_prompts(util::YamlFields& parent, const std::filesystem::path& base_dir) {
  PromptSourceSpec p;
  const YAML::Node n = parent.node("prompts");
  if (!n.IsDefined() || n.IsNull()) return p;
  auto mapped = util::YamlFields::of(parent.file(), n, "protocol.prompts");
  if (!mapped) {
    parent.note(mapped.error());
    return p;
  }
  util::YamlFields& f = *mapped;
  const std::string source = f.string("source", "random-ids");
  const auto path = f.optional_string("path");
  if (source == "corpus") {
    p.kind = PromptSourceKind::corpus;
    if (!path || path->empty()) f.note_at(n, "protocol.prompts with source corpus needs 'path' (a text file)");
    else p.path = resolve_path(base_dir, *path);
  } else if (source != "random-ids") {
    f.note_at(f.node("source"), fmt::format("protocol.prompts.source '{}' is not one of random-ids, corpus", source));
  } else if (path) {
    f.note_at(f.node("path"), "protocol.prompts.path is for source corpus only");
  }
  if (auto ok = f.finish(); !ok) parent.note(ok.error());
  return p;
}

NumPromptsExpr read_num_prompts(util::YamlFields& f) {
  const YAML::Node n = f.node("num_prompts");
  const std::string text = n.IsDefined() && n.IsScalar() ? n.Scalar() : "max(8, 2*c)";
  if (n.IsDefined() && !n.IsScalar()) f.note_at(n, "protocol.num_prompts must be an expression in c, e.g. \"max(8, 2*c)\"");
  auto e = NumPromptsExpr::parse(text);
  if (!e) {
    f.note_at(n, fmt::format("protocol.num_prompts '{}': {}", text, e.error().message));
    return *NumPromptsExpr::parse("8");
  }
  return std::move(*e);
}

void read_protocol(util::YamlFields& root, CampaignSpec& spec, const std::filesystem::path& base_dir) {
  ProtocolSpec& p = spec.protocol;
  p.num_prompts = *NumPromptsExpr::parse("max(8, 2*c)");
  const YAML::Node n = root.node("protocol");
  if (!n.IsDefined() || n.IsNull()) return;
  auto mapped = util::YamlFields::of(root.file(), n, "protocol");
  if (!mapped) return root.note(mapped.error());
  util::YamlFields& f = *mapped;
  p.cold_cache = f.boolean("cold_cache", p.cold_cache);
  p.max_cache_hit_rate = f.nullable_number("max_cache_hit_rate", p.max_cache_hit_rate);
  if (p.max_cache_hit_rate && !(*p.max_cache_hit_rate >= 0 && *p.max_cache_hit_rate <= 1)) {
    f.note_at(f.node("max_cache_hit_rate"), "protocol.max_cache_hit_rate must be in [0, 1] (or null: not verified)");
  }
  p.retries = static_cast<int>(f.integer_in("retries", p.retries, 0, 10));
  p.repeats = f.integer("repeats", p.repeats);
  if (p.repeats < 1 || p.repeats > k_max_repeats) {
    f.note_at(f.node("repeats"), fmt::format("protocol.repeats must be in 1..{}", k_max_repeats));
  }
  p.num_prompts = read_num_prompts(f);
  p.warmup_requests = f.integer("warmup_requests", p.warmup_requests);
  if (auto why = load::setting_problem(load::Setting::warmup_requests, static_cast<double>(p.warmup_requests),
                                       load::k_campaign_keys)) {
    f.note_at(f.node("warmup_requests"), *why);
  }
  const std::string percentile = f.string("percentile", "nearest-rank");
  if (auto m = stats::parse_percentile_method(percentile)) p.percentile = *m;
  else f.note_at(f.node("percentile"), fmt::format("protocol.percentile: {}", m.error().message));
  p.client_lag_limit = f.number("client_lag_limit", p.client_lag_limit);
  if (auto why = load::setting_problem(load::Setting::client_lag_limit, p.client_lag_limit, load::k_campaign_keys)) {
    f.note_at(f.node("client_lag_limit"), *why);
  }
  p.request = read_request(f);
  p.prompts = read_prompts(f, base_dir);
  if (auto ok = f.finish(); !ok) root.note(ok.error());
}

std::optional<ScenarioSpec> read_scenario(const std::string& file, const YAML::Node& n, const ProtocolSpec& protocol,
                                          util::YamlFields& root) {
  std::string label = "scenario";
  if (n.IsMap() && n["name"] && n["name"].IsScalar()) label = fmt::format("scenario '{}'", n["name"].Scalar());
  auto mapped = util::YamlFields::of(file, n, label);
  if (!mapped) {
    root.note(mapped.error());
    return std::nullopt;
  }
  util::YamlFields& f = *mapped;
  ScenarioSpec s;
  s.name = f.required_string("name");
  if (!f.failed() && !is_valid_name(s.name)) f.note_at(f.node("name"), name_rule("scenario name", s.name));
  if (!read_scenario_kind(f, s)) {
    if (!f.has("isl") || !f.has("osl")) f.note_at(n, fmt::format("scenario '{}' needs isl >= 1 and osl >= 1", s.name));
    s.isl = f.integer_in("isl", 1, 1, ranges::k_max_tokens);
    s.osl = f.integer_in("osl", 1, 1, ranges::k_max_tokens);
  }
  s.concurrency = f.integers("concurrency");
  const YAML::Node c = f.node("concurrency");
  if (!f.failed() && s.concurrency.empty()) {
    f.note_at(n, fmt::format("scenario '{}' has no concurrency; give a list such as concurrency: [1, 8, 32]", s.name));
  }
  for (std::size_t i = 0; !f.failed() && i < s.concurrency.size(); ++i) {
    const std::int64_t conc = s.concurrency[i];
    if (conc < 1 || conc > ranges::k_max_concurrency) {
      f.note_at(c, fmt::format("scenario '{}': concurrency must be in 1..{} (got {})", s.name, ranges::k_max_concurrency, conc));
    } else if (i > 0 && conc <= s.concurrency[i - 1]) {
      f.note_at(c, fmt::format("scenario '{}': concurrency must be strictly increasing", s.name));
    } else if (auto np = protocol.num_prompts.eval(conc); !np) {
      f.note_at(c, fmt::format("scenario '{}': protocol.num_prompts {}", s.name, np.error().message));
    } else if (const std::int64_t requests = scenario_prompts(s, *np); requests > ranges::k_max_requests) {
      f.note_at(c, fmt::format("scenario '{}' at c={}: {} requests per point; at most {} (protocol.num_prompts, "
                               "groups × prompts_per_group, conversations × turns)",
                               s.name, conc, requests, ranges::k_max_requests));
    } else if (const std::int64_t sent = requests + protocol.warmup_requests;
               s.isl > ranges::k_max_point_tokens / std::max<std::int64_t>(sent, 1)) {
      f.note_at(c, fmt::format("scenario '{}' at c={}: isl {} × {} requests (warmup included) is more than {} prompt "
                               "tokens per point",
                               s.name, conc, s.isl, sent, ranges::k_max_point_tokens));
    }
  }
  check_scenario_kind(f, s, protocol);
  if (auto ok = f.finish(); !ok) root.note(ok.error());
  return s;
}

void read_scenarios(util::YamlFields& root, CampaignSpec& spec) {
  const YAML::Node list = root.node("scenarios");
  if (!list.IsDefined() || !list.IsSequence() || list.size() == 0) {
    return root.note_at(list, "the campaign needs 'scenarios': a list of {name, isl, osl, concurrency}");
  }
  std::set<std::string> names;
  for (const auto& n : list) {
    auto s = read_scenario(root.file(), n, spec.protocol, root);
    if (root.failed() || !s) return;
    if (!names.insert(s->name).second) return root.note_at(n, fmt::format("duplicate scenario name '{}'", s->name));
    spec.scenarios.push_back(std::move(*s));
  }
}

void read_baseline_and_telemetry(util::YamlFields& root, CampaignSpec& spec, const std::filesystem::path& base_dir) {
  if (const YAML::Node b = root.node("baseline"); b.IsDefined() && !b.IsNull()) {
    auto f = util::YamlFields::of(root.file(), b, "baseline");
    if (!f) return root.note(f.error());
    BaselineSpec baseline;
    baseline.name = f->required_string("name");
    baseline.ledger = resolve_path(base_dir, f->required_string("ledger"));
    if (auto ok = f->finish(); !ok) return root.note(ok.error());
    spec.baseline = std::move(baseline);
  }
  if (const YAML::Node t = root.node("telemetry"); t.IsDefined() && !t.IsNull()) {
    auto f = util::YamlFields::of(root.file(), t, "telemetry");
    if (!f) return root.note(f.error());
    const std::int64_t interval = f->integer_in("interval_s", 30, 1, ranges::k_max_interval_s);
    spec.telemetry.interval = std::chrono::seconds(interval);
    if (auto ok = f->finish(); !ok) root.note(ok.error());
  }
}

}  // namespace

std::string_view to_string(RequestApi a) {
  for (const auto& n : k_apis) {
    if (n.api == a) return n.name;
  }
  return "completions";
}

std::string_view to_string(PromptSourceKind k) { return k == PromptSourceKind::corpus ? "corpus" : "random-ids"; }

const ArmSpec* CampaignSpec::find_arm(std::string_view n) const {
  const auto it = std::find_if(arms.begin(), arms.end(), [&](const ArmSpec& a) { return a.name == n; });
  return it == arms.end() ? nullptr : &*it;
}

const ScenarioSpec* CampaignSpec::find_scenario(std::string_view n) const {
  const auto it = std::find_if(scenarios.begin(), scenarios.end(), [&](const ScenarioSpec& s) { return s.name == n; });
  return it == scenarios.end() ? nullptr : &*it;
}

Result<CampaignSpec> parse_campaign(const std::string& text, const std::string& name,
                                    const std::filesystem::path& base_dir) {
  auto doc = util::load_yaml_string(text, name);
  if (!doc) return std::unexpected(doc.error());
  auto mapped = util::YamlFields::of(name, doc->root, "campaign");
  if (!mapped) return std::unexpected(mapped.error());
  util::YamlFields& root = *mapped;
  CampaignSpec spec;
  spec.file = name;
  spec.name = root.required_string("name");
  if (!root.failed() && !is_valid_name(spec.name)) root.note_at(root.node("name"), name_rule("campaign name", spec.name));
  spec.model = root.string("model");
  spec.api_key_env = root.string("api_key_env");
  if (!spec.api_key_env.empty() && !is_env_name(spec.api_key_env)) {
    root.note_at(root.node("api_key_env"), env_name_rule("api_key_env", spec.api_key_env));
  }
  read_protocol(root, spec, base_dir);
  if (!root.failed()) read_arms(root, spec);
  for (auto& arm : spec.arms) {
    if (root.failed() || arm.gate.dataset.empty()) continue;
    arm.gate.dataset = resolve_path(base_dir, arm.gate.dataset.string());
    // Read it now, so a missing file or a malformed line stops the campaign before anything runs.
    if (auto problems = load_gsm8k(arm.gate.dataset, static_cast<std::size_t>(arm.gate.problems)); !problems) {
      root.note(util::Error{ErrorKind::bad_input, fmt::format("{}: arm '{}': {}", name, arm.name, problems.error().message)});
    }
  }
  if (!root.failed()) read_scenarios(root, spec);
  for (auto& s : spec.scenarios) {
    if (root.failed() || s.kind != ScenarioKind::trace) continue;
    if (auto ok = resolve_trace(s, base_dir); !ok) {
      root.note(util::Error{ErrorKind::bad_input, fmt::format("{}: {}", name, ok.error().message)});
    }
  }
  if (!root.failed()) read_baseline_and_telemetry(root, spec, base_dir);
  if (!root.failed()) read_asset_list(root, spec, base_dir);
  if (auto ok = root.finish(); !ok) return std::unexpected(ok.error());
  return spec;
}

Result<CampaignSpec> read_campaign(const std::filesystem::path& file) {
  auto text = util::read_file(file);
  if (!text) return util::fail(ErrorKind::bad_input, text.error().message);
  const auto dir = std::filesystem::absolute(file).parent_path();
  return parse_campaign(*text, file.string(), dir);
}

}  // namespace servebench::campaign
