#include "servebench/campaign/child_process.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "servebench/util/exit_code.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

extern char** environ;

namespace servebench::campaign {
namespace {

// The campaign's environment with `overrides` applied, as execve wants it.
std::vector<std::string> merged_environment(const std::vector<std::string>& overrides) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view kv(*e);
    const auto eq = kv.find('=');
    if (eq != std::string_view::npos) vars[std::string(kv.substr(0, eq))] = std::string(kv.substr(eq + 1));
  }
  for (const auto& kv : overrides) {
    const auto eq = kv.find('=');
    if (eq != std::string::npos) vars[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  std::vector<std::string> out;
  out.reserve(vars.size());
  for (const auto& [k, v] : vars) out.push_back(k + "=" + v);
  return out;
}

std::vector<char*> c_strings(std::vector<std::string>& words) {
  std::vector<char*> out;
  out.reserve(words.size() + 1);
  for (auto& w : words) out.push_back(w.data());
  out.push_back(nullptr);
  return out;
}

// In the child between fork and exec: async-signal-safe calls only.
[[noreturn]] void exec_child(const char* program, char* const* argv, char* const* envp, int log_fd, pid_t parent) {
  // The campaign's SIGINT/SIGTERM handlers must not run here: they were blocked across fork, so a
  // signal sent now stays pending until the default action is back (see spawn()).
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(127);  // the campaign died before prctl took effect
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  dup2(log_fd, STDOUT_FILENO);
  dup2(log_fd, STDERR_FILENO);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  execve(program, argv, envp);
  _exit(127);
}

}  // namespace

util::Result<ChildProcess> ChildProcess::spawn(const SpawnSpec& spec) {
  SB_CHECK(!spec.argv.empty());
  if (auto ok = util::make_dirs(spec.log.parent_path()); !ok) return std::unexpected(ok.error());
  const int log_fd = open(spec.log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) return util::failf(util::ErrorKind::io, "cannot open {}: {}", spec.log.string(), std::strerror(errno));
  const auto start = static_cast<std::uintmax_t>(lseek(log_fd, 0, SEEK_END));
  std::vector<std::string> argv = spec.argv;
  std::vector<std::string> env = merged_environment(spec.env);
  const auto argv_c = c_strings(argv);
  const auto env_c = c_strings(env);
  const std::string program = spec.program.string();
  const pid_t parent = getpid();
  sigset_t stop_signals, previous;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, &previous);
  const pid_t pid = fork();
  if (pid != 0) pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (pid < 0) {
    close(log_fd);
    return util::failf(util::ErrorKind::io, "cannot start {}: fork: {}", program, std::strerror(errno));
  }
  if (pid == 0) exec_child(program.c_str(), argv_c.data(), env_c.data(), log_fd, parent);
  setpgid(pid, pid);  // also here, so the group exists before anyone signals it
  close(log_fd);
  return ChildProcess(pid, start);
}

ChildProcess::ChildProcess(ChildProcess&& o) noexcept
    : m_pid(std::exchange(o.m_pid, -1)), m_log_start(o.m_log_start), m_status(o.m_status),
      m_description(std::move(o.m_description)) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& o) noexcept {
  if (this != &o) {
    if (m_pid > 0 && !m_status) stop(std::chrono::seconds(5));
    m_pid = std::exchange(o.m_pid, -1);
    m_log_start = o.m_log_start;
    m_status = o.m_status;
    m_description = std::move(o.m_description);
  }
  return *this;
}

ChildProcess::~ChildProcess() {
  if (m_pid > 0 && !m_status) stop(std::chrono::seconds(5));
}

void ChildProcess::reap(int wait_status) {
  if (WIFEXITED(wait_status)) {
    m_status = WEXITSTATUS(wait_status);
    m_description = fmt::format("exited with status {}", *m_status);
  } else if (WIFSIGNALED(wait_status)) {
    m_status = util::exit_code_for_signal(WTERMSIG(wait_status));
    m_description = fmt::format("killed by signal {} ({})", WTERMSIG(wait_status), strsignal(WTERMSIG(wait_status)));
  }
}

bool ChildProcess::running() {
  if (m_pid <= 0 || m_status) return false;
  int st = 0;
  const pid_t r = waitpid(m_pid, &st, WNOHANG);
  if (r == m_pid) reap(st);
  return !m_status;
}

bool ChildProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (!running()) return true;
  // A pidfd becomes readable when the child exits: a wait on the condition, not a sleep loop. The
  // kernel waits in real time, so the deadline is on the process clock, not the campaign's.
  const int fd = static_cast<int>(syscall(SYS_pidfd_open, m_pid, 0));
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (running()) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    if (fd >= 0) {
      pollfd p{fd, POLLIN, 0};
      poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1000)));
    } else {
      std::this_thread::sleep_for(std::min(left, std::chrono::milliseconds(20)));  // kernels without pidfd
    }
  }
  if (fd >= 0) close(fd);
  return !running();
}

std::string ChildProcess::exit_description() const { return m_description; }

void ChildProcess::stop(std::chrono::milliseconds grace) {
  if (!running()) return;
  kill(-m_pid, SIGTERM);
  if (wait_exit(grace)) {
    kill(-m_pid, SIGKILL);  // workers the leader left behind
    return;
  }
  kill(-m_pid, SIGKILL);
  wait_exit(std::chrono::seconds(10));
}

std::vector<std::string> log_tail(const std::filesystem::path& log, std::size_t count, std::uintmax_t from) {
  auto text = util::read_file(log);
  if (!text) return {};
  std::string_view body(*text);
  body.remove_prefix(std::min<std::uintmax_t>(from, body.size()));
  std::vector<std::string> lines;
  for (const auto line : util::split(body, '\n')) lines.emplace_back(line);
  while (!lines.empty() && util::trim(lines.back()).empty()) lines.pop_back();
  if (lines.size() > count) lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(count));
  return lines;
}

}  // namespace servebench::campaign
