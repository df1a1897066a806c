#pragma once
// A run read against a baseline report's chapters (docs/report.md "Baseline structure"): which of
// the baseline's scenarios ran here, which are structurally impossible here and why, the point
// pairs, and per chapter the "qualitatively reproduced / differs" verdict.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/report/baseline_structure.hpp"
#include "servebench/report/campaign_set.hpp"

namespace servebench::report {

// A step between two measured concurrencies counts as a change beyond this fraction; smaller
// steps are flat. A trend disagrees only when the two sides move in opposite directions.
inline constexpr double k_trend_tolerance = 0.05;

enum class ChapterVerdict {
  reproduced,      // at least one check, none disagrees
  differs,         // some check disagrees
  not_comparable,  // nothing to check here (fewer than two matched concurrencies, no arm ranking)
  not_measured,    // no scenario of the chapter ran here (and some arm could run one)
  impossible,      // every scenario of the chapter is structurally impossible for every arm
};
// "qualitatively reproduced", "differs", "not comparable here", "not measured here",
// "structurally impossible here".
std::string_view to_string(ChapterVerdict v);

struct ArmImpossibility {
  std::size_t arm = 0;
  std::string reason;  // the ledger's skip reason, else "isl+osl N exceeds context M" from the facts
};

// One baseline point next to one of our arms at the same concurrency.
struct PointPair {
  const ChapterPoint* baseline = nullptr;
  std::size_t arm = 0;
  const MeasuredPoint* ours = nullptr;  // nullptr: no record here
};

struct ScenarioAlignment {
  const ChapterScenario* baseline = nullptr;
  std::optional<std::size_t> ours;  // index into CampaignSet::scenarios
  std::vector<ArmImpossibility> impossible;
  bool impossible_everywhere = false;  // every arm (at least one)
  std::vector<PointPair> pairs;         // baseline point order, then arm order
  std::vector<std::string> unknown_arms;  // baseline points naming an arm this run does not have
};

struct ChapterAnalysis {
  const Chapter* chapter = nullptr;
  std::vector<ScenarioAlignment> scenarios;
  ChapterVerdict verdict = ChapterVerdict::not_comparable;
  int checks = 0;                          // trend steps and rankings compared
  std::vector<std::string> disagreements;  // one line per check that disagrees
  std::vector<double> output_ratios;       // here ÷ baseline output tok/s, every ok pair
};

std::vector<ChapterAnalysis> analyse_chapters(const CampaignSet& set, const BaselineStructure& structure);

}  // namespace servebench::report
