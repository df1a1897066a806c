#include "servebench/report/run_input.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace servebench::report {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> arm_names(const RunInput& run, const results::RunLayout& layout) {
  std::vector<std::string> names;
  for (const auto& p : run.points) {
    if (std::find(names.begin(), names.end(), p.arm) == names.end()) names.push_back(p.arm);
  }
  for (const auto& name : layout.arm_names()) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

util::Result<ArmInput> read_arm(const results::RunLayout& layout, const std::string& name) {
  ArmInput arm{name, {}, {}, std::nullopt};
  auto facts = read_server_facts(layout.server_facts(name));
  if (!facts) return std::unexpected(facts.error());
  arm.facts = std::move(*facts);
  auto gate = read_gate(layout.gate(name));
  if (!gate) return std::unexpected(gate.error());
  arm.gate = std::move(*gate);
  auto in_service = results::read_in_service(results::in_service_file(layout, name));
  if (!in_service) return std::unexpected(in_service.error());
  arm.in_service = std::move(*in_service);
  return arm;
}

}  // namespace

std::string RunInput::campaign_name() const {
  if (campaign.found && campaign.name != k_not_recorded && !campaign.name.empty()) return campaign.name;
  if (!ledger_campaign.empty()) return ledger_campaign;
  if (!points.empty() && !points.front().campaign.empty()) return points.front().campaign;
  return label;
}

util::Result<RunInput> read_run_input(const fs::path& dir) {
  if (!fs::is_directory(dir)) return util::failf(util::ErrorKind::bad_input, "{}: not a run directory", dir.string());
  const results::RunLayout layout(dir);
  const fs::path ledger_path = layout.ledger();
  if (!fs::exists(ledger_path)) {
    return util::failf(util::ErrorKind::bad_input, "{}: no ledger.jsonl in the run directory", ledger_path.string());
  }
  auto ledger = results::read_latest(ledger_path);
  if (!ledger) return std::unexpected(util::with_context(ledger.error(), ledger_path.string()));
  RunInput run;
  run.label = dir.string();
  run.points = std::move(ledger->records);
  if (!run.points.empty()) run.ledger_campaign = run.points.front().campaign;
  run.issues = std::move(ledger->issues);
  auto campaign = read_campaign_summary(layout);
  if (!campaign) return std::unexpected(campaign.error());
  run.campaign = std::move(*campaign);
  auto merge = results::read_merge_summary(dir);
  if (!merge) return std::unexpected(merge.error());
  run.merge = std::move(*merge);
  auto assets = results::read_assets(results::assets_file(layout));
  if (!assets) return std::unexpected(assets.error());
  run.assets = std::move(*assets);
  for (const auto& name : arm_names(run, layout)) {
    auto arm = read_arm(layout, name);
    if (!arm) return std::unexpected(arm.error());
    run.arms.push_back(std::move(*arm));
  }
  return run;
}

}  // namespace servebench::report
