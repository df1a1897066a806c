#pragma once
// Progress of a run directory: counts from the ledger (the last record per planned point), and
// DIR/status.txt, rewritten atomically after every point and every few seconds during one, so
// `cat` or `campaign status` always sees a whole file: done/total, the point being measured and
// how far it is, and an ETA.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "servebench/campaign/matrix.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/results/point.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::campaign {

struct Progress {
  std::size_t total = 0;                              // planned points
  std::size_t ok = 0, skipped = 0, invalid = 0, failed = 0;  // by the last record of each planned point
  std::size_t done() const { return ok + skipped + invalid + failed; }
};

// Counts the planned points by the status of their last record in `latest` (ledger order).
Progress progress_of(const CampaignSpec& spec, const std::vector<PlannedPoint>& planned,
                     const std::vector<results::PointRecord>& latest);

struct StatusView {
  std::string campaign, run_dir, state;  // state: "running", then terminal_state() or "failed: <why>"
  Progress progress;
  std::size_t to_run = 0;                // points this session still has to measure
  std::string current;                   // "e7b/chat/c8" or ""
  std::string point_progress;            // the current point's measured phase (live_progress.hpp) or ""
  std::optional<std::chrono::seconds> eta;
  util::WallTime updated{};
};

// ETA from the mean wall time of the points measured so far this session.
std::optional<std::chrono::seconds> estimate_eta(std::chrono::nanoseconds measured_time, std::size_t measured,
                                                 std::size_t left);
// "1h02m", "4m05s", "12s".
std::string format_duration(std::chrono::seconds d);

std::string status_text(const StatusView& v);
// The state a finished run leaves in status.txt, always one of three words and the reason:
// "done" (every point ok or skipped), "failed: 2 failed, 1 invalid, 3 not run" (also "a server
// did not start"), "interrupted by signal 2". A run that stops on an error writes "failed: <error>".
std::string terminal_state(int exit_code, int signal, const Progress& p, bool unreachable);
// DIR/status.txt, atomically.
util::Result<void> write_status(const std::filesystem::path& run_dir, const StatusView& v);

}  // namespace servebench::campaign

namespace servebench::campaign {

// `campaign status DIR`: status.txt as last written, then progress from the ledger per arm and
// every point whose last record is not ok (with its reason). Fails (bad_input) when DIR holds no
// campaign.yaml or ledger.
util::Result<std::string> status_report(const std::filesystem::path& dir);

}  // namespace servebench::campaign
