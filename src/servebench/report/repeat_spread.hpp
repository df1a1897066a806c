#pragma once
// Repeats of a point (protocol.repeats, docs/report.md "Repeats"): the ledger keeps every repeat as
// its own record; the report shows one row per point whose numbers are the medians over its ok
// repeats, with the spread of the compared metrics — min–max and a seeded 95 % bootstrap interval
// of the median — and calls a difference between arms only when those intervals separate and
// Welch's t-test on the repeats rejects equal means at 5 % (stats/welch.hpp says why both).
#include <cstdint>
#include <optional>
#include <vector>

#include "servebench/results/point.hpp"
#include "servebench/stats/intervals.hpp"

namespace servebench::report {

struct MetricSpread {
  double min = 0, max = 0;
  stats::Interval ci;          // 95 % bootstrap interval of the median
  std::vector<double> values;  // the ok repeats' finite values, in ledger order
};

struct RepeatSpread {
  std::int64_t repeats = 0;  // records of the point (one per repeat that ran)
  std::int64_t ok = 0;       // of those, ok
  MetricSpread output_tok_per_s, tpot_ms_mean;
};

// Replaces each group of repeat records (same arm, scenario, ISL, OSL, concurrency and rate) by one
// record: a copy of the ok repeat closest to the median output tok/s with every metric replaced by
// its median over the ok repeats, `repeat` cleared; a group without an ok repeat keeps its last
// record. `spreads` gets one entry per returned record (nullopt for a point that ran once). Order:
// each point where its first record was.
std::vector<results::PointRecord> collapse_repeats(std::vector<results::PointRecord> records,
                                                   std::vector<std::optional<RepeatSpread>>& spreads);

}  // namespace servebench::report
