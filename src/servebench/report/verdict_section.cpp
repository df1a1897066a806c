// The verdicts, written out: winners, crossover, sweet spots, usable windows, boundary, and the
// comparison with the baseline (report_builder.hpp, verdicts.hpp).
#include <map>

#include <fmt/format.h>

#include "servebench/report/number_format.hpp"
#include "servebench/report/report_builder.hpp"
#include "servebench/report/verdicts.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {
namespace {

std::string arm_list(const CampaignSet& set, const std::vector<std::size_t>& arms) {
  std::vector<std::string> names;
  for (const auto a : arms) names.push_back(set.arms[a].display);
  return util::join(names, ", ");
}

void add_winners(const CampaignSet& set, const std::vector<LevelWinner>& ws, Document& doc) {
  doc.add(Heading{3, "Winner at each concurrency (output tok/s)"});
  std::string rule = fmt::format(
      "Highest output tok/s among ok points; arms within {}% of the best are tied; an arm without an ok point at a "
      "concurrency does not compete there.",
      format_fixed(k_tie_tolerance * 100, 0));
  if (set.has_repeats) {
    rule += " Repeated points compare their medians, and a difference is called only when the 95% bootstrap "
            "intervals of the medians separate and Welch's t-test on the repeats (logarithms of output tok/s) "
            "rejects equal means at the 5% level; otherwise the arms are within noise.";
  } else {
    rule += " Each point was measured once, so a margin is not tested against run-to-run noise "
            "(protocol.repeats of 2 or more makes the report test it).";
  }
  doc.add(Paragraph{std::move(rule)});
  Table t{{"scenario", "C", "winner", "out tok/s", "margin over runner-up"},
          {Align::left, Align::right, Align::left, Align::right, Align::right},
          {}};
  for (const auto& w : ws) {
    // The best listed arm's value (arms are in arm order; within noise the best need not be first).
    const MeasuredPoint* p = nullptr;
    for (const auto a : w.arms) {
      const MeasuredPoint* q = set.find(a, w.scenario, w.concurrency);
      if (p == nullptr || (q != nullptr && q->record.throughput.output_tok_per_s > p->record.throughput.output_tok_per_s)) p = q;
    }
    const std::string value = p ? format_tok_per_s(p->record.throughput.output_tok_per_s) : std::string(k_missing);
    std::string who, margin;
    switch (w.lead) {
      case Lead::contested:
        who = arm_list(set, w.arms);
        margin = format_ratio(w.margin);
        break;
      case Lead::tie:
        who = "tie: " + arm_list(set, w.arms);
        margin = "< " + format_ratio(1 + k_tie_tolerance);
        break;
      case Lead::noise:
        who = "within noise: " + arm_list(set, w.arms);
        margin = w.noise == Separation::not_significant ? "not significant (Welch, 5%)" : "95% intervals overlap";
        break;
      case Lead::alone:
        who = arm_list(set, w.arms) + " (only arm measured)";
        margin = std::string(k_missing);
        break;
      case Lead::none:
        who = "no ok point";
        margin = std::string(k_missing);
        break;
    }
    t.rows.push_back({set.scenarios[w.scenario].name, format_count(w.concurrency), who, value, margin});
  }
  doc.add(std::move(t));
}

void add_crossovers(const CampaignSet& set, const std::vector<LevelWinner>& ws, Document& doc) {
  doc.add(Heading{3, "Crossover"});
  std::vector<std::string> items;
  std::map<std::int64_t, std::vector<std::string>> by_c;
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
    const std::string& name = set.scenarios[s].name;
    if (const auto x = crossover(s, ws)) {
      items.push_back(fmt::format("{}: crossover at C={} — {} leads below, {} from C={} on", name, x->concurrency,
                                  set.arms[x->before].display, set.arms[x->after].display, x->concurrency));
      by_c[x->concurrency].push_back(name);
      continue;
    }
    std::vector<std::size_t> leaders;
    bool noise = false;
    for (const auto& w : ws) {
      noise = noise || (w.scenario == s && w.lead == Lead::noise);
      if (w.scenario == s && w.lead == Lead::contested &&
          std::find(leaders.begin(), leaders.end(), w.arms[0]) == leaders.end()) {
        leaders.push_back(w.arms[0]);
      }
    }
    if (leaders.empty() && noise)
      items.push_back(fmt::format("{}: no crossover called — the arms are within noise at every compared concurrency",
                                  name));
    else if (leaders.empty())
      items.push_back(fmt::format("{}: no contested concurrency (fewer than two arms measured)", name));
    else if (leaders.size() == 1)
      items.push_back(fmt::format("{}: no crossover — {} leads at every contested concurrency", name,
                                  set.arms[leaders[0]].display));
    else
      items.push_back(
          fmt::format("{}: no crossover — the lead changes back and forth ({})", name, arm_list(set, leaders)));
  }
  std::vector<std::string> summary;
  for (const auto& [c, names] : by_c)
    summary.push_back(fmt::format("C={} in {} scenario{} ({})", c, names.size(), names.size() == 1 ? "" : "s",
                                  util::join(names, ", ")));
  doc.add(
      Paragraph{summary.empty()
                    ? std::string("No scenario has a crossover.")
                    : fmt::format("Crossover (first C where the leader in output tok/s changes and stays changed): {}.",
                                  util::join(summary, "; "))});
  doc.add(BulletList{std::move(items)});
}

