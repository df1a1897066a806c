#pragma once
// Several run directories merged into one set of arms, scenarios and points, the input of the
// analysis. Arms with the same name from two runs stay distinct: both are shown as
// "name@qualifier", the qualifier being the campaign name, else the directory name, else "runN".
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "servebench/report/repeat_spread.hpp"
#include "servebench/report/run_input.hpp"
#include "servebench/results/point.hpp"

namespace servebench::report {

struct Arm {
  std::string display;  // unique within the report
  std::string name;     // as written in its ledger
  std::size_t run = 0;  // index into CampaignSet::runs
  ServerFacts facts;
  GateResult gate;
  std::optional<results::InServiceRecord> in_service;
};

// Scenarios merge by (name, isl, osl); order is first appearance over the runs in order.
struct Scenario {
  std::string name;
  std::int64_t isl = 0, osl = 0;
};

struct MeasuredPoint {
  results::PointRecord record;  // record.arm is the arm's display name; medians for a repeated point
  std::size_t arm = 0, scenario = 0;
  std::optional<RepeatSpread> spread;  // the point's repeats (protocol.repeats); nullopt: it ran once
};

struct ReportIssue {
  std::string file;     // the ledger that had it
  std::string message;  // "line 12: torn last line (likely a crash mid-write), ignored"
};

struct CampaignSet {
  std::vector<RunInput> runs;  // points moved out into `points`
  std::vector<Arm> arms;
  std::vector<Scenario> scenarios;
  std::vector<MeasuredPoint> points;  // runs in order, each in ledger order
  std::vector<ReportIssue> issues;
  bool has_repeats = false;  // some point ran more than once (the tables show the spread)
  std::string first_start, last_end;       // measured span (UTC); empty when no record has a time
  std::vector<std::string> tool_versions;  // distinct "0.1.0 (git abc1234)", first-seen order

  // The point of an arm in a scenario at a concurrency (closed loop when rate is nullopt).
  const MeasuredPoint* find(std::size_t arm, std::size_t scenario, std::int64_t concurrency,
                            std::optional<double> rate = std::nullopt) const;
  // Indices of arms that come from run `run`.
  std::vector<std::size_t> arms_of_run(std::size_t run) const;
  // Indices into `points` of one arm's points in one scenario, in ledger order.
  const std::vector<std::size_t>& points_of(std::size_t arm, std::size_t scenario) const;

  using Key = std::tuple<std::size_t, std::size_t, std::int64_t, std::optional<double>>;
  std::map<Key, std::size_t> index;                       // filled by merge_runs
  std::vector<std::vector<std::size_t>> by_arm_scenario;  // [arm * scenarios + scenario], filled by merge_runs
};

// Merges runs (in the order given). Never fails: conflicting data is kept apart, not resolved.
CampaignSet merge_runs(std::vector<RunInput> runs);

}  // namespace servebench::report
