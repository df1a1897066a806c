// compare_with_baseline (verdicts.hpp): kept apart from the other verdicts because matching a
// foreign source is its own set of rules.
#include <algorithm>

#include "servebench/report/verdicts.hpp"

namespace servebench::report {
namespace {

bool same_scenario(const Scenario& s, const results::PointRecord& b) {
  if (s.name == b.scenario) return true;
  return b.isl > 0 && b.osl > 0 && s.isl == b.isl && s.osl == b.osl;
}

bool same_arm(const Arm& a, const results::PointRecord& b) {
  return b.arm.empty() || b.arm == a.name || b.arm == a.display;
}

BaselineMatch make_match(const MeasuredPoint& ours, const results::PointRecord& base) {
  const auto& r = ours.record;
  return {ours.arm,
          ours.scenario,
          r.concurrency,
          &ours,
          &base,
          ratio(r.throughput.output_tok_per_s, base.throughput.output_tok_per_s),
          ratio(total_per_gpu(r), base.throughput.total_tok_per_s_per_gpu),
          ratio(r.ttft_ms.mean, base.ttft_ms.mean),
          ratio(r.tpot_ms.mean, base.tpot_ms.mean)};
}

}  // namespace

BaselineComparison compare_with_baseline(const CampaignSet& set, const Baseline& baseline) {
  BaselineComparison out;
  for (const auto& b : baseline.points) {
    bool matched = false;
    for (std::size_t a = 0; a < set.arms.size(); ++a) {
      if (!same_arm(set.arms[a], b)) continue;
      for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
        const MeasuredPoint* p = same_scenario(set.scenarios[s], b) ? set.find(a, s, b.concurrency) : nullptr;
        if (!is_ok(p)) continue;
        out.matches.push_back(make_match(*p, b));
        matched = true;
      }
    }
    if (!matched) ++out.unmatched;
  }
  std::stable_sort(out.matches.begin(), out.matches.end(), [](const BaselineMatch& x, const BaselineMatch& y) {
    return std::tie(x.arm, x.scenario, x.concurrency) < std::tie(y.arm, y.scenario, y.concurrency);
  });
  for (const auto& m : out.matches) {
    if (out.medians.empty() || out.medians.back().arm != m.arm || out.medians.back().scenario != m.scenario) {
      out.medians.push_back({m.arm, m.scenario, 0, 0});
    }
  }
  for (auto& md : out.medians) {
    std::vector<double> ratios;
    for (const auto& m : out.matches) {
      if (m.arm == md.arm && m.scenario == md.scenario) ratios.push_back(m.output_ratio);
    }
    md.matched = ratios.size();
    md.output_ratio = median(std::move(ratios));
  }
  return out;
}

}  // namespace servebench::report
