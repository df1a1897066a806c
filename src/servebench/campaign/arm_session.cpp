#include "servebench/campaign/arm_session.hpp"

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/campaign/hook.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::campaign {
namespace {

std::string limits_text(const ArmLimits& l, const std::optional<double>& time_scale) {
  const auto n = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("?"); };
  std::string s = fmt::format("kv pool {} tokens, max running requests {}, context {}", n(l.kv_pool_tokens),
                              n(l.max_running_requests), n(l.context_length));
  if (time_scale && *time_scale == 1) s += ", simulator in real time";
  else if (time_scale) s += fmt::format(", simulator time scale {} (measured times are scaled, not real)", *time_scale);
  return s;
}

}  // namespace

ArmSession::ArmSession(const CampaignSpec& spec, const ArmSpec& arm, SessionEnv env)
    : m_spec(spec), m_arm(arm), m_env(std::move(env)), m_arm_dir(m_env.run_dir / "arms" / arm.name) {
  m_context.spec = &spec;
  m_context.arm = &arm;
  m_context.run_dir = m_env.run_dir;
  m_context.tool = m_env.tool;
  m_context.gate = {std::nullopt, arm.gate.required};
  m_context.server_ref = {std::string(engines::to_string(arm.engine)), arm_fingerprint(arm).value_or(""),
                          fmt::format("arms/{}/server_facts.json", arm.name)};
}

ArmSession::~ArmSession() { (void)close(); }

util::Result<void> ArmSession::open() {
  m_entered = true;
  if (auto ok = util::make_dirs(m_arm_dir); !ok) return ok;
  if (!m_arm.before.empty()) {
    fmt::print(m_env.console, "arm {}: before hook: {}\n", m_arm.name, m_arm.before);
    std::fflush(m_env.console);
    auto ok = run_hook({m_arm.name, "before", m_arm.before, m_env.run_dir, m_arm_dir / "hooks.log", m_env.self_exe});
    if (!ok) return ok;
  }
  return start_server();
}

util::Result<void> ArmSession::start_server() {
  fmt::print(m_env.console, "arm {}: {}\n", m_arm.name,
             m_arm.launch ? "launching " + *m_arm.launch : "attaching to " + m_arm.base_url);
  std::fflush(m_env.console);
  const auto t0 = std::chrono::steady_clock::now();
  auto server = ArmServer::start(m_arm, m_arm_dir / "server.log", *m_env.stop, m_env.self_exe);
  if (!server) return std::unexpected(server.error());
  m_server = std::move(*server);
  const auto ready_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto t1 = std::chrono::steady_clock::now();
  const CapturedFacts facts = capture_facts(m_arm, *m_server, util::system_wall_clock());
  const auto facts_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
  if (auto ok = write_facts(m_arm_dir / "server_facts.json", facts); !ok) return ok;
  m_limits = facts.limits;
  m_context.time_scale = facts.time_scale;
  m_context.server_ref.fingerprint = facts.fingerprint;
  fmt::print(m_env.console, "arm {}: ready at {} after {:.1f} s (facts read in {:.0f} ms); {}\n", m_arm.name,
             m_server->base_url(), ready_s, facts_ms, limits_text(m_limits, m_context.time_scale));
  if (!facts.facts_error.empty()) fmt::print(m_env.console, "arm {}: facts unavailable: {}\n", m_arm.name, facts.facts_error);
  auto control = load::EngineControl::create(backend_of(m_arm, m_spec.protocol.request.api), m_server->base_url(), "");
  if (!control) return std::unexpected(control.error());
  m_control = std::move(*control);
  if (!m_arm.model.empty()) m_control->set_model(m_arm.model);
  m_context.server = m_server.get();
  m_context.control = m_control.get();
  run_gate_once();
  if (!m_prompts) {
    auto prompts = PromptSource::open(m_spec.protocol, m_env.run_dir / "ledger.jsonl", *m_control);
    if (!prompts) return std::unexpected(prompts.error());
    m_prompts.emplace(std::move(*prompts));
  }
  m_context.prompts = &*m_prompts;
  return {};
}

void ArmSession::run_gate_once() {
  if (m_gate) return;  // a relaunch runs the same command: its gate result stands
  const std::string model = m_control->first_model().value_or("");
  m_gate = run_gate(m_arm, m_server->exchange(), model);
  if (m_env.stop->requested()) return;  // the server was being stopped under the probes: no verdict
  (void)util::write_file_atomic(m_arm_dir / "gate.json", util::to_json_text_pretty(to_json(*m_gate, m_arm.name)) + "\n");
  m_context.gate = summary_of(*m_gate);
  const bool failed = m_gate->passed == false;
  if (failed && m_gate->required) m_context.gate_failure = "quality gate failed: " + m_gate->summary();
  if (!m_gate->enabled) {
    fmt::print(m_env.console, "arm {}: quality gate disabled (gate: false)\n", m_arm.name);
    return;
  }
  const std::string verdict = !m_gate->passed ? "not run" : *m_gate->passed ? "passed" : m_gate->required ? "FAILED" : "failed (not required)";
  fmt::print(m_env.console, "arm {}: quality gate {} ({})\n", m_arm.name, verdict, m_gate->summary());
  for (const auto& p : m_gate->probes) {
    if (!p.passed && !p.detail.empty()) fmt::print(m_env.console, "arm {}:   {}: {}\n", m_arm.name, p.name, p.detail);
  }
  std::fflush(m_env.console);
}

util::Result<void> ArmSession::relaunch() {
  if (m_relaunches >= 1) {
    return util::failf(util::ErrorKind::failed, "the server of arm '{}' died again; it is relaunched only once", m_arm.name);
  }
  ++m_relaunches;
  m_context.control = nullptr;
  m_context.server = nullptr;
  m_control.reset();
  m_server.reset();  // stops what is left of the group
  fmt::print(m_env.console, "arm {}: relaunching the server for the remaining points\n", m_arm.name);
  return start_server();
}

util::Result<void> ArmSession::close() {
  if (m_closed) return {};
  m_closed = true;
  m_context.control = nullptr;
  m_context.server = nullptr;
  m_control.reset();
  m_server.reset();
  if (!m_entered || m_arm.after.empty()) return {};
  fmt::print(m_env.console, "arm {}: after hook: {}\n", m_arm.name, m_arm.after);
  std::fflush(m_env.console);
  return run_hook({m_arm.name, "after", m_arm.after, m_env.run_dir, m_arm_dir / "hooks.log", m_env.self_exe});
}

}  // namespace servebench::campaign
