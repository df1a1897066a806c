#pragma once
// One point under the measurement protocol (docs/protocol.md): for each attempt, wait for idle →
// flush → snapshot → warmup (not measured) → measured requests → snapshot → hit rate from the
// counter deltas; above max_cache_hit_rate, re-flush and re-run with fresh prompts up to `retries`
// times, then mark the point invalid with the measured rate. The record carries the cap, the
// gate summary, prompts, server and tool references; per-request records go to requests/.
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/campaign/arm_server.hpp"
#include "servebench/campaign/campaign_clock.hpp"
#include "servebench/campaign/matrix.hpp"
#include "servebench/campaign/prompt_source.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/campaign/stop_signal.hpp"
#include "servebench/load/engine_control.hpp"
#include "servebench/load/phase.hpp"
#include "servebench/results/point.hpp"

namespace servebench::campaign {

// What the arm knows when its points run.
struct ArmContext {
  const CampaignSpec* spec = nullptr;
  const ArmSpec* arm = nullptr;
  ArmServer* server = nullptr;
  load::EngineControl* control = nullptr;
  PromptSource* prompts = nullptr;
  results::GateSummary gate;
  std::string gate_failure;  // non-empty when the gate failed and is required: points are invalid
  boost::json::object quality;  // the gsm8k probe's accuracy and interval, copied into every record's `quality`
  results::ServerRef server_ref;
  results::ToolInfo tool;
  std::optional<double> time_scale;  // serve-sim's, recorded on every point
  std::filesystem::path run_dir;
  CampaignClock clock;
  std::function<void(const load::PhaseProgress&)> on_progress;  // the measured phase's progress (live_progress.hpp)
};

struct PointOutcome {
  results::PointRecord record;
  bool server_died = false;   // the server exited during the point (record is failed)
  bool interrupted = false;   // a stop signal ended it: nothing is recorded
  std::vector<double> hit_rates;        // per attempt
  std::chrono::nanoseconds overhead{0};  // protocol calls over all attempts
};

// Runs `point` (capped at `cap`, which is not a skip). Fails only for problems of the campaign
// itself (bad_input from the workload, io writing the ledger or request files); a failing
// server is a `failed` record.
util::Result<PointOutcome> run_point(const ArmContext& arm, const PlannedPoint& point, const PointCap& cap,
                                     StopSignal& stop);

// The record of a point that is structurally impossible for the arm.
results::PointRecord skipped_record(const ArmContext& arm, const PlannedPoint& point, const PointCap& cap);
// The record of a point that could not run (server not ready, before hook failed, …).
results::PointRecord failed_record(const ArmContext& arm, const PlannedPoint& point, std::string reason);

}  // namespace servebench::campaign
