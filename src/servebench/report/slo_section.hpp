#pragma once
// The SLO boundary (docs/report.md "SLO boundary"): points that carry an SLO verdict — the runs of
// `servebench sweep`, whose records hold `slo: {keys, met, …}` — give, per arm and scenario, the
// highest load that met the SLO and the lowest that missed it. Nothing is added when no point has one.
#include "servebench/report/campaign_set.hpp"
#include "servebench/report/document.hpp"

namespace servebench::report {

void add_slo_section(const CampaignSet& set, Document& doc);

}  // namespace servebench::report
