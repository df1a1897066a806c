#pragma once
// `campaign run`: the whole matrix, arm by arm, into a run directory (docs/formats.md), resumable.
// A point is done once its ledger record is fsynced; rerunning with the same directory skips
// points whose last record is `ok` or `skipped` (and `invalid` unless rerun_invalid), so a
// kill -9 at any moment loses at most the point in flight. SIGINT/SIGTERM end the point in
// flight (unrecorded), stop the server, run `after`, and exit 130/143.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "servebench/campaign/matrix.hpp"
#include "servebench/campaign/campaign_clock.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/results/point.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::campaign {

class Executor;  // executor.hpp

struct RunOptions {
  std::filesystem::path out;
  PointFilter only;
  bool rerun_invalid = false;
  bool allow_changed_assets = false;  // resume although an asset changed (both checksums are kept)
  bool progress = true;  // redraw the point in progress on a terminal console (--no-progress: false)
  results::ToolInfo tool;
  std::FILE* console = stdout;
  CampaignClock clock;
  Executor* executor = nullptr;  // where arms run; nullptr: here, one after another (LocalExecutor)
  // Words put before every launched server's command, e.g. `srun --overlap ...` inside a Slurm job
  // (the command then runs as `WRAPPER... /bin/sh -c COMMAND`); empty: the command as it is.
  std::vector<std::string> launch_wrapper;
};

// Exit codes of a finished campaign (util/exit_code.hpp): ok when every planned point is ok or
// skipped; measured_failure when some point failed or is invalid; unreachable when an arm's server
// could not be started; 128 + signal when interrupted.
// Fails (bad_input / io) when the run directory cannot be used (another campaign's, locked by a
// running campaign, unwritable) or the campaign cannot continue (corpus exhausted, bad workload).
util::Result<int> run_campaign(const CampaignSpec& spec, const RunOptions& options);

// What `--dry-run` prints: every planned point in run order with num_prompts and its cap (from
// launch flags, or from an earlier server_facts.json in `out` when resuming) and whether the
// ledger in `out` already settles it. Touches nothing.
std::string dry_run_text(const CampaignSpec& spec, const RunOptions& options);

// "runs/<name>-20261129-150000" for `now`.
std::filesystem::path default_out_dir(const CampaignSpec& spec, util::WallTime now);

}  // namespace servebench::campaign
