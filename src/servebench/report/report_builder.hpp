#pragma once
// Builds the report document from the merged campaign: a banner per failed in-service restore,
// header (campaigns, time span, machine and engine facts, protocol), arms, one section per scenario
// (table + charts), verdicts and the baseline comparison, and the appendix (assets, restores). A pure function: no clock, no files; same input, same document.
#include "servebench/report/baseline.hpp"
#include "servebench/report/baseline_structure.hpp"
#include "servebench/report/campaign_set.hpp"
#include "servebench/report/document.hpp"

namespace servebench::report {

struct ReportOptions {
  double slo_tpot_ms = 50;  // sweet-spot SLO on mean TPOT
};

// `baseline` may be null (no comparison section).
Document build_report(const CampaignSet& set, const Baseline* baseline, const ReportOptions& options);
// The same run in a baseline report's chapters (chapters_section.cpp): banners, header and arms,
// then the chapters with side-by-side tables, ratios and verdicts, the baseline scenarios that are
// structurally impossible here, this run's verdicts and the appendix.
Document build_structured_report(const CampaignSet& set, const BaselineStructure& structure, const Baseline* baseline,
                                 const ReportOptions& options);

// Section builders, in document order (one file each).
void add_restore_banners(const CampaignSet& set, Document& doc);  // operations_section.cpp
void add_header_section(const CampaignSet& set, Document& doc);
void add_arms_section(const CampaignSet& set, Document& doc);
void add_scenario_sections(const CampaignSet& set, Document& doc);
void add_verdict_section(const CampaignSet& set, const Baseline* baseline, const ReportOptions& options, Document& doc);
void add_appendix(const CampaignSet& set, Document& doc);  // assets and in-service restores

// "16k-512 (ISL 16,384 → OSL 512)".
std::string scenario_title(const Scenario& s);
// "8", or "8 @ 2.5 req/s" for an open-loop point.
std::string level_label(std::int64_t concurrency, const std::optional<double>& rate);

}  // namespace servebench::report
