#include "servebench/recipe/evidence.hpp"

#include <fmt/format.h>

#include "servebench/results/ledger.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/results/server_facts_file.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

using util::ErrorKind;
using util::Result;

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

Result<ArmFacts> arm_facts_of(const results::ServerFactsFile& file, const std::string& what) {
  if (file.arm.empty()) return util::failf(ErrorKind::bad_input, "{}: needs string 'arm'", what);
  ArmFacts f;
  f.arm = file.arm;
  f.engine = file.engine;
  f.launch = file.launch;
  f.version = file.facts ? file.facts->version : "";
  for (const auto& [name, value] : file.env) f.env.push_back({name, value});
  if (file.recipe) f.recipe = RecipeRef{file.recipe->catalog, file.recipe->select};
  f.hardware = hardware_of(f);
  return f;
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
    const auto path = ep.point.server.facts.empty() ? results::RunLayout(dir).server_facts(ep.point.arm)
                                                    : dir / ep.point.server.facts;
    auto file = results::read_server_facts(path);
    if (!file || !*file) {
      const std::string why = file ? "no such file" : file.error().message;
      out.issues.push_back(fmt::format("{}: cannot read arm facts: {}", path.string(), why));
      out.arms.push_back(facts_from_point(dir, ep.point));
      continue;
    }
    auto facts = arm_facts_of(**file, path.string());
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
  auto file = results::parse_server_facts(text, what);
  if (!file) return std::unexpected(file.error());
  return arm_facts_of(*file, what);
}

Result<Evidence> read_evidence(const std::vector<std::filesystem::path>& run_dirs) {
  Evidence out;
  for (const auto& dir : run_dirs) {
    const auto ledger_path = results::RunLayout(dir).ledger();
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
