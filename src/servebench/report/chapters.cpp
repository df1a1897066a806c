// analyse_chapters (chapters.hpp): matching, impossibility and the per-chapter verdict rule.
#include "servebench/report/chapters.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "servebench/report/analysis.hpp"
#include "servebench/report/number_format.hpp"
#include "servebench/report/verdicts.hpp"

namespace servebench::report {
namespace {

// The metrics whose trend over concurrency is compared (the shape of a chapter's curves).
constexpr ChapterMetric k_trend_metrics[] = {ChapterMetric::output_throughput, ChapterMetric::mean_tpot,
                                             ChapterMetric::mean_ttft};

std::optional<std::size_t> our_scenario(const CampaignSet& set, const ChapterScenario& b) {
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
    if (set.scenarios[s].name == b.name) return s;
  }
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
    if (set.scenarios[s].isl == b.isl && set.scenarios[s].osl == b.osl) return s;
  }
  return std::nullopt;
}

bool arm_named(const Arm& a, const std::string& name) { return name.empty() || a.name == name || a.display == name; }

// The arm cannot run the scenario: every record it has there is a structural skip, or (no record)
// the scenario does not fit its context length.
std::optional<std::string> impossibility(const CampaignSet& set, std::size_t arm, std::optional<std::size_t> scenario,
                                         const ChapterScenario& b) {
  if (scenario) {
    const auto& indices = set.points_of(arm, *scenario);
    if (!indices.empty()) {
      const bool all_skipped = std::all_of(indices.begin(), indices.end(), [&](std::size_t i) {
        return set.points[i].record.status == results::PointStatus::skipped;
      });
      if (all_skipped) return set.points[indices.front()].record.reason;
      return std::nullopt;
    }
  }
  const auto& context = set.arms[arm].facts.context_length;
  if (context && b.isl + b.osl > *context) return fmt::format("isl+osl {} exceeds context {}", b.isl + b.osl, *context);
  return std::nullopt;
}

enum class Direction { down, flat, up };

Direction direction(double from, double to) {
  const double r = to / from;
  if (r > 1 + k_trend_tolerance) return Direction::up;
  if (r < 1 - k_trend_tolerance) return Direction::down;
  return Direction::flat;
}

std::string step_text(double from, double to) {
  const double change = (to / from - 1) * 100;
  return fmt::format("{} ({}{:.0f} %)", direction(from, to) == Direction::up ? "up" : "down", change >= 0 ? "+" : "",
                     change);
}

bool usable(double v) { return std::isfinite(v) && v > 0; }

// Trend checks of one arm in one scenario: consecutive matched concurrencies, per metric.
void check_trends(const CampaignSet& set, const ScenarioAlignment& s, std::size_t arm, ChapterAnalysis& out) {
  std::vector<const PointPair*> series;
  for (const auto& p : s.pairs) {
    if (p.arm == arm && is_ok(p.ours)) series.push_back(&p);
  }
  std::stable_sort(series.begin(), series.end(), [](const PointPair* a, const PointPair* b) {
    return a->baseline->concurrency < b->baseline->concurrency;
  });
  for (const ChapterMetric m : k_trend_metrics) {
    const PointPair* prev = nullptr;
    for (const PointPair* cur : series) {
      const ChapterValue* bv = cur->baseline->find(m);
      if (bv == nullptr || !usable(bv->value) || !usable(value_of(m, cur->ours->record))) continue;
      if (prev != nullptr) {
        const double b0 = prev->baseline->find(m)->value, b1 = bv->value;
        const double o0 = value_of(m, prev->ours->record), o1 = value_of(m, cur->ours->record);
        const Direction bd = direction(b0, b1), od = direction(o0, o1);
        ++out.checks;
        if ((bd == Direction::up && od == Direction::down) || (bd == Direction::down && od == Direction::up)) {
          out.disagreements.push_back(fmt::format("{} {}: {} from C={} to C={}: baseline {}, here {}", s.baseline->name,
                                                  set.arms[arm].display, label_of(m), prev->baseline->concurrency,
                                                  cur->baseline->concurrency, step_text(b0, b1), step_text(o0, o1)));
        }
      }
      prev = cur;
    }
  }
}

