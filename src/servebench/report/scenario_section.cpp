// One section per scenario: every arm side by side at every concurrency (with the ratio between
// arms), then the charts (report_builder.hpp).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "servebench/report/analysis.hpp"
#include "servebench/report/number_format.hpp"
#include "servebench/report/pareto.hpp"
#include "servebench/report/report_builder.hpp"
#include "servebench/report/slo_section.hpp"

namespace servebench::report {
namespace {

using results::PointStatus;

const std::vector<std::string> k_headers{"C",           "arm",          "status",          "eff. C",
                                         "done/failed", "out tok/s",    "total tok/s/GPU", "TTFT mean ms",
                                         "TTFT P95 ms", "TPOT mean ms", "TPOT P95 ms",     "ITL P95 ms",
                                         "E2E P95 ms",  "accept",       "cache hit",       "note"};
// Above this many point rows a scenario table shows no ratio rows (they would nearly double it);
// every point keeps its own row with its exact values.
constexpr std::size_t k_max_rows_with_ratios = 1000;
// With repeats, these columns go before "note": ok repeats of those run, and the spread.
const std::vector<std::string> k_spread_headers{"repeats ok", "out tok/s min–max", "out tok/s 95% CI",
                                                "TPOT mean 95% CI"};

std::string range_text(double lo, double hi, std::string (*format)(double)) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return std::string(k_missing);
  return fmt::format("{}–{}", format(lo), format(hi));
}

std::vector<std::string> spread_cells(const MeasuredPoint* p) {
  if (p == nullptr || !p->spread) return {"", "", "", ""};
  const RepeatSpread& s = *p->spread;
  if (s.ok == 0) return {fmt::format("0/{}", s.repeats), "", "", ""};
  return {fmt::format("{}/{}", s.ok, s.repeats),
          range_text(s.output_tok_per_s.min, s.output_tok_per_s.max, format_tok_per_s),
          range_text(s.output_tok_per_s.ci.low, s.output_tok_per_s.ci.high, format_tok_per_s),
          range_text(s.tpot_ms_mean.ci.low, s.tpot_ms_mean.ci.high, format_ms)};
}

// Inserts the spread cells before the last cell (the note) when the set has repeats.
std::vector<std::string> with_spread(std::vector<std::string> row, const CampaignSet& set, const MeasuredPoint* p) {
  if (!set.has_repeats) return row;
  const auto cells = spread_cells(p);
  row.insert(row.end() - 1, cells.begin(), cells.end());
  return row;
}

// The metric cells "out tok/s" .. "E2E P95 ms" as numbers, for ratios.
std::vector<double> metric_values(const results::PointRecord& r) {
  return {r.throughput.output_tok_per_s,
          total_per_gpu(r),
          r.ttft_ms.mean,
          r.ttft_ms.p95,
          r.tpot_ms.mean,
          r.tpot_ms.p95,
          r.itl_ms.p95,
          r.e2e_ms.p95};
}

std::string note(const results::PointRecord& r) {
  if (r.status != PointStatus::ok) return r.reason.empty() ? std::string("no reason recorded") : r.reason;
  std::vector<std::string> parts;
  if (r.cache.attempts > 1) parts.push_back(fmt::format("measured on attempt {}", r.cache.attempts));
  if (r.prompts.recycled) parts.emplace_back("recycled prompts (flush + hit verified)");
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

std::vector<std::string> point_row(const std::string& level, const Arm& arm, const MeasuredPoint* p) {
  std::vector<std::string> row{level, arm.display};
  if (p == nullptr) {
    row.insert(row.end(), {std::string(k_missing), "", "", "", "", "", "", "", "", "", "", "", "", "no record"});
    return row;
  }
  const auto& r = p->record;
  row.push_back(std::string(to_string(r.status)));
  const bool measured = r.status == PointStatus::ok || r.status == PointStatus::invalid;
  if (!measured) {
    row.insert(row.end(), 12, "");
    row.push_back(note(r));
    return row;
  }
  row.push_back(format_count(r.effective_concurrency));
  row.push_back(fmt::format("{}/{}", format_count(r.completed), format_count(r.failed)));
  const auto values = metric_values(r);
  row.push_back(format_tok_per_s(values[0]));
  row.push_back(format_tok_per_s(values[1]));
  for (std::size_t i = 2; i < values.size(); ++i) row.push_back(format_ms(values[i]));
  row.push_back(format_optional(r.accept_length, format_accept));
  row.push_back(format_optional(r.cache.hit_rate, format_rate));
  row.push_back(note(r));
  return row;
}

std::vector<std::string> ratio_row(const std::string& level, const Arm& a, const Arm& ref, const MeasuredPoint* p,
                                   const MeasuredPoint* q) {
  std::vector<std::string> row{level, fmt::format("{} ÷ {}", a.display, ref.display), "ratio", "", ""};
  const auto num = metric_values(p->record);
  const auto den = metric_values(q->record);
  for (std::size_t i = 0; i < num.size(); ++i) row.push_back(format_ratio(ratio(num[i], den[i])));
  row.insert(row.end(), {"", "", ""});
  return row;
}

bool shows_ratios(const CampaignSet& set, const ScenarioTable& st) {
  return st.levels.size() * set.arms.size() <= k_max_rows_with_ratios;
}

Table scenario_table(const CampaignSet& set, const ScenarioTable& st) {
  const bool ratios = shows_ratios(set, st);
  std::vector<std::string> headers = k_headers;
  if (set.has_repeats) headers.insert(headers.end() - 1, k_spread_headers.begin(), k_spread_headers.end());
  std::vector<Align> align(headers.size(), Align::right);
  for (const std::size_t i : {std::size_t{1}, std::size_t{2}, headers.size() - 1}) align[i] = Align::left;
  Table t{headers, align, {}};
  for (const auto& level : st.levels) {
    const std::string label = level_label(level.concurrency, level.request_rate);
    const MeasuredPoint* reference = nullptr;
    std::size_t reference_arm = 0;
    for (std::size_t a = 0; a < set.arms.size(); ++a) {
      const MeasuredPoint* p = set.find(a, st.scenario, level.concurrency, level.request_rate);
      t.rows.push_back(with_spread(point_row(label, set.arms[a], p), set, p));
      if (is_ok(p) && reference == nullptr) {
        reference = p;
        reference_arm = a;
      } else if (is_ok(p) && ratios) {
        t.rows.push_back(with_spread(ratio_row(label, set.arms[a], set.arms[reference_arm], p, reference), set, nullptr));
      }
    }
  }
  return t;
}

enum class Metric { output, tpot };

ChartSpec concurrency_chart(const CampaignSet& set, std::size_t scenario, Metric metric) {
  const Scenario& s = set.scenarios[scenario];
  const bool output = metric == Metric::output;
  ChartSpec c{fmt::format("s{}-{}", scenario, output ? "output" : "tpot"),
              fmt::format("{}: {} vs concurrency", s.name, output ? "output tok/s" : "mean TPOT"),
              "concurrency (requests in flight, log₂ scale)",
              output ? "output throughput (tok/s)" : "mean TPOT (ms per output token)",
              AxisScale::log2,
              {},
              {}};
  for (std::size_t a = 0; a < set.arms.size(); ++a) {
    ChartSeries series{set.arms[a].display, a, SeriesLine::through_points, {}, {}};
    for (const std::size_t i : set.points_of(a, scenario)) {
      const MeasuredPoint& p = set.points[i];
      if (!is_ok(&p) || p.record.request_rate) continue;
      const double y = output ? p.record.throughput.output_tok_per_s : p.record.tpot_ms.mean;
      const std::string value = output ? format_tok_per_s(y) + " tok/s" : format_ms(y) + " ms";
      series.points.push_back({static_cast<double>(p.record.concurrency), y,
                               fmt::format("{} C={}: {}", set.arms[a].display, p.record.concurrency, value)});
    }
    if (!series.points.empty()) c.series.push_back(std::move(series));
  }
  return c;
}

ChartSeries pareto_series(const CampaignSet& set, std::size_t scenario, std::size_t arm) {
  ChartSeries series{set.arms[arm].display, arm, SeriesLine::frontier, {}, {}};
  std::vector<ParetoPoint> points;
  for (const std::size_t i : set.points_of(arm, scenario)) {
    const MeasuredPoint& p = set.points[i];
    if (!is_ok(&p) || p.record.request_rate) continue;
    const ParetoPoint pp{interactivity(p.record), total_per_gpu(p.record), p.record.concurrency};
    points.push_back(pp);
    series.points.push_back(
        {pp.interactivity, pp.total_per_gpu,
         fmt::format("{} C={}: {} tok/s/GPU at {} tok/s/user", set.arms[arm].display, pp.concurrency,
                     format_tok_per_s(pp.total_per_gpu), format_tok_per_s(pp.interactivity))});
  }
  for (const auto& f : pareto_frontier(points)) series.frontier.push_back({f.interactivity, f.total_per_gpu, ""});
  return series;
}

ChartSpec pareto_chart(const CampaignSet& set, std::size_t scenario) {
  ChartSpec c{fmt::format("s{}-pareto", scenario),
              fmt::format("{}: total tok/s per GPU vs interactivity", set.scenarios[scenario].name),
              "interactivity (tok/s/user = 1000 / mean TPOT ms)",
              "total throughput per GPU (tok/s/GPU)",
              AxisScale::linear,
              {},
              {}};
  for (std::size_t a = 0; a < set.arms.size(); ++a) {
    ChartSeries s = pareto_series(set, scenario, a);
    if (!s.points.empty()) c.series.push_back(std::move(s));
  }
  return c;
}

}  // namespace

void add_scenario_sections(const CampaignSet& set, Document& doc) {
  doc.add(Heading{2, "Results by scenario"});
  doc.add(
      Paragraph{"Every arm at every concurrency any arm attempted. Ratio rows divide each arm by the first arm "
                "with an ok point at that concurrency (above 1.00× means more tok/s, or more ms). Skipped, "
                "failed and invalid points show their reason; they are not compared, charted or exported."});
  if (set.has_repeats) {
    doc.add(Paragraph{"Repeated points: every number is the median over the point's ok repeats; \"repeats ok\" "
                      "counts them, and the spread columns give the min–max and the 95% bootstrap interval of the "
                      "median (2,000 seeded resamples, so the same ledger gives the same interval)."});
  }
  for (const auto& st : scenario_tables(set)) {
    doc.add(Heading{3, scenario_title(set.scenarios[st.scenario])});
    if (!shows_ratios(set, st)) {
      doc.add(Paragraph{fmt::format("{} arms × {} concurrency levels: the table has one row per point and no "
                                    "ratio rows (more than {} rows).",
                                    set.arms.size(), st.levels.size(), k_max_rows_with_ratios)});
    }
    doc.add(scenario_table(set, st));
    ChartSpec charts[] = {concurrency_chart(set, st.scenario, Metric::output),
                          concurrency_chart(set, st.scenario, Metric::tpot), pareto_chart(set, st.scenario)};
    bool any = false;
    for (auto& c : charts) {
      if (!has_plottable_points(c)) continue;
      doc.add(Figure{std::move(c)});
      any = true;
    }
    if (!any) {
      // The charts here are over concurrency: open-loop points are in the table but not on them.
      const bool open_loop_ok = std::any_of(set.points.begin(), set.points.end(), [&](const MeasuredPoint& p) {
        return p.scenario == st.scenario && is_ok(&p) && p.record.request_rate;
      });
      const bool slo = !slo_charts(set, st.scenario).empty();
      doc.add(Paragraph{
          !open_loop_ok ? std::string("No ok point in this scenario, so there is nothing to chart.")
                        : std::string("Only open-loop points are ok in this scenario, and these charts are drawn over "
                                      "concurrency, so there is nothing to chart here.") +
                              (slo ? " Its SLO runs are charted against their request rate under \"SLO boundary\"."
                                   : "")});
    }
  }
}

}  // namespace servebench::report
