#include "servebench/report/report_builder.hpp"

#include <fmt/format.h>

#include "servebench/report/number_format.hpp"
#include "servebench/report/slo_section.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {

std::string scenario_title(const Scenario& s) {
  return fmt::format("{} (ISL {} → OSL {})", s.name, format_count(s.isl), format_count(s.osl));
}

std::string level_label(std::int64_t concurrency, const std::optional<double>& rate) {
  if (!rate) return format_count(concurrency);
  return fmt::format("{} @ {} req/s", format_count(concurrency), format_req_per_s(*rate));
}

Document build_report(const CampaignSet& set, const Baseline* baseline, const ReportOptions& options) {
  Document doc;
  std::vector<std::string> names;
  for (const auto& run : set.runs) names.push_back(run.campaign_name());
  doc.title = fmt::format("servebench report: {}", names.empty() ? std::string("(no runs)") : util::join(names, " + "));
  add_restore_banners(set, doc);
  add_header_section(set, doc);
  add_arms_section(set, doc);
  add_scenario_sections(set, doc);
  add_verdict_section(set, baseline, options, doc);
  add_slo_section(set, doc);
  add_appendix(set, doc);
  return doc;
}

}  // namespace servebench::report
