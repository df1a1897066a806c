#pragma once
// GPU telemetry through nvidia-smi, when it is on PATH: telemetry/gpu_inventory_idle.csv before
// any arm launches, vram_timeline.csv sampled every interval (telemetry.interval_s, default 30 s)
// by a background thread, gpu_inventory_final.csv at the end. Without nvidia-smi,
// telemetry/telemetry.json says it was unavailable and why — never silently absent.
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

#include "servebench/results/run_layout.hpp"

namespace servebench::campaign {

inline constexpr std::string_view k_telemetry_schema = "servebench.telemetry/1";

class Telemetry {
 public:
  // Writes the idle inventory and starts the sampler (or records unavailability).
  Telemetry(const results::RunLayout& run, std::chrono::seconds interval);
  // stop()
  ~Telemetry();
  Telemetry(const Telemetry&) = delete;
  Telemetry& operator=(const Telemetry&) = delete;

  bool available() const { return !m_smi.empty(); }
  // Stops the sampler and writes the final inventory; idempotent.
  void stop();

 private:
  void sample_loop();
  void write_manifest(const std::string& reason) const;

  results::RunLayout m_run;
  std::filesystem::path m_smi;
  std::chrono::seconds m_interval;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stopping = false, m_stopped = false;
  std::thread m_thread;
};

// The output of `command` (run by /bin/sh), or "" when it fails.
std::string capture_output(const std::string& command);

}  // namespace servebench::campaign
