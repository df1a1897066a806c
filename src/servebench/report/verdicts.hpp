#pragma once
// The generated verdicts (docs/report.md "Verdicts"): pure functions of the merged campaign, each
// counting only `ok` closed-loop points (analysis.hpp is_ok).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "servebench/report/analysis.hpp"
#include "servebench/report/baseline.hpp"
#include "servebench/report/campaign_set.hpp"

namespace servebench::report {

// Two arms whose output tok/s differ by less than this fraction of the larger are tied.
inline constexpr double k_tie_tolerance = 0.01;
// A difference between repeated points is called only at this two-sided significance (Welch).
inline constexpr double k_significance = 0.05;
// TPOT (mean) more than doubling from one measured concurrency to the next is a cliff.
inline constexpr double k_cliff_factor = 2.0;

enum class Lead {
  contested,  // two or more arms measured; `arms` = {winner}
  tie,        // the best arms are within k_tie_tolerance; `arms` = the tied arms
  noise,      // repeated points no difference can be called between (Separation); `arms` = those arms
  alone,      // only one arm has an ok point here; it leads by default (not a comparison)
  none,       // no arm has an ok point
};

// Between two repeated points: a difference can be called, or not because their 95 % intervals of
// the median overlap, or not because they separate but Welch's t-test does not reject equal means.
enum class Separation { apart, overlap, not_significant };

// Whether a difference in output tok/s between two points can be called (docs/report.md "Repeats"):
// `apart` unless both were repeated (at least two ok repeats each); then only when their 95 %
// intervals of the median separate and Welch's t-test on the repeats' logarithms (a ratio, like the
// margin) rejects equal means at k_significance.
Separation separation(const MeasuredPoint& a, const MeasuredPoint& b);

struct LevelWinner {
  std::size_t scenario = 0;
  std::int64_t concurrency = 0;
  Lead lead = Lead::none;
  std::vector<std::size_t> arms;
  double margin = 0;  // contested: winner ÷ runner-up output tok/s; else NaN
  // noise: `not_significant` when some rival's intervals separated from the best's but the test did
  // not reject, else `overlap`; other leads: `apart`.
  Separation noise = Separation::apart;
};

// The leader in output tok/s at every closed-loop concurrency of every scenario, in table order.
// Where the best point and a rival were both repeated (at least two ok repeats each), the rival is
// beaten only when their 95 % bootstrap intervals of the median separate and Welch's t-test on the
// repeats rejects equal means at k_significance; otherwise the level is `noise` (the report says
// "within noise"), never a win by a margin.
std::vector<LevelWinner> winners(const CampaignSet& set, const std::vector<ScenarioTable>& tables);

struct Crossover {
  std::size_t scenario = 0;
  std::int64_t concurrency = 0;  // first C of the final leader's unbroken run
  std::size_t before = 0, after = 0;
};

// Over the contested levels of one scenario (ties and uncontested levels are skipped): the first C
// where the leader changes and stays changed to the end. nullopt when the leader never changes or
// the final leader is the one that led at the lowest C.
std::optional<Crossover> crossover(std::size_t scenario, const std::vector<LevelWinner>& all);

struct SweetSpot {
  std::size_t arm = 0, scenario = 0;
  const MeasuredPoint* point = nullptr;  // nullptr: no ok point meets the SLO
};

// Per arm and scenario with an ok point: the highest total tok/s per GPU whose mean TPOT ≤ slo_ms
// (a tie goes to the lower concurrency).
std::vector<SweetSpot> sweet_spots(const CampaignSet& set, double slo_ms);

struct UsableWindow {
  std::size_t arm = 0, scenario = 0;
  std::int64_t from = 0, to = 0;      // measured concurrencies, inclusive
  std::optional<std::int64_t> cliff;  // the first C whose TPOT > k_cliff_factor × the previous one
  double tpot_before = 0, tpot_at_cliff = 0;
};

// Per arm and scenario with an ok point: from the lowest measured C up to the last C before the
// first cliff (or the highest measured C when there is none). Points without a TPOT are passed over.
std::vector<UsableWindow> usable_windows(const CampaignSet& set);

struct Boundary {
  std::size_t arm = 0;
  std::optional<std::int64_t> max_isl;  // largest ISL with an ok point
  std::vector<std::size_t> scenarios;   // scenarios at that ISL the arm reached
};
std::vector<Boundary> boundaries(const CampaignSet& set);

// Scenarios that some arms only skipped (structurally) while these arms measured them.
struct ExclusiveReach {
  std::vector<std::size_t> arms;       // the arms that reach, ascending
  std::vector<std::size_t> scenarios;  // in scenario order
};
std::vector<ExclusiveReach> exclusive_reach(const CampaignSet& set);

struct BaselineMatch {
  std::size_t arm = 0, scenario = 0;
  std::int64_t concurrency = 0;
  const MeasuredPoint* ours = nullptr;
  const results::PointRecord* base = nullptr;
  double output_ratio = 0, total_per_gpu_ratio = 0, ttft_ratio = 0, tpot_ratio = 0;  // ours ÷ baseline
};
struct BaselineMedian {
  std::size_t arm = 0, scenario = 0;
  double output_ratio = 0;  // median over the matched points
  std::size_t matched = 0;
};
struct BaselineComparison {
  std::vector<BaselineMatch> matches;   // arm order, then scenario, then concurrency
  std::vector<BaselineMedian> medians;  // one per (arm, scenario) with a match
  std::size_t unmatched = 0;            // baseline points no ok point of ours matched
};

// Matches baseline points by scenario (same name, or same ISL and OSL) and concurrency; a baseline
// point naming an arm matches only that arm (by ledger name or display name).
BaselineComparison compare_with_baseline(const CampaignSet& set, const Baseline& baseline);

}  // namespace servebench::report
