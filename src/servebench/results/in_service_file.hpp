#pragma once
// arms/<arm>/in_service.json (`servebench.in_service/1`, docs/formats.md): the in-service server an
// arm's hooks stop and restore — its health and facts before the `before` hook and after the
// `after` hook — and whether it came back the same (`restored`, with every difference).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/results/run_layout.hpp"
#include "servebench/util/result.hpp"
#include "servebench/wire/server_facts.hpp"

namespace servebench::results {

inline constexpr std::string_view k_in_service_schema = "servebench.in_service/1";

struct ServiceSnapshot {
  std::string at;        // UTC
  bool healthy = false;  // /health answered 200
  int health_status = 0; // HTTP status of /health; 0: no answer
  std::optional<wire::ServerFacts> facts;  // nullopt: not read (error says why)
  std::string error;
};

struct InServiceRecord {
  std::string arm, url, restore_check;  // restore_check: facts | health
  std::optional<ServiceSnapshot> before, after;
  std::optional<bool> restored;  // nullopt: the arm has not finished (or `after` never ran)
  std::vector<std::string> differences;  // why it is not restored: "max_running_requests 32 → 16"
};

// arms/<arm>/in_service.json (spelled in run_layout.cpp with the run directory's other file names).
std::filesystem::path in_service_file(const RunLayout& run, std::string_view arm);

// nullopt when the file does not exist.
util::Result<std::optional<InServiceRecord>> read_in_service(const std::filesystem::path& path);
util::Result<void> write_in_service(const std::filesystem::path& path, const InServiceRecord& r);

}  // namespace servebench::results