void add_sweet_spots(const CampaignSet& set, double slo_ms, Document& doc) {
  doc.add(
      Heading{3, fmt::format("Sweet spot (highest total tok/s per GPU with mean TPOT ≤ {} ms)", format_ms(slo_ms))});
  Table t{{"arm", "scenario", "C", "total tok/s/GPU", "out tok/s", "TPOT mean ms", "accept"},
          {Align::left, Align::left, Align::right, Align::right, Align::right, Align::right, Align::right},
          {}};
  for (const auto& s : sweet_spots(set, slo_ms)) {
    const auto& scen = set.scenarios[s.scenario].name;
    if (s.point == nullptr) {
      t.rows.push_back(
          {set.arms[s.arm].display, scen, std::string(k_missing), "no ok point meets the SLO", "", "", ""});
      continue;
    }
    const auto& r = s.point->record;
    t.rows.push_back({set.arms[s.arm].display, scen, format_count(r.concurrency), format_tok_per_s(total_per_gpu(r)),
                      format_tok_per_s(r.throughput.output_tok_per_s), format_ms(r.tpot_ms.mean),
                      format_optional(r.accept_length, format_accept)});
  }
  doc.add(std::move(t));
}

void add_usable_windows(const CampaignSet& set, Document& doc) {
  doc.add(Heading{3, "Usable window (before mean TPOT more than doubles between measured steps)"});
  Table t{{"arm", "scenario", "usable C", "cliff at C", "mean TPOT before → at cliff"},
          {Align::left, Align::left, Align::right, Align::right, Align::right},
          {}};
  for (const auto& w : usable_windows(set)) {
    const std::string range =
        w.from == w.to ? format_count(w.from) : fmt::format("{}–{}", format_count(w.from), format_count(w.to));
    t.rows.push_back({set.arms[w.arm].display, set.scenarios[w.scenario].name, range,
                      w.cliff ? format_count(*w.cliff) : "no cliff measured",
                      w.cliff ? fmt::format("{} → {} ms ({})", format_ms(w.tpot_before), format_ms(w.tpot_at_cliff),
                                            format_ratio(w.tpot_at_cliff / w.tpot_before))
                              : std::string(k_missing)});
  }
  doc.add(std::move(t));
}

void add_boundary(const CampaignSet& set, Document& doc) {
  doc.add(Heading{3, "Boundary (largest ISL with an ok point)"});
  std::vector<std::string> items;
  for (const auto& b : boundaries(set)) {
    if (!b.max_isl) {
      items.push_back(fmt::format("{}: no ok point", set.arms[b.arm].display));
      continue;
    }
    std::vector<std::string> names;
    for (const auto s : b.scenarios) names.push_back(set.scenarios[s].name);
    items.push_back(
        fmt::format("{}: ISL {} ({})", set.arms[b.arm].display, format_count(*b.max_isl), util::join(names, ", ")));
  }
  for (const auto& e : exclusive_reach(set)) {
    std::vector<std::string> names;
    for (const auto s : e.scenarios) names.push_back(set.scenarios[s].name);
    items.push_back(fmt::format("boundary scenarios only {} can reach: {} (skipped structurally by the others)",
                                arm_list(set, e.arms), util::join(names, ", ")));
  }
  doc.add(BulletList{std::move(items)});
}

void add_baseline(const CampaignSet& set, const Baseline& baseline, Document& doc) {
  const BaselineComparison cmp = compare_with_baseline(set, baseline);
  doc.add(Heading{3, fmt::format("Versus the baseline ({})", baseline.label)});
  doc.add(
      Paragraph{fmt::format("Baseline {} ({} points), matched by scenario and concurrency; ratios are ours ÷ baseline. "
                            "{} baseline point{} had no ok point to compare with.",
                            baseline.source, baseline.points.size(), cmp.unmatched, cmp.unmatched == 1 ? "" : "s")});
  Table medians{{"arm", "scenario", "matched points", "median output tok/s ratio"},
                {Align::left, Align::left, Align::right, Align::right},
                {}};
  for (const auto& m : cmp.medians) {
    medians.rows.push_back({set.arms[m.arm].display, set.scenarios[m.scenario].name,
                            format_count(static_cast<std::int64_t>(m.matched)), format_ratio(m.output_ratio)});
  }
  doc.add(std::move(medians));
  Table t{{"arm", "scenario", "C", "out tok/s", "baseline", "ratio", "TPOT mean ms", "baseline", "ratio",
           "total tok/s/GPU ratio"},
          {Align::left, Align::left, Align::right, Align::right, Align::right, Align::right, Align::right, Align::right,
           Align::right, Align::right},
          {}};
  for (const auto& m : cmp.matches) {
    const auto& r = m.ours->record;
    t.rows.push_back({set.arms[m.arm].display, set.scenarios[m.scenario].name, format_count(m.concurrency),
                      format_tok_per_s(r.throughput.output_tok_per_s),
                      format_tok_per_s(m.base->throughput.output_tok_per_s), format_ratio(m.output_ratio),
                      format_ms(r.tpot_ms.mean), format_ms(m.base->tpot_ms.mean), format_ratio(m.tpot_ratio),
                      format_ratio(m.total_per_gpu_ratio)});
  }
  doc.add(std::move(t));
}

}  // namespace

void add_verdict_section(const CampaignSet& set, const Baseline* baseline, const ReportOptions& options,
                         Document& doc) {
  doc.add(Heading{2, "Verdicts"});
  const auto ws = winners(set, scenario_tables(set));
  add_winners(set, ws, doc);
  add_crossovers(set, ws, doc);
  add_sweet_spots(set, options.slo_tpot_ms, doc);
  add_usable_windows(set, doc);
  add_boundary(set, doc);
  if (baseline != nullptr) add_baseline(set, *baseline, doc);
}

}  // namespace servebench::report
