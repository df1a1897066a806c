#include "servebench/report/campaign_set.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "servebench/util/clock.hpp"

namespace servebench::report {
namespace fs = std::filesystem;
namespace {

// Qualifiers for runs that share an arm name: campaign names when they tell the runs apart,
// else directory names, else the run's position.
std::vector<std::string> qualifiers(const std::vector<RunInput>& runs) {
  const auto distinct = [&](auto label_of) {
    std::set<std::string> seen;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < runs.size(); ++i) out.push_back(label_of(i));
    for (const auto& q : out) seen.insert(q);
    return seen.size() == out.size() ? out : std::vector<std::string>{};
  };
  if (auto q = distinct([&](std::size_t i) { return runs[i].campaign_name(); }); !q.empty()) return q;
  auto dir_name = [&](std::size_t i) {
    const fs::path p = fs::path(runs[i].label).lexically_normal();
    return (p.has_filename() ? p.filename() : p.parent_path().filename()).string();
  };
  if (auto q = distinct(dir_name); !q.empty()) return q;
  return distinct([](std::size_t i) { return fmt::format("run{}", i + 1); });
}

void add_arms(CampaignSet& set) {
  std::map<std::string, int> runs_per_name;
  for (const auto& run : set.runs) {
    for (const auto& a : run.arms) ++runs_per_name[a.name];
  }
  const auto q = qualifiers(set.runs);
  for (std::size_t r = 0; r < set.runs.size(); ++r) {
    for (const auto& a : set.runs[r].arms) {
      const bool shared = runs_per_name[a.name] > 1;
      set.arms.push_back(
          {shared ? fmt::format("{}@{}", a.name, q[r]) : a.name, a.name, r, a.facts, a.gate, a.in_service});
    }
  }
}

// Scenario and arm lookups by name, so merging is O(points · log) however many there are.
struct Lookup {
  std::map<std::tuple<std::string, std::int64_t, std::int64_t>, std::size_t> scenarios;
  std::map<std::pair<std::size_t, std::string>, std::size_t> arms;  // (run, name) → arm

  explicit Lookup(const CampaignSet& set) {
    for (std::size_t i = 0; i < set.arms.size(); ++i) arms.emplace(std::pair{set.arms[i].run, set.arms[i].name}, i);
  }
  std::size_t scenario(CampaignSet& set, const results::PointRecord& p) {
    const auto [it, added] = scenarios.try_emplace({p.scenario, p.isl, p.osl}, set.scenarios.size());
    if (added) set.scenarios.push_back({p.scenario, p.isl, p.osl});
    return it->second;
  }
  std::size_t arm(std::size_t run, const std::string& name) const {
    const auto it = arms.find({run, name});
    SB_CHECK(it != arms.end() && "every ledger arm is listed in its run's arms");
    return it->second;
  }
};

// Widens [first, last] to the point's measured span; formatted once, after the last point.
void track_time(const results::PointRecord& p, std::optional<util::WallTime>& first, std::optional<util::WallTime>& last) {
  util::WallTime start;
  if (p.started_at.empty() || !util::parse_utc(p.started_at, start)) return;
  // A simulator point's duration_s is simulated time; its wall-clock duration is kept beside it.
  const auto* wall = p.extra.if_contains("wall_duration_s");
  const double duration = wall != nullptr && wall->is_number() ? wall->to_number<double>() : p.duration_s;
  const double seconds = std::isfinite(duration) && duration > 0 ? duration : 0.0;
  const auto end = start + std::chrono::duration_cast<util::WallTime::duration>(std::chrono::duration<double>(seconds));
  if (!first || start < *first) first = start;
  if (!last || end > *last) last = end;
}

void add_tool_version(CampaignSet& set, const results::ToolInfo& t) {
  if (t.version.empty()) return;
  const std::string v = t.git.empty() ? t.version : fmt::format("{} (git {})", t.version, t.git);
  if (std::find(set.tool_versions.begin(), set.tool_versions.end(), v) == set.tool_versions.end()) {
    set.tool_versions.push_back(v);
  }
}

}  // namespace

const MeasuredPoint* CampaignSet::find(std::size_t arm, std::size_t scenario, std::int64_t concurrency,
                                       std::optional<double> rate) const {
  const auto it = index.find(Key{arm, scenario, concurrency, rate});
  return it == index.end() ? nullptr : &points[it->second];
}

const std::vector<std::size_t>& CampaignSet::points_of(std::size_t arm, std::size_t scenario) const {
  SB_CHECK(arm < arms.size() && scenario < scenarios.size());
  return by_arm_scenario[arm * scenarios.size() + scenario];
}

std::vector<std::size_t> CampaignSet::arms_of_run(std::size_t run) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < arms.size(); ++i) {
    if (arms[i].run == run) out.push_back(i);
  }
  return out;
}

CampaignSet merge_runs(std::vector<RunInput> runs) {
  for (auto& run : runs) {
    if (run.ledger_campaign.empty() && !run.points.empty()) run.ledger_campaign = run.points.front().campaign;
  }
  CampaignSet set;
  set.runs = std::move(runs);
  add_arms(set);
  Lookup lookup(set);
  std::optional<util::WallTime> first, last;
  std::size_t total = 0;
  for (const auto& run : set.runs) total += run.points.size();
  set.points.reserve(total);
  for (std::size_t r = 0; r < set.runs.size(); ++r) {
    RunInput& run = set.runs[r];
    for (auto& issue : run.issues) set.issues.push_back({results::RunLayout(run.label).ledger().string(), issue.message});
    std::vector<std::optional<RepeatSpread>> spreads;
    run.points = collapse_repeats(std::move(run.points), spreads);
    for (std::size_t i = 0; i < run.points.size(); ++i) {
      auto& p = run.points[i];
      const std::size_t arm = lookup.arm(r, p.arm);
      MeasuredPoint m{std::move(p), arm, 0, spreads[i]};
      set.has_repeats = set.has_repeats || spreads[i].has_value();
      m.scenario = lookup.scenario(set, m.record);
      m.record.arm = set.arms[m.arm].display;
      track_time(m.record, first, last);
      add_tool_version(set, m.record.tool);
      set.index[CampaignSet::Key{m.arm, m.scenario, m.record.concurrency, m.record.request_rate}] = set.points.size();
      set.points.push_back(std::move(m));
    }
    run.points.clear();
  }
  if (first) set.first_start = util::format_utc(*first);
  if (last) set.last_end = util::format_utc(*last);
  set.by_arm_scenario.resize(set.arms.size() * set.scenarios.size());
  for (std::size_t i = 0; i < set.points.size(); ++i) {
    set.by_arm_scenario[set.points[i].arm * set.scenarios.size() + set.points[i].scenario].push_back(i);
  }
  return set;
}

}  // namespace servebench::report
