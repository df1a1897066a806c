#pragma once
// The SLO boundary (docs/report.md "SLO boundary"): points that carry an SLO verdict — the runs of
// `servebench sweep`, whose records hold `slo: {keys, met, checks}` — give, per arm and scenario, the
// highest load that met the SLO and the lowest that missed it; then per scenario a table of the
// runs (each key's value, the verdict) and one chart per SLO key that plots exactly the statistic
// the key names (TTFT p99 for ttft_p99_ms) against the load, with the limit as a dashed line.
// Nothing is added when no point has an SLO verdict.
#include <cstddef>
#include <vector>

#include "servebench/report/campaign_set.hpp"
#include "servebench/report/document.hpp"

namespace servebench::report {

void add_slo_section(const CampaignSet& set, Document& doc);

// The SLO charts of one scenario: per key (and per kind of load: concurrency on a log₂ axis, request
// rate on a linear one) the key's statistic of every ok run, one series per arm, and a limit line
// per distinct limit. Empty when no point of the scenario carries an SLO.
std::vector<ChartSpec> slo_charts(const CampaignSet& set, std::size_t scenario);

}  // namespace servebench::report
