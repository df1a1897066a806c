#include "servebench/report/verdicts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "servebench/stats/welch.hpp"

namespace servebench::report {
namespace {

using Ladder = std::vector<const MeasuredPoint*>;

// The ok closed-loop points of every (arm, scenario), ascending concurrency; keys in arm, scenario order.
std::map<std::pair<std::size_t, std::size_t>, Ladder> ok_ladders(const CampaignSet& set) {
  std::map<std::pair<std::size_t, std::size_t>, Ladder> out;
  for (const auto& p : set.points) {
    if (is_ok(&p) && !p.record.request_rate) out[{p.arm, p.scenario}].push_back(&p);
  }
  for (auto& [key, ladder] : out) {
    std::sort(ladder.begin(), ladder.end(), [](const MeasuredPoint* a, const MeasuredPoint* b) {
      return a->record.concurrency < b->record.concurrency;
    });
  }
  return out;
}

LevelWinner level_winner(const CampaignSet& set, std::size_t scenario, std::int64_t c) {
  std::vector<std::pair<double, std::size_t>> ranked;  // (output tok/s, arm)
  for (std::size_t a = 0; a < set.arms.size(); ++a) {
    const MeasuredPoint* p = set.find(a, scenario, c);
    if (is_ok(p) && std::isfinite(p->record.throughput.output_tok_per_s)) {
      ranked.emplace_back(p->record.throughput.output_tok_per_s, a);
    }
  }
  LevelWinner w{scenario, c, Lead::none, {}, k_nan, Separation::apart};
  if (ranked.empty()) return w;
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  if (ranked.size() == 1) {
    w.lead = Lead::alone;
    w.arms = {ranked[0].second};
    return w;
  }
  const double best = ranked[0].first;
  const MeasuredPoint* top = set.find(ranked[0].second, scenario, c);
  bool noise = false;
  for (const auto& [value, arm] : ranked) {
    const Separation s = arm == ranked[0].second ? Separation::apart : separation(*top, *set.find(arm, scenario, c));
    const bool within = s != Separation::apart;
    if (best - value < k_tie_tolerance * best || within) w.arms.push_back(arm);
    noise = noise || within;
    if (s == Separation::not_significant) w.noise = Separation::not_significant;
  }
  if (noise && w.noise != Separation::not_significant) w.noise = Separation::overlap;
  w.lead = noise ? Lead::noise : w.arms.size() > 1 ? Lead::tie : Lead::contested;
  if (w.lead == Lead::contested) w.margin = ratio(best, ranked[1].first);
  std::sort(w.arms.begin(), w.arms.end());
  return w;
}

}  // namespace

Separation separation(const MeasuredPoint& a, const MeasuredPoint& b) {
  if (!a.spread || !b.spread || a.spread->ok < 2 || b.spread->ok < 2) return Separation::apart;
  const auto& x = a.spread->output_tok_per_s;
  const auto& y = b.spread->output_tok_per_s;
  if (!x.ci.separated_from(y.ci)) return Separation::overlap;
  const auto logs = [](const std::vector<double>& v) {
    std::vector<double> out;
    for (const double value : v) out.push_back(value > 0 ? std::log(value) : k_nan);
    return out;
  };
  const double p = stats::welch_p_value(logs(x.values), logs(y.values));
  return p < k_significance ? Separation::apart : Separation::not_significant;
}

std::vector<LevelWinner> winners(const CampaignSet& set, const std::vector<ScenarioTable>& tables) {
  std::vector<LevelWinner> out;
  for (const auto& t : tables) {
    for (const auto& level : t.levels) {
      if (!level.request_rate) out.push_back(level_winner(set, t.scenario, level.concurrency));
    }
  }
  return out;
}

std::optional<Crossover> crossover(std::size_t scenario, const std::vector<LevelWinner>& all) {
  std::vector<const LevelWinner*> seq;
  for (const auto& w : all) {
    if (w.scenario == scenario && w.lead == Lead::contested) seq.push_back(&w);
  }
  std::size_t last_change = 0;
  for (std::size_t i = 1; i < seq.size(); ++i) {
    if (seq[i]->arms[0] != seq[i - 1]->arms[0]) last_change = i;
  }
  if (last_change == 0 || seq[last_change]->arms[0] == seq[0]->arms[0]) return std::nullopt;
  return Crossover{scenario, seq[last_change]->concurrency, seq[last_change - 1]->arms[0], seq[last_change]->arms[0]};
}

std::vector<SweetSpot> sweet_spots(const CampaignSet& set, double slo_ms) {
  std::vector<SweetSpot> out;
  for (const auto& [key, ladder] : ok_ladders(set)) {
    SweetSpot s{key.first, key.second, nullptr};
    for (const MeasuredPoint* p : ladder) {
      const double tput = total_per_gpu(p->record);
      if (!(p->record.tpot_ms.mean <= slo_ms) || !std::isfinite(tput)) continue;
      if (s.point == nullptr || tput > total_per_gpu(s.point->record)) s.point = p;
    }
    out.push_back(s);
  }
  return out;
}

std::vector<UsableWindow> usable_windows(const CampaignSet& set) {
  std::vector<UsableWindow> out;
  for (const auto& [key, all] : ok_ladders(set)) {
    Ladder ladder;
    for (const MeasuredPoint* p : all) {
      if (std::isfinite(p->record.tpot_ms.mean)) ladder.push_back(p);
    }
    if (ladder.empty()) continue;
    UsableWindow w{
        key.first, key.second, ladder.front()->record.concurrency, ladder.back()->record.concurrency, std::nullopt,
        k_nan,     k_nan};
    for (std::size_t i = 1; i < ladder.size(); ++i) {
      const double before = ladder[i - 1]->record.tpot_ms.mean;
      const double now = ladder[i]->record.tpot_ms.mean;
      if (now > k_cliff_factor * before) {
        w.to = ladder[i - 1]->record.concurrency;
        w.cliff = ladder[i]->record.concurrency;
        w.tpot_before = before;
        w.tpot_at_cliff = now;
        break;
      }
    }
    out.push_back(w);
  }
  return out;
}

std::vector<Boundary> boundaries(const CampaignSet& set) {
  std::vector<Boundary> out(set.arms.size());
  for (std::size_t a = 0; a < set.arms.size(); ++a) out[a].arm = a;
  for (const auto& p : set.points) {
    if (!is_ok(&p)) continue;
    Boundary& b = out[p.arm];
    if (!b.max_isl || p.record.isl > *b.max_isl) {
      b.max_isl = p.record.isl;
      b.scenarios.clear();
    }
    if (p.record.isl == *b.max_isl &&
        std::find(b.scenarios.begin(), b.scenarios.end(), p.scenario) == b.scenarios.end()) {
      b.scenarios.push_back(p.scenario);
    }
  }
  for (auto& b : out) std::sort(b.scenarios.begin(), b.scenarios.end());
  return out;
}

std::vector<ExclusiveReach> exclusive_reach(const CampaignSet& set) {
  std::vector<std::set<std::size_t>> reached(set.scenarios.size()), skipped(set.scenarios.size());
  for (const auto& p : set.points) {
    if (is_ok(&p)) reached[p.scenario].insert(p.arm);
    if (p.record.status == results::PointStatus::skipped) skipped[p.scenario].insert(p.arm);
  }
  std::vector<ExclusiveReach> out;
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
    const bool some_only_skipped =
        std::any_of(skipped[s].begin(), skipped[s].end(), [&](std::size_t a) { return !reached[s].contains(a); });
    if (!some_only_skipped || reached[s].empty()) continue;
    const std::vector<std::size_t> arms(reached[s].begin(), reached[s].end());
    auto it = std::find_if(out.begin(), out.end(), [&](const ExclusiveReach& e) { return e.arms == arms; });
    if (it == out.end()) it = out.insert(out.end(), ExclusiveReach{arms, {}});
    it->scenarios.push_back(s);
  }
  return out;
}

}  // namespace servebench::report
