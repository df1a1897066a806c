#include "servebench/results/run_layout.hpp"

#include "servebench/results/asset_ledger.hpp"
#include "servebench/results/in_service_file.hpp"
#include "servebench/results/job_record.hpp"
#include "servebench/results/run_merge.hpp"

#include <cctype>
#include <set>
#include <system_error>

#include <fmt/format.h>

namespace servebench::results {
namespace fs = std::filesystem;
namespace {

// A name as one directory component that cannot leave the run directory. Campaign files allow
// only [A-Za-z0-9._-] names; a ledger or campaign.yaml edited by hand may hold anything ("../x",
// "a/b"), so every other byte is written %XX and "." / ".." get a leading '%'.
std::string component(std::string_view name) {
  if (name.empty() || name == "." || name == "..") return fmt::format("%{}", name);
  std::string out;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '.' || c == '_' || c == '-') out.push_back(c);
    else out += fmt::format("%{:02X}", u);
  }
  return out;
}

}  // namespace

fs::path RunLayout::ledger() const { return m_dir / "ledger.jsonl"; }
fs::path RunLayout::campaign_file() const { return m_dir / "campaign.yaml"; }
fs::path RunLayout::status() const { return m_dir / "status.txt"; }
fs::path RunLayout::lock() const { return m_dir / ".lock"; }
fs::path merge_file(const RunLayout& run) { return run.dir() / "merge.json"; }
std::string job_dir_ref(std::string_view arm, int attempt) { return fmt::format("jobs/{}-{}", component(arm), attempt); }
fs::path job_dir(const RunLayout& run, std::string_view arm, int attempt) { return run.dir() / job_dir_ref(arm, attempt); }
fs::path job_script(const RunLayout& run, std::string_view arm, int attempt) {
  return run.dir() / (job_dir_ref(arm, attempt) + ".sbatch");
}
fs::path job_log(const RunLayout& run, std::string_view arm, int attempt) {
  return run.dir() / (job_dir_ref(arm, attempt) + ".log");
}
fs::path manifests_dir(const RunLayout& run) { return run.dir() / "k8s"; }
fs::path assets_file(const RunLayout& run) { return run.dir() / "assets.json"; }
fs::path in_service_file(const RunLayout& run, std::string_view arm) { return run.arm_dir(arm) / "in_service.json"; }

fs::path RunLayout::arm_dir(std::string_view arm) const { return m_dir / "arms" / component(arm); }
fs::path RunLayout::server_facts(std::string_view arm) const { return arm_dir(arm) / "server_facts.json"; }
fs::path RunLayout::server_log(std::string_view arm) const { return arm_dir(arm) / "server.log"; }
fs::path RunLayout::server_pid(std::string_view arm) const { return arm_dir(arm) / "server.pid"; }
fs::path RunLayout::part_log(std::string_view arm, std::string_view part) const {
  return arm_dir(arm) / ("server-" + std::string(part) + ".log");
}
fs::path RunLayout::part_pid(std::string_view arm, std::string_view part) const {
  return arm_dir(arm) / ("server-" + std::string(part) + ".pid");
}
fs::path RunLayout::hooks_log(std::string_view arm) const { return arm_dir(arm) / "hooks.log"; }
fs::path RunLayout::gate(std::string_view arm) const { return arm_dir(arm) / "gate.json"; }
std::string RunLayout::server_facts_ref(std::string_view arm) {
  return fmt::format("arms/{}/server_facts.json", component(arm));
}

std::vector<std::string> RunLayout::arm_names() const {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(m_dir / "arms", ec)) {
    if (entry.is_directory()) names.insert(entry.path().filename().string());
  }
  return {names.begin(), names.end()};
}

fs::path RunLayout::requests(std::string_view arm, std::string_view scenario, std::int64_t concurrency,
                             std::optional<std::int64_t> repeat) const {
  const std::string name = repeat ? fmt::format("c{}-r{}.jsonl", concurrency, *repeat) : fmt::format("c{}.jsonl", concurrency);
  return m_dir / "requests" / component(arm) / component(scenario) / name;
}

fs::path RunLayout::search_requests(std::string_view arm, std::string_view scenario, std::int64_t run) const {
  return m_dir / "requests" / component(arm) / component(scenario) / fmt::format("search-{}.jsonl", run);
}

fs::path RunLayout::search_result() const { return m_dir / "slo_search.json"; }

fs::path RunLayout::telemetry_dir() const { return m_dir / "telemetry"; }
fs::path RunLayout::telemetry_manifest() const { return telemetry_dir() / "telemetry.json"; }
fs::path RunLayout::gpu_inventory_idle() const { return telemetry_dir() / "gpu_inventory_idle.csv"; }
fs::path RunLayout::gpu_inventory_final() const { return telemetry_dir() / "gpu_inventory_final.csv"; }
fs::path RunLayout::vram_timeline() const { return telemetry_dir() / "vram_timeline.csv"; }

}  // namespace servebench::results
