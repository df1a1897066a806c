#pragma once
// The parts of DIR/campaign.yaml the report shows (docs/campaign-file.md), read generically
// with yaml-cpp so the report does not depend on the campaign module. A key the file does not
// carry is shown as "not recorded"; the file itself is optional.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "servebench/results/run_layout.hpp"
#include "servebench/util/result.hpp"

namespace servebench::report {

inline constexpr std::string_view k_not_recorded = "not recorded";
// The protocol line of protocol.repeats, present only when the file sets it (the resolved file
// writes it when it is not 1); a run without it ran every point once.
inline constexpr std::string_view k_repeats_line = "repeats per point";

struct CampaignSummary {
  bool found = false;
  std::string name, model;
  // Protocol lines in a fixed order: ("cold cache", "yes"), ("hit threshold", "≤ 0.01"), ...
  // (k_repeats_line only when the file has protocol.repeats).
  std::vector<std::pair<std::string, std::string>> protocol;
  // `baseline: {name, ledger}` when present; the path as written (relative to the run directory).
  std::optional<std::string> baseline_name, baseline_ledger;
};

// Reads the run directory's campaign.yaml; a missing file gives found=false and every protocol
// line "not recorded". Fails (bad_input, "file:line:col: ...") on YAML syntax errors.
util::Result<CampaignSummary> read_campaign_summary(const results::RunLayout& run);
// The same from YAML text (`name` is used in messages).
util::Result<CampaignSummary> parse_campaign_summary(const std::string& text, const std::string& name);

}  // namespace servebench::report
