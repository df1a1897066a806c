#pragma once
// The report command's whole job, without the CLI: read run directories (and a baseline), build
// the document once, render the requested formats, write the files <prefix> + ".md", ".html",
// ".cookbook.json", ".inferencex.csv" and ".vllm.json" atomically.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "servebench/report/baseline.hpp"
#include "servebench/report/campaign_set.hpp"
#include "servebench/report/report_builder.hpp"
#include "servebench/util/result.hpp"

namespace servebench::report {

enum class OutputFormat { markdown, html, json };

// "md,html,json" (any subset, any order; "markdown" also accepted). Fails (bad_input) naming the
// unknown format.
util::Result<std::vector<OutputFormat>> parse_formats(std::string_view list);

struct ReportInputs {
  CampaignSet set;
  std::optional<Baseline> baseline;
  std::optional<BaselineStructure> structure;  // --baseline-structure: the report follows its chapters
};

// Reads and merges the run directories; the baseline is `baseline_path` when given, else the
// first run's campaign.yaml `baseline.ledger` (relative to that run directory) when that file
// exists; `structure_path` is a baseline structure file (docs/report.md). Fails (bad_input, naming
// the file) on any unreadable input.
util::Result<ReportInputs> load_report_inputs(const std::vector<std::filesystem::path>& dirs,
                                              const std::optional<std::filesystem::path>& baseline_path,
                                              const std::optional<std::filesystem::path>& structure_path = std::nullopt);

// File suffix → content, for every file the formats produce (".md", ".html", ".cookbook.json",
// ".inferencex.csv", ".vllm.json"), in that order.
std::vector<std::pair<std::string, std::string>> render_report(const ReportInputs& in, const ReportOptions& options,
                                                               const std::vector<OutputFormat>& formats);

// Renders and writes PREFIX + suffix for each file; returns the written paths. Fails (io) naming
// the file that could not be written.
util::Result<std::vector<std::filesystem::path>> write_report(const ReportInputs& in, const ReportOptions& options,
                                                              const std::vector<OutputFormat>& formats,
                                                              const std::filesystem::path& prefix);

}  // namespace servebench::report
