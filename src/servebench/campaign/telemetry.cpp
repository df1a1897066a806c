#include "servebench/campaign/telemetry.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {
namespace {

constexpr std::string_view k_inventory_query =
    "--query-gpu=index,name,uuid,memory.total,memory.used,utilization.gpu,temperature.gpu,power.draw --format=csv";
constexpr std::string_view k_timeline_query = "--query-gpu=timestamp,index,memory.used,utilization.gpu --format=csv";

std::filesystem::path find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  for (const auto dir : util::split(std::string_view(path), ':')) {
    const auto candidate = std::filesystem::path(dir.empty() ? "." : std::string(dir)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

}  // namespace

std::string capture_output(const std::string& command) {
  std::FILE* pipe = popen(command.c_str(), "re");
  if (pipe == nullptr) return "";
  std::string out;
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  return pclose(pipe) == 0 ? out : "";
}

Telemetry::Telemetry(const results::RunLayout& run, std::chrono::seconds interval)
    : m_run(run), m_smi(find_on_path("nvidia-smi")), m_interval(interval) {
  (void)util::make_dirs(m_run.telemetry_dir());
  if (!available()) {
    write_manifest("nvidia-smi is not on PATH");
    return;
  }
  const std::string smi = util::shell_quote(m_smi.string());
  (void)util::write_file_atomic(m_run.gpu_inventory_idle(), capture_output(fmt::format("{} {}", smi, k_inventory_query)));
  write_manifest("");
  m_thread = std::thread([this] { sample_loop(); });
}

Telemetry::~Telemetry() { stop(); }

void Telemetry::write_manifest(const std::string& reason) const {
  boost::json::object o{{"schema", k_telemetry_schema},
                        {"available", available()},
                        {"interval_s", m_interval.count()},
                        {"nvidia_smi", m_smi.string()}};
  if (!reason.empty()) o["reason"] = reason;
  (void)util::write_file_atomic(m_run.telemetry_manifest(), util::to_json_text_pretty(o) + "\n");
}

void Telemetry::sample_loop() {
  const std::string smi = util::shell_quote(m_smi.string());
  bool header = !std::filesystem::exists(m_run.vram_timeline());
  std::unique_lock lock(m_mutex);
  do {  // the first sample is taken even when the campaign ends at once
    lock.unlock();
    std::string rows = capture_output(fmt::format("{} {}{}", smi, k_timeline_query, header ? "" : ",noheader"));
    if (!rows.empty()) {
      header = false;
      (void)util::append_durable(m_run.vram_timeline(), rows);
    }
    lock.lock();
    m_wake.wait_for(lock, m_interval, [this] { return m_stopping; });
  } while (!m_stopping);
}

void Telemetry::stop() {
  {
    std::lock_guard lock(m_mutex);
    if (m_stopped) return;
    m_stopped = m_stopping = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) m_thread.join();
  if (available()) {
    const std::string smi = util::shell_quote(m_smi.string());
    (void)util::write_file_atomic(m_run.gpu_inventory_final(),
                                  capture_output(fmt::format("{} {}", smi, k_inventory_query)));
  }
}

}  // namespace servebench::campaign
