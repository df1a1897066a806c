#include "servebench/campaign/arm_server.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "servebench/campaign/process_table.hpp"
#include "servebench/http/bearer_exchange.hpp"
#include "servebench/http/blocking_client.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/redact.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {
namespace {

using util::ErrorKind;

constexpr std::chrono::milliseconds k_ready_poll{100};

std::optional<std::uint16_t> find_listening_port(const std::filesystem::path& log, std::uintmax_t from) {
  auto text = util::read_file(log);
  if (!text || from >= text->size()) return std::nullopt;
  for (const auto line : util::split(std::string_view(*text).substr(from), '\n')) {
    if (auto port = parse_listening_line(line)) return port;
  }
  return std::nullopt;
}

}  // namespace

util::Result<std::unique_ptr<ArmServer>> ArmServer::start(const ArmSpec& arm, const ServerFiles& files, StopSignal& stop,
                                                          const std::filesystem::path& self_exe,
                                                          const util::Clock& clock,
                                                          const std::vector<std::string>& launch_wrapper,
                                                          const std::vector<ServerFiles>& part_files) {
  if (arm.pd) return start_parts(arm, part_files, stop, self_exe, clock, launch_wrapper);
  std::unique_ptr<ArmServer> s(new ArmServer(arm, stop, clock));
  const std::filesystem::path& log = files.log;
  s->m_log = log;
  s->m_pid_file = files.pid;
  s->m_adapter = engines::make_adapter(arm.engine, clock);  // deadlines come from the same clock
  if (!arm.api_key_env.empty()) {
    const char* key = std::getenv(arm.api_key_env.c_str());
    if (key == nullptr || *key == '\0') {
      return util::failf(ErrorKind::bad_input, "arm '{}': api_key_env names {}, which is not set in the environment",
                         arm.name, arm.api_key_env);
    }
    s->m_api_key = key;
  }
  if (!arm.launch) {
    if (auto ok = s->connect(arm.base_url); !ok) return std::unexpected(ok.error());
    if (auto ok = s->wait_ready(nullptr); !ok) return std::unexpected(ok.error());
    return s;
  }
  auto plan = plan_launch(arm, self_exe, launch_wrapper);
  if (!plan) return std::unexpected(plan.error());
  plan->spawn.log = log;
  s->m_command = plan->command;
  const std::string banner = fmt::format("\n=== servebench campaign: launching arm '{}': {}\n", arm.name, plan->command);
  if (auto ok = util::append_durable(log, util::redact(banner)); !ok) return std::unexpected(ok.error());
  auto child = ChildProcess::spawn(plan->spawn);
  if (!child) return std::unexpected(child.error());
  s->m_process.emplace(std::move(*child));
  stop.guard_group(s->m_process->pid());
  // The group and its leader's start time: a resume after a kill -9 stops what survived
  // (stop_recorded_group), and never a process that merely reuses the pid.
  const auto stat = read_proc_stat(s->m_process->pid());
  (void)util::write_file_atomic(s->m_pid_file,
                                pid_record_text({s->m_process->pid(), stat ? stat->start_time : 0}));
  if (plan->port) {
    if (auto ok = s->connect(substitute_port(arm.base_url, *plan->port)); !ok) return std::unexpected(ok.error());
  } else if (plan->port_source == PortSource::fixed) {
    if (auto ok = s->connect(arm.base_url); !ok) return std::unexpected(ok.error());
  }
  if (auto ok = s->wait_ready(&*plan); !ok) return std::unexpected(ok.error());
  return s;
}

ArmServer::~ArmServer() { stop(); }

util::Result<void> ArmServer::connect(const std::string& base_url) {
  auto client = http::BlockingClient::create(base_url);
  if (!client) return std::unexpected(client.error());
  m_base_url = base_url;
  m_exchange = std::make_unique<http::BearerExchange>(std::move(*client), m_api_key);
  return {};
}

std::string ArmServer::tail_text() const {
  const auto lines = log_tail(m_log, k_log_tail_lines, m_process ? m_process->log_start() : 0);
  if (lines.empty()) return fmt::format("{} is empty", m_log.string());
  return fmt::format("last {} lines of {}:\n  {}", lines.size(), m_log.string(), util::join(lines, "\n  "));
}

util::Result<void> ArmServer::wait_ready(const LaunchPlan* plan) {
  const auto deadline = m_clock.now() + m_arm.ready_timeout;
  std::string last_problem = "no answer yet";
  for (;;) {
    if (m_stop.requested()) {
      return util::failf(ErrorKind::failed, "interrupted by signal {} while arm '{}' was starting", m_stop.signal_number(),
                         m_arm.name);
    }
    if (m_process && !m_process->running()) {
      return util::failf(ErrorKind::unreachable, "arm '{}': the server {} during startup; {}", m_arm.name,
                         m_process->exit_description(), tail_text());
    }
    if (!m_exchange && plan != nullptr && plan->port_source == PortSource::listening_line) {
      if (auto port = find_listening_port(m_log, m_process->log_start())) {
        if (auto ok = connect(substitute_port(m_arm.base_url, *port)); !ok) return ok;
      }
    }
    if (m_exchange) {
      auto h = m_adapter->health(*m_exchange);
      if (h && h->ready) return {};
      last_problem = h ? fmt::format("/health answered {} {}", h->status, h->detail) : h.error().message;
    }
    if (m_clock.now() >= deadline) {
      return util::failf(ErrorKind::unreachable, "arm '{}': not ready after {} s ({}); {}", m_arm.name,
                         m_arm.ready_timeout.count(), last_problem, m_process ? tail_text() : "attached server");
    }
    m_stop.wait_for(k_ready_poll);
  }
}

bool ArmServer::alive() {
  if (!m_parts.empty()) {
    return std::all_of(m_parts.begin(), m_parts.end(), [](const auto& p) { return p->alive(); });
  }
  if (m_process) return m_process->running();
  if (!m_exchange) return false;
  auto h = m_adapter->health(*m_exchange);
  return h && h->ready;
}

std::string ArmServer::death_report() {
  for (const auto& p : m_parts) {
    if (!p->alive()) return fmt::format("{} part: {}", p->m_arm.name.substr(m_arm.name.size() + 1), p->death_report());
  }
  if (!m_process) return fmt::format("server at {} stopped answering /health", m_base_url);
  return fmt::format("server {}; {}", m_process->exit_description(), tail_text());
}

void ArmServer::stop() {
  while (!m_parts.empty()) {  // the router first, so nothing reaches a part that is going
    m_parts.back()->stop();
    m_parts.pop_back();
  }
  if (!m_process) return;
  m_stop.guard_group(0);
  m_exchange.reset();  // close keep-alive connections before the server goes
  m_process->stop(m_arm.stop_timeout);
  m_process.reset();
  std::error_code ec;
  std::filesystem::remove(m_pid_file, ec);
}

}  // namespace servebench::campaign