// Ranking checks: at a concurrency where the baseline gives two named arms' output tok/s, the arm
// it puts ahead (by more than the tie tolerance) must be ahead here too — by more than the tie
// tolerance and, when both points were repeated, by a difference the winner table would call.
void check_rankings(const CampaignSet& set, const ScenarioAlignment& s, ChapterAnalysis& out) {
  for (std::size_t i = 0; i < s.pairs.size(); ++i) {
    for (std::size_t j = i + 1; j < s.pairs.size(); ++j) {
      const PointPair& a = s.pairs[i];
      const PointPair& b = s.pairs[j];
      if (a.baseline->arm.empty() || b.baseline->arm.empty() || a.baseline->arm == b.baseline->arm) continue;
      if (a.baseline->concurrency != b.baseline->concurrency || !is_ok(a.ours) || !is_ok(b.ours)) continue;
      const ChapterValue* av = a.baseline->find(ChapterMetric::output_throughput);
      const ChapterValue* bv = b.baseline->find(ChapterMetric::output_throughput);
      if (av == nullptr || bv == nullptr) continue;
      const double ba = av->value, bb = bv->value;
      const double oa = a.ours->record.throughput.output_tok_per_s, ob = b.ours->record.throughput.output_tok_per_s;
      if (!usable(ba) || !usable(bb) || std::abs(ba - bb) < 0.01 * std::max(ba, bb)) continue;
      ++out.checks;
      const bool baseline_a = ba > bb;
      const bool here_tied = std::abs(oa - ob) < 0.01 * std::max(oa, ob);
      const bool here_noise = !here_tied && separation(*a.ours, *b.ours) != Separation::apart;
      if (!here_tied && !here_noise && (oa > ob) == baseline_a) continue;
      const auto& lead = baseline_a ? a : b;
      out.disagreements.push_back(fmt::format("{} C={}: the baseline puts {} ahead in output tok/s, here {}",
                                              s.baseline->name, a.baseline->concurrency,
                                              set.arms[lead.arm].display,
                                              here_tied    ? std::string("they tie")
                                              : here_noise ? std::string("they are within noise")
                                                           : fmt::format("{} leads", set.arms[oa > ob ? a.arm : b.arm].display)));
    }
  }
}

ScenarioAlignment align(const CampaignSet& set, const ChapterScenario& b) {
  ScenarioAlignment s;
  s.baseline = &b;
  s.ours = our_scenario(set, b);
  for (std::size_t a = 0; a < set.arms.size(); ++a) {
    if (auto why = impossibility(set, a, s.ours, b)) s.impossible.push_back({a, *why});
  }
  s.impossible_everywhere = !set.arms.empty() && s.impossible.size() == set.arms.size();
  if (!s.ours) return s;
  for (const auto& p : b.points) {
    bool any = false;
    for (std::size_t a = 0; a < set.arms.size(); ++a) {
      if (!arm_named(set.arms[a], p.arm)) continue;
      any = true;
      s.pairs.push_back({&p, a, set.find(a, *s.ours, p.concurrency)});
    }
    if (!any && std::find(s.unknown_arms.begin(), s.unknown_arms.end(), p.arm) == s.unknown_arms.end()) {
      s.unknown_arms.push_back(p.arm);
    }
  }
  return s;
}

}  // namespace

std::string_view to_string(ChapterVerdict v) {
  switch (v) {
    case ChapterVerdict::reproduced: return "qualitatively reproduced";
    case ChapterVerdict::differs: return "differs";
    case ChapterVerdict::not_comparable: return "not comparable here";
    case ChapterVerdict::not_measured: return "not measured here";
    case ChapterVerdict::impossible: return "structurally impossible here";
  }
  return "";
}

std::vector<ChapterAnalysis> analyse_chapters(const CampaignSet& set, const BaselineStructure& structure) {
  std::vector<ChapterAnalysis> out;
  for (const auto& chapter : structure.chapters) {
    ChapterAnalysis c;
    c.chapter = &chapter;
    bool all_impossible = true, none_measured = true;
    for (const auto& b : chapter.scenarios) {
      c.scenarios.push_back(align(set, b));
      const ScenarioAlignment& s = c.scenarios.back();
      all_impossible = all_impossible && s.impossible_everywhere;
      none_measured = none_measured && !s.ours;
      for (std::size_t a = 0; a < set.arms.size(); ++a) check_trends(set, s, a, c);
      check_rankings(set, s, c);
      for (const auto& p : s.pairs) {
        const ChapterValue* v = p.baseline->find(ChapterMetric::output_throughput);
        if (v != nullptr && is_ok(p.ours)) c.output_ratios.push_back(ratio(p.ours->record.throughput.output_tok_per_s, v->value));
      }
    }
    if (all_impossible) {
      c.verdict = ChapterVerdict::impossible;
    } else if (none_measured) {
      c.verdict = ChapterVerdict::not_measured;
    } else if (!c.disagreements.empty()) {
      c.verdict = ChapterVerdict::differs;
    } else {
      c.verdict = c.checks > 0 ? ChapterVerdict::reproduced : ChapterVerdict::not_comparable;
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace servebench::report
