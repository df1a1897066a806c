#pragma once
// The baseline a campaign is compared with: another run directory, a ledger (.jsonl), or a CSV of
// published numbers typed in from a reference report. Baseline points are matched to measured
// points by scenario (name, or ISL and OSL) and concurrency (verdicts.hpp).
//
// CSV: a header line naming the columns, then one row per point; '#' starts a comment line,
// fields may be double-quoted, an empty field means "not published". Columns (any order):
//   scenario, concurrency                       required
//   isl, osl, arm, gpus                         optional (arm: compare with that arm only)
//   output_tok_per_s, total_tok_per_s_per_gpu,  metrics, at least one per row
//   ttft_ms_mean, ttft_ms_p95, tpot_ms_mean, tpot_ms_p95, itl_ms_p95, e2e_ms_p95, accept_length
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/results/point.hpp"
#include "servebench/util/result.hpp"

namespace servebench::report {

struct Baseline {
  std::string label;   // shown in the report: campaign name or file name
  std::string source;  // the path as given
  // status ok; metrics the source does not give are NaN; arm is "" when the row names none.
  std::vector<results::PointRecord> points;
};

// Reads a run directory, a .jsonl ledger or a .csv file (by extension). Fails (bad_input, naming
// the file and line) on a missing file, an unknown CSV column or an unparsable number.
util::Result<Baseline> read_baseline(const std::filesystem::path& path);
// Parses CSV text as above; `name` is the file name used in messages and as the label.
util::Result<Baseline> parse_baseline_csv(std::string_view text, const std::string& name);

}  // namespace servebench::report
