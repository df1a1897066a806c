#include "servebench/recipe/export_rows.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "servebench/recipe/selection.hpp"

namespace servebench::recipe {
namespace {

const EvidencePoint* find_point(const Evidence& e, const EvidenceRef& ref) {
  for (const auto& p : e.points) {
    if (p.run_dir == ref.run_dir && p.id() == ref.point) return &p;
  }
  return nullptr;
}

std::size_t scenario_rank(const Catalog& c, const std::string& name) {
  const auto& sc = c.benchmark.scenarios;
  const auto it = std::find_if(sc.begin(), sc.end(), [&](const BenchScenario& s) { return s.name == name; });
  return static_cast<std::size_t>(it - sc.begin());
}

std::string notes_for(const EvidencePoint& p, const ArmFacts* facts) {
  const auto& r = p.point;
  std::string where = fmt::format("campaign {}, run {}, arm {}, {} GPU(s)", r.campaign, p.run_dir, r.arm, r.gpus);
  std::string protocol = "cache-cold (flushed, hit rate verified before every point), quality gate passed";
  if (r.server.engine == "sim") {
    return fmt::format("simulated on servebench serve-sim, not a GPU measurement; {}; {}", where, protocol);
  }
  const std::string version = facts != nullptr && !facts->version.empty() ? " " + facts->version : "";
  return fmt::format("measured with {}{}; {}; {}", r.server.engine, version, where, protocol);
}

}  // namespace

std::vector<results::CookbookRow> export_rows(const Catalog& catalog, const std::vector<SelectionStatus>& statuses,
                                              const Evidence& evidence) {
  std::vector<results::CookbookRow> rows;
  for (const auto& status : statuses) {
    if (status.state != Verification::verified) continue;
    auto selection = parse_selection(catalog, status.selection);
    if (!selection) continue;
    // One row per measuring arm, in the order the evidence lists them.
    std::map<std::pair<std::string, std::string>, std::vector<const EvidencePoint*>> by_arm;
    std::vector<std::pair<std::string, std::string>> order;
    for (const auto& ref : status.evidence) {
      const EvidencePoint* p = find_point(evidence, ref);
      if (p == nullptr) continue;
      const auto key = std::make_pair(p->run_dir, p->point.arm);
      if (!by_arm.contains(key)) order.push_back(key);
      by_arm[key].push_back(p);
    }
    for (const auto& key : order) {
      auto& points = by_arm[key];
      std::stable_sort(points.begin(), points.end(), [&](const EvidencePoint* a, const EvidencePoint* b) {
        return std::pair(scenario_rank(catalog, a->point.scenario), a->point.concurrency) <
               std::pair(scenario_rank(catalog, b->point.scenario), b->point.concurrency);
      });
      const ArmFacts* facts = evidence.arm(key.first, key.second);
      results::CookbookRow row;
      row.match = to_pairs(catalog, *selection);
      row.sglang_version = facts != nullptr ? results::cookbook_engine_version(facts->engine, facts->version) : "";
      for (const auto* p : points) row.speed.push_back(results::cookbook_speed_from_point(p->point, catalog.benchmark.dataset));
      row.notes = notes_for(*points.front(), facts);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace servebench::recipe
