#pragma once
// Test-only builders for report tests: ledger records and run inputs made in memory, and the path
// of the hand-made fixtures under tests/fixtures/report.
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "servebench/report/campaign_set.hpp"
#include "servebench/report/run_input.hpp"
#include "servebench/results/point.hpp"

namespace servebench::report::test_support {

// How many times `what` occurs in `text` (overlapping occurrences count).
inline std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

inline std::string fixture(const std::string& relative) {
  return std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/report/" + relative;
}

// An ok point with output tok/s `out`, mean TPOT `tpot` and total tok/s per GPU `total_gpu`.
inline results::PointRecord point(const std::string& arm, const std::string& scenario, std::int64_t c, double out,
                                  double tpot, double total_gpu = std::numeric_limits<double>::quiet_NaN()) {
  results::PointRecord r;
  r.campaign = "test";
  r.arm = arm;
  r.scenario = scenario;
  r.isl = 1024;
  r.osl = 128;
  r.concurrency = r.effective_concurrency = c;
  r.num_prompts = r.completed = std::max<std::int64_t>(8, 2 * c);
  r.gpus = 1;
  r.throughput.output_tok_per_s = out;
  r.throughput.total_tok_per_s_per_gpu = std::isnan(total_gpu) ? out * 9 : total_gpu;
  r.tpot_ms.mean = tpot;
  return r;
}

inline results::PointRecord with_status(results::PointRecord r, results::PointStatus s, std::string reason) {
  r.status = s;
  r.reason = std::move(reason);
  return r;
}

// A run whose arms are the ledger's arms, in first-seen order.
inline RunInput run_of(const std::string& campaign, std::vector<results::PointRecord> points) {
  RunInput run;
  run.label = campaign;
  run.campaign.name = campaign;
  run.campaign.found = true;
  for (auto& p : points) {
    p.campaign = campaign;
    bool known = false;
    for (const auto& a : run.arms) known = known || a.name == p.arm;
    if (!known) run.arms.push_back({p.arm, {}, {}, std::nullopt});
  }
  run.points = std::move(points);
  return run;
}

inline CampaignSet set_of(std::vector<results::PointRecord> points) {
  std::vector<RunInput> runs;
  runs.push_back(run_of("test", std::move(points)));
  return merge_runs(std::move(runs));
}

inline std::size_t arm_named(const CampaignSet& set, const std::string& display) {
  for (std::size_t i = 0; i < set.arms.size(); ++i) {
    if (set.arms[i].display == display) return i;
  }
  return set.arms.size();
}

inline std::size_t scenario_named(const CampaignSet& set, const std::string& name) {
  for (std::size_t i = 0; i < set.scenarios.size(); ++i) {
    if (set.scenarios[i].name == name) return i;
  }
  return set.scenarios.size();
}

}  // namespace servebench::report::test_support

#include <sstream>

#include "servebench/report/document.hpp"
#include "servebench/report/markdown_renderer.hpp"

namespace servebench::report::test_support {

// The run directory fixture merged as the report command would.
inline CampaignSet fixture_set(const std::vector<std::string>& dirs) {
  std::vector<RunInput> runs;
  for (const auto& d : dirs) runs.push_back(*read_run_input(fixture(d)));
  return merge_runs(std::move(runs));
}

inline std::string markdown_of(const Document& doc) {
  std::ostringstream out;
  render_markdown(doc, out);
  return out.str();
}

}  // namespace servebench::report::test_support
