#pragma once
// The run directory (docs/formats.md "Run directory"): every file name a run writes is spelled
// here and nowhere else. Callers ask for a path and hand it to the reader or writer of that file
// (ledger.hpp, server_facts_file.hpp, gate_file.hpp, run_files.hpp), never build one themselves.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace servebench::results {

class RunLayout {
 public:
  explicit RunLayout(std::filesystem::path dir) : m_dir(std::move(dir)) {}
  const std::filesystem::path& dir() const { return m_dir; }

  std::filesystem::path ledger() const;         // ledger.jsonl
  std::filesystem::path campaign_file() const;  // campaign.yaml: the resolved spec
  std::filesystem::path status() const;         // status.txt
  std::filesystem::path lock() const;           // .lock: one campaign process at a time

  std::filesystem::path arm_dir(std::string_view arm) const;       // arms/<arm>/
  std::filesystem::path server_facts(std::string_view arm) const;  // arms/<arm>/server_facts.json
  std::filesystem::path server_log(std::string_view arm) const;    // arms/<arm>/server.log
  std::filesystem::path server_pid(std::string_view arm) const;    // arms/<arm>/server.pid
  // A disaggregated arm's parts ("prefill", "decode", "router"), each a server of its own:
  std::filesystem::path part_log(std::string_view arm, std::string_view part) const;  // arms/<arm>/server-<part>.log
  std::filesystem::path part_pid(std::string_view arm, std::string_view part) const;  // arms/<arm>/server-<part>.pid
  std::filesystem::path hooks_log(std::string_view arm) const;     // arms/<arm>/hooks.log
  std::filesystem::path gate(std::string_view arm) const;          // arms/<arm>/gate.json
  // The server facts path relative to the run directory, as ledger records cite it.
  static std::string server_facts_ref(std::string_view arm);
  // The directory names under arms/, sorted (so the order never depends on the filesystem).
  std::vector<std::string> arm_names() const;

  // requests/<arm>/<scenario>/c<concurrency>.jsonl: the per-request records of one point;
  // c<concurrency>-r<repeat>.jsonl for repeat N of a point under protocol.repeats.
  std::filesystem::path requests(std::string_view arm, std::string_view scenario, std::int64_t concurrency,
                                 std::optional<std::int64_t> repeat = std::nullopt) const;

  // requests/<arm>/<scenario>/search-<run>.jsonl: run N (1-based) of an SLO search (`sweep`).
  std::filesystem::path search_requests(std::string_view arm, std::string_view scenario, std::int64_t run) const;
  std::filesystem::path search_result() const;  // slo_search.json: an SLO search's runs and boundary

  std::filesystem::path telemetry_dir() const;        // telemetry/
  std::filesystem::path telemetry_manifest() const;   // telemetry/telemetry.json
  std::filesystem::path gpu_inventory_idle() const;   // telemetry/gpu_inventory_idle.csv
  std::filesystem::path gpu_inventory_final() const;  // telemetry/gpu_inventory_final.csv
  std::filesystem::path vram_timeline() const;        // telemetry/vram_timeline.csv

 private:
  std::filesystem::path m_dir;
};

}  // namespace servebench::results
