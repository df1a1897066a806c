#pragma once
// The per-scenario table the report is built around: every arm side by side at every concurrency
// any arm attempted, plus the small numeric rules every section shares (what counts as comparable,
// ratios, interactivity).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "servebench/report/campaign_set.hpp"

namespace servebench::report {

// A number that is not there (no measurement, no ratio): every table prints it as "—".
inline constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();

// One row group of a scenario table: a concurrency, or a concurrency at an open-loop rate.
struct Level {
  std::int64_t concurrency = 0;
  std::optional<double> request_rate;  // nullopt: closed loop
  friend auto operator<=>(const Level&, const Level&) = default;
};

struct ScenarioTable {
  std::size_t scenario = 0;
  std::vector<Level> levels;  // ascending; closed loop before open loop at the same concurrency
};

// One table per scenario, in scenario order; every arm has a cell (possibly no record) per level.
std::vector<ScenarioTable> scenario_tables(const CampaignSet& set);

// Only `ok` points are compared, ranked, charted or exported; skipped, failed and invalid points
// are shown with their reason but never counted.
bool is_ok(const MeasuredPoint* p);
// a ÷ b; NaN when either is not finite or b is 0.
double ratio(double a, double b);
// Interactivity (tok/s/user) = 1000 / mean TPOT in ms; NaN when TPOT is undefined or 0.
double interactivity(const results::PointRecord& r);
// Total tok/s per GPU: the record's own, else total tok/s ÷ gpus.
double total_per_gpu(const results::PointRecord& r);
// Median of the finite values (mean of the middle two for an even count); NaN when none.
double median(std::vector<double> values);

}  // namespace servebench::report
