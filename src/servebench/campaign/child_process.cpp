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

#include "servebench/campaign/process_table.hpp"
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
[[noreturn]] void exec_child(const char* program, char* const* argv, char* const* envp, int out_fd, pid_t parent) {
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
  dup2(out_fd, STDOUT_FILENO);
  dup2(out_fd, STDERR_FILENO);
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
  int out[2] = {-1, -1};  // the child's stdout and stderr; the pump reads the other end
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(log_fd);
    return util::failf(util::ErrorKind::io, "cannot start {}: pipe: {}", spec.program.string(), std::strerror(errno));
  }
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
    close(out[0]);
    close(out[1]);
    return util::failf(util::ErrorKind::io, "cannot start {}: fork: {}", program, std::strerror(errno));
  }
  if (pid == 0) exec_child(program.c_str(), argv_c.data(), env_c.data(), out[1], parent);
  setpgid(pid, pid);  // also here, so the group exists before anyone signals it
  close(out[1]);
  return ChildProcess(pid, start, std::make_unique<LogPump>(out[0], log_fd));
}

ChildProcess::ChildProcess(ChildProcess&& o) noexcept
    : m_pid(std::exchange(o.m_pid, -1)), m_log_start(o.m_log_start), m_status(o.m_status),
      m_description(std::move(o.m_description)), m_pump(std::move(o.m_pump)), m_stopped(o.m_stopped) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& o) noexcept {
  if (this != &o) {
    release();
    m_pid = std::exchange(o.m_pid, -1);
    m_log_start = o.m_log_start;
    m_status = o.m_status;
    m_description = std::move(o.m_description);
    m_pump = std::move(o.m_pump);
    m_stopped = o.m_stopped;
  }
  return *this;
}

ChildProcess::~ChildProcess() { release(); }

void ChildProcess::reap(int wait_status) {
  // What the child wrote before it exited is in the log before anyone reads the log's tail.
  if (m_pump) m_pump->finish(std::chrono::milliseconds(200));
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
  if (m_pid <= 0 || m_stopped) return;
  m_stopped = true;
  // The group outlives its leader when the leader is a shell that started the server as its own
  // child: the members are stopped whether or not the leader still runs. A pid is not reused while
  // a group of that id has members, so the signals reach only this group.
  const auto members_left = [&] { return running() || !live_group_members(m_pid).empty(); };
  if (members_left()) {
    const auto deadline = std::chrono::steady_clock::now() + grace;
    kill(-m_pid, SIGTERM);
    wait_exit(grace);
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    wait_group_gone(m_pid, std::max(left, std::chrono::milliseconds(0)));
    if (members_left()) {
      kill(-m_pid, SIGKILL);
      wait_exit(std::chrono::seconds(10));
      wait_group_gone(m_pid, std::chrono::seconds(10));
    }
  }
  if (m_pump) m_pump->finish(std::chrono::seconds(1));
}

void ChildProcess::release() {
  // A leader that exited by itself (a hook that finished) keeps what it started in the background.
  if (m_pid > 0 && !m_stopped && running()) {
    stop(std::chrono::seconds(5));
  } else if (m_pump) {
    m_pump->finish(std::chrono::seconds(1));
  }
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
