#pragma once
// One arm from `before` to `after`: the hook, the server (launched or attached) and its facts
// (server_facts.json), the load generator's engine control, the quality gate (gate.json), the
// prompt source — and one relaunch when the server dies mid-campaign. close() (also run by the
// destructor) stops the server and runs `after` whenever `before` ran, on every exit path.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "servebench/campaign/arm_server.hpp"
#include "servebench/campaign/gate.hpp"
#include "servebench/campaign/in_service.hpp"
#include "servebench/campaign/protocol.hpp"
#include "servebench/campaign/server_facts.hpp"
#include "servebench/campaign/stop_signal.hpp"
#include "servebench/load/engine_control.hpp"
#include "servebench/results/run_layout.hpp"

namespace servebench::campaign {

struct SessionEnv {
  std::filesystem::path run_dir, self_exe;
  StopSignal* stop = nullptr;
  std::FILE* console = stdout;
  results::ToolInfo tool;
  CampaignClock clock;
  std::vector<std::string> launch_wrapper;  // RunOptions::launch_wrapper
};

class ArmSession {
 public:
  ArmSession(const CampaignSpec& spec, const ArmSpec& arm, SessionEnv env);
  ~ArmSession();  // close()
  ArmSession(const ArmSession&) = delete;
  ArmSession& operator=(const ArmSession&) = delete;

  // before hook → server ready → facts → engine control → gate → prompt source. Fails with
  // unreachable (server not ready: the message has the log tail), failed (hook failed,
  // interrupted), bad_input (launch, corpus) or io.
  util::Result<void> open();
  // After the server died: stop what is left and start it again, once per session. Fails when the
  // one relaunch is used up or the server does not come back.
  util::Result<void> relaunch();
  bool alive() { return m_server && m_server->alive(); }
  std::string death_report() { return m_server ? m_server->death_report() : "the server is not running"; }

  // What points need (complete after open(); before that, enough for failed records).
  const ArmContext& context() const { return m_context; }
  const ArmLimits& limits() const { return m_limits; }

  // Stops the server and runs `after` (once), then verifies the in-service restore. Returns the
  // after hook's failure, if any.
  util::Result<void> close();
  // After close(): "" unless the arm has an in-service server that did not come back the same.
  std::string restore_failure() const;

 private:
  util::Result<void> start_server();
  void run_gate_once();

  const CampaignSpec& m_spec;
  const ArmSpec& m_arm;
  SessionEnv m_env;
  results::RunLayout m_run;
  bool m_entered = false, m_closed = false;
  int m_relaunches = 0;
  std::unique_ptr<ArmServer> m_server;
  std::unique_ptr<load::EngineControl> m_control;
  std::optional<PromptSource> m_prompts;
  std::optional<GateResult> m_gate;
  std::optional<InServiceCheck> m_in_service;
  ArmLimits m_limits;
  ArmContext m_context;
};

}  // namespace servebench::campaign
