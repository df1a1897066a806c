#pragma once
// One arm's server for as long as it is measured: launched in its own process group (or attached
// to when the arm has no launch), waited on until healthy, reached through the engine adapter,
// watched for death, and stopped (SIGTERM, grace, SIGKILL of the group).
#include <chrono>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "servebench/campaign/child_process.hpp"
#include "servebench/campaign/launch_plan.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/campaign/stop_signal.hpp"
#include "servebench/engines/adapter.hpp"
#include "servebench/http/exchange.hpp"

namespace servebench::campaign {

inline constexpr std::size_t k_log_tail_lines = 20;

// Where a launched server's output goes and where its process group is recorded while it runs
// (arms/<arm>/server.log and server.pid: results::RunLayout).
struct ServerFiles {
  std::filesystem::path log, pid;
};

class ArmServer {
 public:
  // Launches `arm` with output to `log` (or attaches) and waits for /health within the arm's
  // ready_timeout. Fails with unreachable when it is not ready in time or exits during startup
  // (the message carries the last 20 log lines), bad_input when the launch cannot be planned,
  // and failed ("interrupted") when a stop signal arrives first.
  // `clock` sets the readiness deadline.
  static util::Result<std::unique_ptr<ArmServer>> start(const ArmSpec& arm, const ServerFiles& files, StopSignal& stop,
                                                        const std::filesystem::path& self_exe,
                                                        const util::Clock& clock = util::steady_clock(),
                                                        const std::vector<std::string>& launch_wrapper = {},
                                                        const std::vector<ServerFiles>& part_files = {});
  ~ArmServer();  // stop()

  // A disaggregated arm (arm.pd) has `part_files` (arms/<arm>/server-<part>.*, in launch order) and
  // starts its parts in order — prefill and decode, each until healthy,
  // then the router with their URLs — and is reached through the router (pd_server.cpp).
  const std::string& base_url() const { return m_base_url; }
  const std::string& command() const { return m_command; }  // as run ("" when attached)
  // The key from the arm's api_key_env ("" when none): the load generator sends it too.
  const std::string& api_key() const { return m_api_key; }
  bool launched() const { return m_process.has_value() || !m_parts.empty(); }
  // A disaggregated arm's parts in launch order (prefill, decode, router); empty otherwise.
  const std::vector<std::unique_ptr<ArmServer>>& parts() const { return m_parts; }
  // A launched server whose process has exited is dead; an attached one is alive while /health answers.
  bool alive();
  // "server killed by signal 9 (Killed); last log lines:\n..." for a dead launched server.
  std::string death_report();
  // Stops a launched server (grace: the arm's stop_timeout); no-op when attached or stopped.
  void stop();

  http::Exchange& exchange() { return m_parts.empty() ? *m_exchange : m_parts.back()->exchange(); }
  engines::EngineAdapter& adapter() { return m_parts.empty() ? *m_adapter : m_parts.back()->adapter(); }

 private:
  static util::Result<std::unique_ptr<ArmServer>> start_parts(const ArmSpec& arm, const std::vector<ServerFiles>& files,
                                                              StopSignal& stop, const std::filesystem::path& self_exe,
                                                              const util::Clock& clock,
                                                              const std::vector<std::string>& launch_wrapper);
  ArmServer(const ArmSpec& arm, StopSignal& stop, const util::Clock& clock) : m_arm(arm), m_stop(stop), m_clock(clock) {}
  util::Result<void> wait_ready(const LaunchPlan* plan);
  util::Result<void> connect(const std::string& base_url);
  std::string tail_text() const;

  const ArmSpec& m_arm;
  StopSignal& m_stop;
  const util::Clock& m_clock;
  std::filesystem::path m_log, m_pid_file;
  std::optional<ChildProcess> m_process;
  std::string m_base_url, m_command, m_api_key;
  std::unique_ptr<http::Exchange> m_exchange;
  std::unique_ptr<engines::EngineAdapter> m_adapter;
  std::deque<ArmSpec> m_part_arms;  // what m_parts' servers refer to (stable addresses)
  std::vector<std::unique_ptr<ArmServer>> m_parts;
};

}  // namespace servebench::campaign
