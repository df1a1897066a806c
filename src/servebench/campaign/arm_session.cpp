#include "servebench/campaign/arm_session.hpp"

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/campaign/hook.hpp"
#include "servebench/campaign/process_table.hpp"
#include "servebench/results/in_service_file.hpp"
#include "servebench/results/gate_file.hpp"
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
    : m_spec(spec), m_arm(arm), m_env(std::move(env)), m_run(m_env.run_dir) {
  m_context.spec = &spec;
  m_context.arm = &arm;
  m_context.run_dir = m_env.run_dir;
  m_context.tool = m_env.tool;
  m_context.clock = m_env.clock;
  m_context.gate = {std::nullopt, arm.gate.required};
  m_context.server_ref = {std::string(engines::to_string(arm.engine)), arm_fingerprint(arm).value_or(""),
                          results::RunLayout::server_facts_ref(arm.name)};
}

ArmSession::~ArmSession() { (void)close(); }

util::Result<void> ArmSession::open() {
  if (auto ok = util::make_dirs(m_run.arm_dir(m_arm.name)); !ok) return ok;
  if (m_arm.in_service) {  // before `before` changes anything: the snapshot the restore is checked against
    m_in_service.emplace(m_arm, results::in_service_file(m_run, m_arm.name), m_env.clock, m_env.console);
    if (auto ok = m_in_service->before(); !ok) return ok;
  }
  m_entered = true;
  if (!m_arm.before.empty()) {
    fmt::print(m_env.console, "arm {}: before hook: {}\n", m_arm.name, m_arm.before);
    std::fflush(m_env.console);
    auto ok = run_hook({m_arm.name, "before", m_arm.before, m_env.run_dir, m_run.hooks_log(m_arm.name), m_env.self_exe});
    if (!ok) return ok;
  }
  return start_server();
}

util::Result<void> ArmSession::start_server() {
  const ServerFiles files{m_run.server_log(m_arm.name), m_run.server_pid(m_arm.name)};
  std::vector<ServerFiles> parts;  // a disaggregated arm's, in launch order
  for (const PdPart part : k_pd_parts) {
    if (m_arm.pd) parts.push_back({m_run.part_log(m_arm.name, to_string(part)), m_run.part_pid(m_arm.name, to_string(part))});
  }
  // What an earlier run left behind (a kill -9 cannot stop a shell's children): every recorded group.
  std::vector<std::filesystem::path> pid_files;
  if (m_arm.launch) pid_files.push_back(files.pid);
  for (const auto& part : parts) pid_files.push_back(part.pid);
  for (const auto& pid_file : pid_files) {
    const std::string stopped = stop_recorded_group(pid_file, m_arm.stop_timeout);
    if (!stopped.empty()) fmt::print(m_env.console, "arm {}: {}\n", m_arm.name, stopped);
  }
  fmt::print(m_env.console, "arm {}: {}\n", m_arm.name,
             m_arm.launch ? "launching " + *m_arm.launch
             : m_arm.pd   ? fmt::format("launching prefill: {}; decode: {}; router: {}", m_arm.pd->prefill,
                                        m_arm.pd->decode, m_arm.pd->router)
                          : "attaching to " + m_arm.base_url);
  std::fflush(m_env.console);
  const util::Clock& clock = *m_env.clock.steady;
  const auto t0 = clock.now();
  auto server = ArmServer::start(m_arm, files, *m_env.stop, m_env.self_exe, clock, m_env.launch_wrapper, parts);
  if (!server) return std::unexpected(server.error());
  m_server = std::move(*server);
  const double ready_s = util::to_seconds(clock.now() - t0);
  const auto t1 = clock.now();
  const CapturedFacts facts = capture_facts(m_arm, *m_server, *m_env.clock.wall);
  const double facts_ms = util::to_ms(clock.now() - t1);
  if (auto ok = results::write_server_facts(m_run.server_facts(m_arm.name), facts.file); !ok) return ok;
  m_limits = facts.limits;
  m_context.time_scale = facts.time_scale;
  m_context.server_ref.fingerprint = facts.file.fingerprint;
  fmt::print(m_env.console, "arm {}: ready at {} after {:.1f} s (facts read in {:.0f} ms); {}\n", m_arm.name,
             m_server->base_url(), ready_s, facts_ms, limits_text(m_limits, m_context.time_scale));
  if (!facts.file.facts_error.empty()) {
    fmt::print(m_env.console, "arm {}: facts unavailable: {}\n", m_arm.name, facts.file.facts_error);
  }
  auto control = load::EngineControl::create(backend_of(m_arm, m_spec.protocol.request.api), m_server->base_url(),
                                             m_server->api_key());
  if (!control) return std::unexpected(control.error());
  m_control = std::move(*control);
  if (!m_arm.model.empty()) m_control->set_model(m_arm.model);
  m_context.server = m_server.get();
  m_context.control = m_control.get();
  run_gate_once();
  if (!m_prompts) {
    auto prompts = PromptSource::open(m_spec.protocol, m_run.ledger(), *m_control);
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
  (void)results::write_gate(m_run.gate(m_arm.name), *m_gate, m_arm.name);
  m_context.gate = summary_of(*m_gate);
  for (const auto& probe : m_gate->probes) {
    if (probe.name != "gsm8k" || !probe.wilson_low || !probe.wilson_high) continue;
    m_context.quality = boost::json::object{{"probe", probe.name}, {"dataset", probe.dataset}, {"n", probe.n}, {"correct", probe.correct},
                         {"accuracy", probe.accuracy}, {"wilson_low", *probe.wilson_low}, {"wilson_high", *probe.wilson_high}};
  }
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
  if (!m_entered) return {};
  if (m_arm.after.empty()) {
    if (m_in_service) m_in_service->after();
    return {};
  }
  fmt::print(m_env.console, "arm {}: after hook: {}\n", m_arm.name, m_arm.after);
  std::fflush(m_env.console);
  auto ran = run_hook({m_arm.name, "after", m_arm.after, m_env.run_dir, m_run.hooks_log(m_arm.name), m_env.self_exe});
  if (m_in_service) m_in_service->after();  // also when the hook failed: whether the service is back is what matters
  return ran;
}

std::string ArmSession::restore_failure() const {
  return m_in_service && m_in_service->restored() == false ? m_in_service->summary() : std::string();
}

}  // namespace servebench::campaign
