#pragma once
// One run directory as the report reads it (docs/formats.md "Run directory"): the ledger resolved
// to its latest record per point, the campaign summary, and the facts and gate of every arm.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "servebench/report/arm_facts.hpp"
#include "servebench/report/campaign_summary.hpp"
#include "servebench/results/asset_ledger.hpp"
#include "servebench/results/in_service_file.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/results/point.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/results/run_merge.hpp"
#include "servebench/util/result.hpp"

namespace servebench::report {

struct ArmInput {
  std::string name;  // as written in the ledger
  ServerFacts facts;
  GateResult gate;
  std::optional<results::InServiceRecord> in_service;  // arms/<arm>/in_service.json, when the arm had one
};

struct RunInput {
  std::string label;  // the directory as given on the command line
  CampaignSummary campaign;
  std::vector<results::PointRecord> points;  // last record per point, in first-seen order
  std::vector<results::LedgerIssue> issues;  // unreadable ledger lines
  std::vector<ArmInput> arms;                // ledger order, then arms/ directories not in the ledger
  std::optional<results::AssetLedger> assets;  // assets.json; nullopt when the run has none
  std::string ledger_campaign;               // `campaign` of the ledger's first point record
  std::optional<results::MergeSummary> merge;  // merge.json: the directory joins several runs (jobs)
  std::string campaign_name() const;         // campaign.yaml name, else the ledger's, else the label
};

// Reads DIR/ledger.jsonl (required), DIR/campaign.yaml, DIR/merge.json, DIR/assets.json and
// DIR/arms/*/{server_facts,gate,in_service}.json (optional). Fails (bad_input, naming the file) when the directory or its ledger is missing or a
// file exists but cannot be parsed; unreadable ledger lines are issues, not failures.
util::Result<RunInput> read_run_input(const std::filesystem::path& dir);

}  // namespace servebench::report
