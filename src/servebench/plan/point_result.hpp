#pragma once
// One campaign point in virtual time, under the campaign's protocol: cap and structural skip from
// the arm's facts, fresh prompts per attempt from the campaign's prompt source (every scenario kind:
// shared prefixes, conversations, controlled hit rate and traces carry the token content the
// campaign sends, so the engine's prefix cache sees the same sharing), cold-cache flush, warmup,
// measured requests, hit-rate verification with retries, and the ledger record the campaign would
// write, marked predicted. On a fleet, the caps and per-GPU figures count every replica, and the
// shared-prefix kinds' expected hit rate (one engine's) is recorded but not verified: routing
// decides the fleet's. Internal to `plan`.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>

#include <boost/json/object.hpp>

#include "servebench/campaign/matrix.hpp"
#include "servebench/campaign/prompt_source.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/plan/router.hpp"
#include "servebench/results/point.hpp"
#include "servebench/sim/engine.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::plan {

struct PointEnv {
  const campaign::CampaignSpec* spec = nullptr;
  const campaign::ArmSpec* arm = nullptr;
  std::span<sim::Engine* const> engines;  // one, or the replicas of a fleet
  RouterKind router = RouterKind::round_robin;  // with more than one engine
  campaign::PromptSource* prompts = nullptr;
  load::ServerControl* control = nullptr;  // the prompt source's vocabulary
  results::ServerRef server;
  boost::json::object provenance;  // the ledger's `predicted` object
  results::ToolInfo tool;
  const util::WallClock* wall = nullptr;
  std::filesystem::path run_dir;  // per-request logs go to its requests/
};

struct VirtualPoint {
  results::PointRecord record;
  std::int64_t requests = 0, steps = 0;  // simulated over every attempt, warmups included
};

// Fails for problems of the plan itself (prompts, writing the request log); an engine that
// refuses requests gives a failed record, as the live server's 400s do.
util::Result<VirtualPoint> run_virtual_point(const PointEnv& env, const campaign::PlannedPoint& point,
                                             const campaign::ArmLimits& limits);

}  // namespace servebench::plan
