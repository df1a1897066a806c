#include "servebench/campaign/stop_signal.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <mutex>

namespace servebench::campaign {
namespace {

std::atomic<int> g_signal{0};
std::atomic<pid_t> g_group{0};
int g_pipe[2] = {-1, -1};

static_assert(std::atomic<int>::is_always_lock_free);
static_assert(std::atomic<pid_t>::is_always_lock_free);

// Async-signal-safe only: atomics, kill, write.
void on_signal(int sig) {
  const int saved = errno;
  g_signal.store(sig);
  if (const pid_t group = g_group.load(); group > 0) kill(-group, SIGTERM);
  const char byte = 1;
  [[maybe_unused]] const auto n = write(g_pipe[1], &byte, 1);
  errno = saved;
}

}  // namespace

StopSignal& StopSignal::install() {
  static StopSignal instance;
  static std::once_flag once;
  std::call_once(once, [] {
    if (pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) g_pipe[0] = g_pipe[1] = -1;
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
  });
  return instance;
}

bool StopSignal::requested() const { return g_signal.load() != 0; }
int StopSignal::signal_number() const { return g_signal.load(); }

// poll(2) waits in real time, so the deadline is on the process clock, not the campaign's.
bool StopSignal::wait_for(std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!requested()) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{g_pipe[0], POLLIN, 0};
    poll(&p, 1, static_cast<int>(left.count()));  // the handler's byte stays in the pipe: every waiter wakes
  }
  return true;
}

void StopSignal::guard_group(pid_t pgid) { g_group.store(pgid); }

void StopSignal::reset_for_tests() {
  g_signal.store(0);
  char buf[64];
  while (read(g_pipe[0], buf, sizeof buf) > 0) {
  }
}

}  // namespace servebench::campaign
