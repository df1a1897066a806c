// The report in a baseline report's chapters (report_builder.hpp build_structured_report): the
// chapter summary, one section per chapter with side-by-side tables and ratios, the scenarios that
// are structurally impossible here, and what this run measured beyond the baseline.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "servebench/report/analysis.hpp"
#include "servebench/report/chapters.hpp"
#include "servebench/report/number_format.hpp"
#include "servebench/report/report_builder.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {
namespace {

std::string format_metric(ChapterMetric m, double v) {
  if (!std::isfinite(v)) return std::string(k_missing);
  switch (m) {
    case ChapterMetric::output_throughput:
    case ChapterMetric::total_throughput_per_gpu: return format_tok_per_s(v);
    case ChapterMetric::accept_length: return format_accept(v);
    default: return format_ms(v);
  }
}

// The metrics a scenario's baseline points give, in the fixed metric order.
std::vector<ChapterMetric> metrics_of(const ChapterScenario& s) {
  std::vector<ChapterMetric> out;
  for (std::size_t i = 0; i < k_chapter_metrics; ++i) {
    const auto m = static_cast<ChapterMetric>(i);
    const bool given = std::any_of(s.points.begin(), s.points.end(), [&](const ChapterPoint& p) { return p.find(m); });
    if (given) out.push_back(m);
  }
  return out;
}

std::string note_of(const MeasuredPoint* p) {
  if (p == nullptr) return "no record here";
  const auto& r = p->record;
  switch (r.status) {
    case results::PointStatus::ok: return "";
    case results::PointStatus::skipped: return "skipped: " + r.reason;
    case results::PointStatus::failed: return "failed: " + r.reason;
    case results::PointStatus::invalid: return "invalid: " + r.reason;
  }
  return "";
}

std::string ratio_range(const std::vector<double>& ratios) {
  std::vector<double> finite;
  for (double r : ratios) {
    if (std::isfinite(r)) finite.push_back(r);
  }
  if (finite.empty()) return std::string(k_missing);
  const auto [lo, hi] = std::minmax_element(finite.begin(), finite.end());
  if (finite.size() == 1) return format_ratio(*lo);
  return fmt::format("{} ({}–{})", format_ratio(median(finite)), format_ratio(*lo), format_ratio(*hi));
}

Table side_by_side(const CampaignSet& set, const ScenarioAlignment& s, const std::string& baseline) {
  const auto metrics = metrics_of(*s.baseline);
  Table t{{"C", "arm"}, {Align::right, Align::left}, {}};
  for (const ChapterMetric m : metrics) {
    t.headers.push_back(fmt::format("{} {}", label_of(m), baseline));
    t.headers.emplace_back("here");
    t.headers.emplace_back("here ÷ baseline");
    t.align.insert(t.align.end(), {Align::right, Align::right, Align::right});
  }
  t.headers.emplace_back("note");
  t.align.push_back(Align::left);
  for (const auto& p : s.pairs) {
    std::vector<std::string> row{format_count(p.baseline->concurrency), set.arms[p.arm].display};
    const bool ok = is_ok(p.ours);
    for (const ChapterMetric m : metrics) {
      const ChapterValue* v = p.baseline->find(m);
      const double base = v ? v->value : std::nan("");
      const double here = ok ? value_of(m, p.ours->record) : std::nan("");
      row.push_back(format_metric(m, base));
      row.push_back(format_metric(m, here));
      const double r = ratio(here, base);
      row.push_back(std::isfinite(r) ? format_ratio(r) : std::string(k_missing));
    }
    row.push_back(note_of(p.ours));
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string impossible_text(const CampaignSet& set, const ScenarioAlignment& s) {
  std::vector<std::string> parts;
  for (const auto& i : s.impossible) parts.push_back(fmt::format("{}: {}", set.arms[i.arm].display, i.reason));
  return util::join(parts, "; ");
}

std::string able_arms(const CampaignSet& set, const ScenarioAlignment& s) {
  std::vector<std::string> names;
  for (std::size_t a = 0; a < set.arms.size(); ++a) {
    const bool impossible = std::any_of(s.impossible.begin(), s.impossible.end(),
                                        [&](const ArmImpossibility& i) { return i.arm == a; });
    if (!impossible) names.push_back(set.arms[a].display);
  }
  return util::join(names, ", ");
}

std::string verdict_line(const ChapterAnalysis& c) {
  switch (c.verdict) {
    case ChapterVerdict::reproduced:
      return fmt::format("Verdict: qualitatively reproduced — all {} check{} agree (trends of output tok/s, mean TPOT "
                         "and mean TTFT between matched concurrencies; which arm leads).",
                         c.checks, c.checks == 1 ? "" : "s");
    case ChapterVerdict::differs:
      return fmt::format("Verdict: differs — {} of {} check{} disagree{}:", c.disagreements.size(), c.checks,
                         c.checks == 1 ? "" : "s", c.disagreements.size() == 1 ? "s" : "");
    case ChapterVerdict::not_comparable:
      return "Verdict: not comparable here — no scenario of this chapter has two matched concurrencies or a baseline "
             "ranking of two arms to compare with.";
    case ChapterVerdict::not_measured:
      return "Verdict: not measured here — this run has none of the chapter's scenarios (some arm could run them).";
    case ChapterVerdict::impossible:
      return "Verdict: structurally impossible here — no arm of this run can run any scenario of this chapter.";
  }
  return "";
}

void add_chapter(const CampaignSet& set, const BaselineStructure& b, std::size_t index, const ChapterAnalysis& c,
                 Document& doc) {
  doc.add(Heading{2, fmt::format("Chapter {}: {}", index + 1, c.chapter->title)});
  if (!c.chapter->says.empty()) doc.add(Paragraph{fmt::format("{} says: “{}”", b.baseline, c.chapter->says)});
  doc.add(Paragraph{verdict_line(c)});
  if (!c.disagreements.empty()) doc.add(BulletList{c.disagreements});
  if (!c.output_ratios.empty()) {
    doc.add(Paragraph{fmt::format("Absolute numbers: here ÷ baseline output tok/s {} (median, range) over {} point pair{}.",
                                  ratio_range(c.output_ratios), c.output_ratios.size(),
                                  c.output_ratios.size() == 1 ? "" : "s")});
  }
  for (const auto& s : c.scenarios) {
    const auto& sc = *s.baseline;
    doc.add(Heading{3, fmt::format("{} (ISL {} → OSL {})", sc.name, format_count(sc.isl), format_count(sc.osl))});
    if (s.impossible_everywhere) {
      doc.add(Paragraph{"Structurally impossible here: " + impossible_text(set, s) + "."});
      continue;
    }
    if (!s.ours) {
      doc.add(Paragraph{"Not measured here: this run has no scenario with this name or these lengths." +
                        (s.impossible.empty() ? std::string() : " Impossible for " + impossible_text(set, s) + ".")});
      continue;
    }
    if (!s.impossible.empty()) doc.add(Paragraph{"Impossible for " + impossible_text(set, s) + "."});
    if (!s.unknown_arms.empty()) {
      doc.add(Paragraph{fmt::format("Baseline points for arms this run does not have: {}.", util::join(s.unknown_arms, ", "))});
    }
    if (s.pairs.empty()) {
      doc.add(Paragraph{fmt::format("{} gives no numbers for this scenario.", b.baseline)});
      continue;
    }
    doc.add(side_by_side(set, s, b.baseline));
  }
}

Table summary_table(const std::vector<ChapterAnalysis>& chapters) {
  Table t{{"chapter", "scenarios", "matched point pairs", "verdict", "here ÷ baseline output tok/s"},
          {Align::left, Align::left, Align::right, Align::left, Align::left},
          {}};
  for (std::size_t i = 0; i < chapters.size(); ++i) {
    const auto& c = chapters[i];
    std::vector<std::string> names;
    std::size_t matched = 0;
    for (const auto& s : c.scenarios) {
      names.push_back(s.baseline->name);
      matched += static_cast<std::size_t>(
          std::count_if(s.pairs.begin(), s.pairs.end(), [](const PointPair& p) { return is_ok(p.ours); }));
    }
    t.rows.push_back({fmt::format("{}. {}", i + 1, c.chapter->title), util::join(names, ", "),
                      format_count(static_cast<std::int64_t>(matched)), std::string(to_string(c.verdict)),
                      ratio_range(c.output_ratios)});
  }
  return t;
}

void add_impossible_section(const CampaignSet& set, const std::vector<ChapterAnalysis>& chapters, Document& doc) {
  std::vector<std::string> everywhere, some, absent;
  for (std::size_t i = 0; i < chapters.size(); ++i) {
    for (const auto& s : chapters[i].scenarios) {
      const std::string where = fmt::format("{} (chapter {})", s.baseline->name, i + 1);
      if (s.impossible_everywhere) {
        everywhere.push_back(fmt::format("{}: {}", where, impossible_text(set, s)));
      } else if (!s.impossible.empty()) {
        some.push_back(fmt::format("{}: {}; {} can run it", where, impossible_text(set, s), able_arms(set, s)));
      }
      if (!s.ours && !s.impossible_everywhere) absent.push_back(where);
    }
  }
  doc.add(Heading{2, "Baseline scenarios structurally impossible here"});
  doc.add(everywhere.empty() ? Block{Paragraph{"None: some arm of this run can run every scenario of the baseline."}}
                             : Block{BulletList{everywhere}});
  if (!some.empty()) {
    doc.add(Paragraph{"Impossible for some arms only:"});
    doc.add(BulletList{some});
  }
  if (!absent.empty()) {
    doc.add(Paragraph{fmt::format("Possible here but not measured by this run: {}.", util::join(absent, ", "))});
  }
}

void add_extra_scenarios(const CampaignSet& set, const std::vector<ChapterAnalysis>& chapters, Document& doc) {
  std::vector<std::string> extra;
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
    bool covered = false;
    for (const auto& c : chapters) {
      for (const auto& a : c.scenarios) covered = covered || a.ours == s;
    }
    if (!covered) extra.push_back(scenario_title(set.scenarios[s]));
  }
  if (extra.empty()) return;
  doc.add(Paragraph{fmt::format("Measured here but in no chapter of the baseline (the plain report, without "
                                "--baseline-structure, has their tables): {}.",
                                util::join(extra, ", "))});
}

}  // namespace

Document build_structured_report(const CampaignSet& set, const BaselineStructure& structure, const Baseline* baseline,
                                 const ReportOptions& options) {
  Document doc;
  std::vector<std::string> names;
  for (const auto& run : set.runs) names.push_back(run.campaign_name());
  doc.title = fmt::format("servebench report: {} in the chapters of {}",
                          names.empty() ? std::string("(no runs)") : util::join(names, " + "), structure.baseline);
  add_restore_banners(set, doc);
  add_header_section(set, doc);
  add_arms_section(set, doc);
  const auto chapters = analyse_chapters(set, structure);
  doc.add(Heading{2, fmt::format("Chapters of {}", structure.baseline)});
  doc.add(Paragraph{fmt::format(
      "The chapters, scenarios and numbers of {} ({}{}), each baseline point next to this run's point of the same "
      "scenario and concurrency. A chapter is qualitatively reproduced when every check agrees: between consecutive "
      "matched concurrencies, output tok/s, mean TPOT and mean TTFT move the same way (a step within ±{:.0f} % is "
      "flat; only opposite directions disagree), and an arm the baseline puts ahead is ahead here.",
      structure.baseline, structure.file, structure.source.empty() ? "" : "; " + structure.source,
      k_trend_tolerance * 100)});
  doc.add(summary_table(chapters));
  for (std::size_t i = 0; i < chapters.size(); ++i) add_chapter(set, structure, i, chapters[i], doc);
  add_impossible_section(set, chapters, doc);
  add_extra_scenarios(set, chapters, doc);
  add_verdict_section(set, baseline, options, doc);
  add_appendix(set, doc);
  return doc;
}

}  // namespace servebench::report
