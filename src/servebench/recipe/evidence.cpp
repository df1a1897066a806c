#include "servebench/recipe/evidence.hpp"

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/results/ledger.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

namespace json = boost::json;
using util::ErrorKind;
using util::Result;

std::optional<RecipeRef> recipe_of(const json::object& o) {
  const auto* r = o.if_contains("recipe");
  if (r == nullptr || !r->is_object()) return std::nullopt;
  auto catalog = util::json_string(r->get_object(), "catalog");
  auto select = util::json_string(r->get_object(), "select");
  if (!catalog || !select) return std::nullopt;
  return RecipeRef{*catalog, *select};
}

std::string hardware_of(const ArmFacts& f) {
  if (f.recipe) {
    for (const auto part : util::split(f.recipe->select, ',')) {
      const auto item = util::trim(part);
      if (item.starts_with("hw=")) return std::string(item.substr(3));
    }
  }
  const auto words = util::shell_split(f.launch);
  if (!words) return {};
  for (std::size_t i = 0; i < words->size(); ++i) {
    const std::string& w = (*words)[i];
    if (w == "--hw" && i + 1 < words->size()) return (*words)[i + 1];
    if (w.starts_with("--hw=")) return w.substr(5);
  }
  return {};
}

std::string version_of(const json::object& o) {
  const auto* facts = o.if_contains("facts");
  if (facts == nullptr || !facts->is_object()) return {};
  return util::json_string(facts->get_object(), "version").value_or("");
}

// An arm whose facts file could not be read: only what the ledger says.
ArmFacts facts_from_point(const std::filesystem::path& dir, const results::PointRecord& p) {
  ArmFacts f;
  f.run_dir = dir.string();
  f.arm = p.arm;
  f.engine = p.server.engine;
  return f;
}

// Facts files of the arms a run directory's points name, each read once.
void read_arm_facts(const std::filesystem::path& dir, Evidence& out) {
  for (const auto& ep : out.points) {
    if (ep.run_dir != dir.string() || out.arm(ep.run_dir, ep.point.arm) != nullptr) continue;
    const std::string rel = ep.point.server.facts.empty() ? fmt::format("arms/{}/server_facts.json", ep.point.arm)
                                                           : ep.point.server.facts;
    const auto path = dir / rel;
    auto text = util::read_file(path);
    if (!text) {
      out.issues.push_back(fmt::format("{}: cannot read arm facts: {}", path.string(), text.error().message));
      out.arms.push_back(facts_from_point(dir, ep.point));
      continue;
    }
    auto facts = parse_arm_facts(*text, path.string());
    if (!facts) {
      out.issues.push_back(facts.error().message);
      out.arms.push_back(facts_from_point(dir, ep.point));
      continue;
    }
    facts->run_dir = dir.string();
    out.arms.push_back(std::move(*facts));
  }
}

}  // namespace

std::string EvidencePoint::id() const { return results::point_id(results::key_of(point)); }

const ArmFacts* Evidence::arm(const std::string& run_dir, const std::string& name) const {
  for (const auto& a : arms) {
    if (a.run_dir == run_dir && a.arm == name) return &a;
  }
  return nullptr;
}

Result<ArmFacts> parse_arm_facts(std::string_view text, const std::string& what) {
  auto v = util::parse_json(text, what);
  if (!v) return util::fail(ErrorKind::bad_input, v.error().message);
  if (!v->is_object()) return util::failf(ErrorKind::bad_input, "{}: not a JSON object", what);
  const json::object& o = v->get_object();
  ArmFacts f;
  auto arm = util::json_string(o, "arm");
  if (!arm) return util::failf(ErrorKind::bad_input, "{}: needs string 'arm'", what);
  f.arm = *arm;
  f.engine = util::json_string(o, "engine").value_or("");
  f.launch = util::json_string(o, "launch").value_or("");
  f.version = version_of(o);
  if (const auto* env = o.if_contains("env"); env != nullptr && env->is_object()) {
    for (const auto& kv : env->get_object()) {
      if (kv.value().is_string()) f.env.push_back({std::string(kv.key()), std::string(kv.value().get_string())});
    }
  }
  f.recipe = recipe_of(o);
  f.hardware = hardware_of(f);
  return f;
}

Result<Evidence> read_evidence(const std::vector<std::filesystem::path>& run_dirs) {
  Evidence out;
  for (const auto& dir : run_dirs) {
    const auto ledger_path = dir / "ledger.jsonl";
    if (!std::filesystem::exists(ledger_path)) {
      return util::failf(ErrorKind::bad_input, "{}: no ledger.jsonl; is this a run directory?", dir.string());
    }
    auto ledger = results::read_ledger(ledger_path);
    if (!ledger) return util::fail(ErrorKind::bad_input, ledger.error().message);
    for (const auto& issue : ledger->issues) out.issues.push_back(fmt::format("{}: {}", ledger_path.string(), issue.message));
    for (auto& p : ledger->latest()) out.points.push_back({dir.string(), std::move(p)});
    read_arm_facts(dir, out);
  }
  return out;
}

}  // namespace servebench::recipe
