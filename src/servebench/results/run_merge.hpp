#pragma once
// Several run directories of one campaign (jobs of a cluster executor, runs on other machines)
// joined into one, without double counting: each point keeps exactly one record, the one measured
// last (`started_at`; on a tie the directory named later). Every point measured by more than one
// source is listed in merge.json, so the report can say which measurement it shows and which it
// dropped (docs/formats.md "merge.json").
#include <filesystem>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/results/point.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/util/result.hpp"

namespace servebench::results {

inline constexpr std::string_view k_merge_schema = "servebench.merge/1";

struct MergeMeasurement {
  std::string source;      // the run directory as given
  std::string started_at;  // of its record
  PointStatus status = PointStatus::ok;
};

struct SupersededPoint {
  std::string point;                     // point_id
  MergeMeasurement kept;                 // the record the merged ledger holds
  std::vector<MergeMeasurement> dropped;  // earlier measurements by other sources
};

struct MergeSummary {
  std::vector<std::string> sources;
  std::size_t points = 0;  // distinct points in the merged ledger
  std::vector<SupersededPoint> superseded;
};

// The records of several ledgers resolved to one per point (the input of merge_run_dirs; exposed
// for the campaign's executors and for tests). `sources[i]` labels ledger i.
struct MergedPoints {
  std::vector<PointRecord> records;  // first-seen order over the sources
  std::vector<std::size_t> origin;   // records[k] came from sources[origin[k]]
  MergeSummary summary;
};
MergedPoints merge_points(const std::vector<std::string>& sources, const std::vector<std::vector<PointRecord>>& latest);

// Merges the run directories `dirs` into `out` (created; refused when it holds a ledger that is
// not an earlier merge, or is one of the sources): ledger.jsonl with one record per point,
// campaign.yaml from the first source that has one, each arm's directory from the source of its
// most recently measured kept point, the per-request logs of every kept point, and merge.json.
// Fails (bad_input) when a source has no ledger or the sources hold different campaigns.
util::Result<MergeSummary> merge_run_dirs(const std::filesystem::path& out, const std::vector<std::filesystem::path>& dirs);

// DIR/merge.json.
std::filesystem::path merge_file(const RunLayout& run);

// Copies what a run directory holds about `arm` into another: arms/<arm>/ (facts, gate, logs)
// and the per-request logs of `points` (the records taken over).
util::Result<void> copy_arm_files(const RunLayout& from, const RunLayout& to, const std::string& arm,
                                  const std::vector<PointRecord>& points);

boost::json::object to_json(const MergeSummary& s);
util::Result<MergeSummary> merge_summary_from_json(const boost::json::object& o);
// DIR/merge.json; nullopt when the directory is not a merge. Fails when it exists but does not parse.
util::Result<std::optional<MergeSummary>> read_merge_summary(const std::filesystem::path& run_dir);

}  // namespace servebench::results
