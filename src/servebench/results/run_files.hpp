#pragma once
// The run directory's text files: status.txt (progress for people, rewritten atomically after
// every point) and campaign.yaml (the resolved spec the campaign ran). Their content belongs to
// the campaign; reading and writing them happens here.
#include <optional>
#include <string>
#include <string_view>

#include "servebench/results/run_layout.hpp"
#include "servebench/util/result.hpp"

namespace servebench::results {

// Rewrites status.txt atomically.
util::Result<void> write_status(const RunLayout& run, std::string_view text);
// status.txt as last written; nullopt when there is none yet (or it cannot be read).
std::optional<std::string> read_status(const RunLayout& run);

// Rewrites campaign.yaml atomically, creating the directory.
util::Result<void> write_campaign_file(const RunLayout& run, std::string_view yaml);
// campaign.yaml's text; nullopt when the directory has none. Fails when it exists but cannot be read.
util::Result<std::optional<std::string>> read_campaign_file(const RunLayout& run);

}  // namespace servebench::results
