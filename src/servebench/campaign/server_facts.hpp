#pragma once
// What the campaign records about an arm's server when it becomes ready: the facts the server
// gives about itself, how it was launched (command, env, fingerprint) and the recipe key it came
// from — the content of arms/<arm>/server_facts.json (results/server_facts_file.hpp).
#include <filesystem>
#include <optional>
#include <string>

#include "servebench/campaign/arm_server.hpp"
#include "servebench/campaign/matrix.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/results/server_facts_file.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::campaign {

struct CapturedFacts {
  results::ServerFactsFile file;     // what arms/<arm>/server_facts.json holds
  ArmLimits limits;                  // what caps the arm's points
  std::optional<double> time_scale;  // serve-sim: real seconds per simulated second
};

// The launch command's fingerprint (flags::fingerprint_command with the arm's env); "" when the arm
// attaches. Fails (bad_input) when the command does not normalize.
util::Result<std::string> arm_fingerprint(const ArmSpec& arm);

// Reads the server's facts through its adapter. Facts the engine does not report stay null; a
// failing facts route is recorded in the file (file.facts_error), not fatal.
CapturedFacts capture_facts(const ArmSpec& arm, ArmServer& server, const util::WallClock& wall);
// Limits from an earlier server_facts.json (dry runs of a resumed directory); nullopt when absent.
std::optional<ArmLimits> read_limits(const std::filesystem::path& path);

}  // namespace servebench::campaign
