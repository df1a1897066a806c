#include "servebench/campaign/launch_plan.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "servebench/util/strings.hpp"

namespace servebench::campaign {
namespace {

using util::ErrorKind;

constexpr std::string_view k_shell_chars = "|&;<>$`()*?\n";

bool needs_shell(std::string_view command) { return command.find_first_of(k_shell_chars) != std::string_view::npos; }

bool is_env_word(std::string_view w) {
  const auto eq = w.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  for (std::size_t i = 0; i < eq; ++i) {
    const char c = w[i];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return !std::isdigit(static_cast<unsigned char>(w[0]));
}

// PATH with the running binary's directory first, so `servebench` in commands and hooks is this build.
std::string path_with_self(const std::filesystem::path& self_exe) {
  const char* path = std::getenv("PATH");
  const std::string dir = self_exe.parent_path().string();
  return path != nullptr && *path != '\0' ? dir + ":" + path : dir;
}

util::Result<std::filesystem::path> find_program(const std::string& name, const std::filesystem::path& self_exe) {
  if (name == "servebench") return self_exe;
  if (name.find('/') != std::string::npos) return std::filesystem::path(name);
  const std::string search = path_with_self(self_exe);
  for (const auto dir : util::split(search, ':')) {
    const auto candidate = std::filesystem::path(dir.empty() ? "." : std::string(dir)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return util::failf(ErrorKind::bad_input, "launch program '{}' is not on PATH", name);
}

bool is_serve_sim(const std::vector<std::string>& words) {
  return words.size() >= 2 && std::filesystem::path(words[0]).filename() == "servebench" && words[1] == "serve-sim";
}

std::vector<std::string> env_words(const ArmSpec& arm, const std::filesystem::path& self_exe) {
  std::vector<std::string> env{"PATH=" + path_with_self(self_exe)};
  for (const auto& e : arm.env) env.push_back(e.name + "=" + e.value);
  return env;
}

}  // namespace

std::filesystem::path self_executable() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path("servebench") : p;
}

util::Result<std::uint16_t> pick_free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return util::failf(ErrorKind::io, "cannot pick a port: socket: {}", std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
  const int err = errno;
  close(fd);
  if (!ok) return util::failf(ErrorKind::io, "cannot pick a port on 127.0.0.1: {}", std::strerror(err));
  return ntohs(addr.sin_port);
}

std::string substitute_port(std::string text, std::uint16_t port) {
  return util::replace_all(std::move(text), k_port, std::to_string(port));
}

util::Result<LaunchPlan> plan_launch(const ArmSpec& arm, const std::filesystem::path& self_exe,
                                     const std::vector<std::string>& wrapper) {
  SB_CHECK(arm.launch.has_value());
  LaunchPlan plan;
  std::string command = *arm.launch;
  const bool has_port = command.find(k_port) != std::string::npos;
  auto words = util::shell_split(command);
  if (!words || words->empty()) return util::failf(ErrorKind::bad_input, "arm '{}': launch does not split", arm.name);
  std::size_t first = 0;
  while (first < words->size() && is_env_word((*words)[first])) ++first;
  const std::vector<std::string> program_words(words->begin() + static_cast<std::ptrdiff_t>(first), words->end());
  const bool direct = !needs_shell(command) && !program_words.empty();
  if (has_port && direct && is_serve_sim(program_words)) {
    plan.port_source = PortSource::listening_line;
    command = substitute_port(command, 0);
  } else if (has_port) {
    auto port = pick_free_port();
    if (!port) return std::unexpected(port.error());
    plan.port_source = PortSource::chosen;
    plan.port = *port;
    command = substitute_port(command, *port);
  }
  plan.command = command;
  plan.spawn.env = env_words(arm, self_exe);
  if (!wrapper.empty()) {  // the scheduler's launcher runs the command (it passes the environment on)
    plan.spawn = shell_spawn(command, plan.spawn.env, self_exe);
    auto program = find_program(wrapper.front(), self_exe);
    if (!program) return util::failf(ErrorKind::bad_input, "arm '{}': launch wrapper: {}", arm.name, program.error().message);
    plan.spawn.program = *program;
    std::vector<std::string> argv = wrapper;
    argv.insert(argv.end(), {"/bin/sh", "-c", command});
    plan.spawn.argv = std::move(argv);
    plan.command = util::join(wrapper, " ") + " " + command;
    return plan;
  }
  if (!direct) {
    plan.spawn = shell_spawn(command, plan.spawn.env, self_exe);
    return plan;
  }
  auto final_words = *util::shell_split(command);
  for (std::size_t i = 0; i < first; ++i) plan.spawn.env.push_back(final_words[i]);
  plan.spawn.argv.assign(final_words.begin() + static_cast<std::ptrdiff_t>(first), final_words.end());
  auto program = find_program(plan.spawn.argv[0], self_exe);
  if (!program) return util::failf(ErrorKind::bad_input, "arm '{}': {}", arm.name, program.error().message);
  plan.spawn.program = *program;
  return plan;
}

SpawnSpec shell_spawn(const std::string& command, std::vector<std::string> env, const std::filesystem::path& self_exe) {
  SpawnSpec s;
  s.program = "/bin/sh";
  s.argv = {"sh", "-c", command};
  s.env = std::move(env);
  if (s.env.empty() || !s.env.front().starts_with("PATH=")) s.env.insert(s.env.begin(), "PATH=" + path_with_self(self_exe));
  return s;
}

std::optional<std::uint16_t> parse_listening_line(std::string_view line) {
  constexpr std::string_view k_prefix = "servebench serve-sim listening on http://";
  const auto at = line.find(k_prefix);
  if (at == std::string_view::npos) return std::nullopt;
  auto rest = line.substr(at + k_prefix.size());
  const auto colon = rest.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  auto digits = util::trim(rest.substr(colon + 1));
  while (!digits.empty() && !std::isdigit(static_cast<unsigned char>(digits.back()))) digits.remove_suffix(1);
  auto port = util::parse_int(digits, "port");
  if (!port || *port <= 0 || *port > 65535) return std::nullopt;
  return static_cast<std::uint16_t>(*port);
}

}  // namespace servebench::campaign
