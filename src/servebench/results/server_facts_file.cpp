#include "servebench/results/server_facts_file.hpp"

#include <boost/json.hpp>

#include "servebench/util/file_io.hpp"
#include "servebench/util/redact.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::results {
namespace json = boost::json;
namespace {

// What an arm whose engine could not be asked records: every fact unknown.
json::object unknown_facts() {
  return json::object{{"version", nullptr},        {"model", nullptr}, {"context_length", nullptr},
                      {"kv_pool_tokens", nullptr}, {"max_running_requests", nullptr}, {"speculative", nullptr}};
}

std::optional<RecipeOrigin> recipe_of(const json::object& o) {
  const auto* r = o.if_contains("recipe");
  if (r == nullptr || !r->is_object()) return std::nullopt;
  auto catalog = util::json_string(r->get_object(), "catalog");
  auto select = util::json_string(r->get_object(), "select");
  if (!catalog || !select) return std::nullopt;
  return RecipeOrigin{*catalog, *select};
}

json::object facts_or_unknown(const std::optional<wire::ServerFacts>& facts, const std::string& error) {
  return facts && error.empty() ? wire::to_json(*facts) : unknown_facts();
}

json::object part_json(const PartFacts& p) {
  json::object o{{"part", p.part},         {"launch", p.launch}, {"launched", p.launched},
                 {"base_url", p.base_url}, {"facts", facts_or_unknown(p.facts, p.facts_error)}};
  if (!p.facts_error.empty()) o["facts_error"] = p.facts_error;
  if (p.facts && p.facts_error.empty() && p.facts->sim) o["sim"] = p.facts->sim->block;
  o["raw"] = p.raw;
  return o;
}

// `facts` (with the `sim` block beside it), `facts_error` and `raw` of a server's object: the file's
// own or one part's.
void read_facts_of(const json::object& o, std::optional<wire::ServerFacts>& facts, std::string& error, json::value& raw) {
  if (const auto* f = o.if_contains("facts"); f != nullptr && f->is_object()) {
    facts = wire::server_facts_from_json(f->get_object());
    if (const auto* sim = o.if_contains("sim"); sim != nullptr && sim->is_object()) {
      facts->sim = wire::read_sim_facts(sim->get_object());
    }
  }
  error = util::json_string(o, "facts_error").value_or("");
  if (const auto* r = o.if_contains("raw")) raw = *r;
}

PartFacts part_of(const json::object& o) {
  PartFacts p;
  p.part = util::json_string(o, "part").value_or("");
  p.launch = util::json_string(o, "launch").value_or("");
  p.launched = util::json_string(o, "launched").value_or("");
  p.base_url = util::json_string(o, "base_url").value_or("");
  read_facts_of(o, p.facts, p.facts_error, p.raw);
  return p;
}

}  // namespace

json::object to_json(const ServerFactsFile& f) {
  json::object o;
  o["schema"] = k_server_facts_schema;
  o["arm"] = f.arm;
  o["engine"] = f.engine;
  o["gpus"] = f.gpus ? json::value(*f.gpus) : json::value(nullptr);
  o["launch"] = f.launch;
  o["launched"] = f.launched;
  json::object env;
  for (const auto& [name, value] : f.env) env[name] = value;
  o["env"] = std::move(env);
  o["fingerprint"] = f.fingerprint;
  o["base_url"] = f.base_url;
  o["captured_at"] = f.captured_at;
  if (f.recipe) o["recipe"] = json::object{{"catalog", f.recipe->catalog}, {"select", f.recipe->select}};
  const bool known = f.facts && f.facts_error.empty();
  o["facts"] = facts_or_unknown(f.facts, f.facts_error);
  if (!f.facts_error.empty()) o["facts_error"] = f.facts_error;
  o["raw"] = f.raw;
  if (known && f.facts->sim) o["sim"] = f.facts->sim->block;
  if (!f.parts.empty()) {
    json::array parts;
    for (const auto& p : f.parts) parts.push_back(part_json(p));
    o["parts"] = std::move(parts);
  }
  return o;
}

util::Result<ServerFactsFile> parse_server_facts(std::string_view text, const std::string& what) {
  auto v = util::parse_json(text, what);
  if (!v) return util::fail(util::ErrorKind::bad_input, v.error().message);
  if (!v->is_object()) return util::failf(util::ErrorKind::bad_input, "{}: not a JSON object", what);
  const json::object& o = v->get_object();
  ServerFactsFile f;
  f.arm = util::json_string(o, "arm").value_or("");
  f.engine = util::json_string(o, "engine").value_or("");
  f.gpus = util::json_int(o, "gpus");
  f.launch = util::json_string(o, "launch").value_or("");
  f.launched = util::json_string(o, "launched").value_or("");
  if (const auto* env = o.if_contains("env"); env != nullptr && env->is_object()) {
    for (const auto& kv : env->get_object()) {
      if (kv.value().is_string()) f.env.emplace_back(std::string(kv.key()), std::string(kv.value().get_string()));
    }
  }
  f.fingerprint = util::json_string(o, "fingerprint").value_or("");
  f.base_url = util::json_string(o, "base_url").value_or("");
  f.captured_at = util::json_string(o, "captured_at").value_or("");
  f.recipe = recipe_of(o);
  read_facts_of(o, f.facts, f.facts_error, f.raw);
  if (const auto* parts = o.if_contains("parts"); parts != nullptr && parts->is_array()) {
    for (const auto& p : parts->get_array()) {
      if (p.is_object()) f.parts.push_back(part_of(p.get_object()));
    }
  }
  return f;
}

util::Result<std::optional<ServerFactsFile>> read_server_facts(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return std::optional<ServerFactsFile>{};
  auto text = util::read_file(path);
  if (!text) return std::unexpected(text.error());
  auto f = parse_server_facts(*text, path.string());
  if (!f) return std::unexpected(f.error());
  return std::optional<ServerFactsFile>{std::move(*f)};
}

util::Result<void> write_server_facts(const std::filesystem::path& path, const ServerFactsFile& f) {
  if (auto ok = util::make_dirs(path.parent_path()); !ok) return ok;
  // The launch command, its env and the server's own /server_info (SGLang echoes api_key there).
  boost::json::value v = to_json(f);
  util::redact_json(v);
  return util::write_file_atomic(path, util::to_json_text_pretty(v) + "\n");
}

}  // namespace servebench::results
