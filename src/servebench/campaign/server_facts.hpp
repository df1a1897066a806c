#pragma once
// arms/<arm>/server_facts.json (servebench.server_facts/1, docs/formats.md): what the server said
// about itself when the arm became ready, how it was launched (command, env, fingerprint), the
// recipe key it came from, and the simulator's block (time scale!) when the server is serve-sim.
#include <filesystem>
#include <optional>
#include <string>

#include <boost/json/object.hpp>

#include "servebench/campaign/arm_server.hpp"
#include "servebench/campaign/matrix.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::campaign {

inline constexpr std::string_view k_server_facts_schema = "servebench.server_facts/1";

struct CapturedFacts {
  boost::json::object json;          // the file's content
  ArmLimits limits;                  // what caps the arm's points
  std::string fingerprint;           // "sha256:…" of the normalized launch; "" when attached
  std::optional<double> time_scale;  // serve-sim: real seconds per simulated second
  std::string facts_error;           // why the engine's facts could not be read; "" when they were
};

// The launch command's fingerprint (flags::fingerprint_command with the arm's env); "" when the arm
// attaches. Fails (bad_input) when the command does not normalize.
util::Result<std::string> arm_fingerprint(const ArmSpec& arm);

// Reads the server's facts through its adapter. Facts the engine does not report stay null; a
// failing facts route is recorded in the file, not fatal.
CapturedFacts capture_facts(const ArmSpec& arm, ArmServer& server, const util::WallClock& wall);
// Writes `facts.json` atomically to `path`.
util::Result<void> write_facts(const std::filesystem::path& path, const CapturedFacts& facts);
// Limits from an earlier server_facts.json (dry runs of a resumed directory); nullopt when absent.
std::optional<ArmLimits> read_limits(const std::filesystem::path& path);

}  // namespace servebench::campaign
