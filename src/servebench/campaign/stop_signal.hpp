#pragma once
// SIGINT / SIGTERM of the campaign: the handler records the signal, wakes every wait through a
// self-pipe, and SIGTERMs the server group being measured (so an in-flight point ends at once
// instead of running to completion). The runner then stops the arm and runs its `after` hook.
#include <sys/types.h>

#include <chrono>

namespace servebench::campaign {

class StopSignal {
 public:
  // Installs the handlers (once per process) and returns the process-wide instance.
  static StopSignal& install();

  bool requested() const;
  int signal_number() const;  // 0 when none
  // Waits up to `timeout`; returns true at once when a stop is (or becomes) requested.
  bool wait_for(std::chrono::milliseconds timeout) const;
  // The handler SIGTERMs this process group on a signal; 0 clears it.
  void guard_group(pid_t pgid);
  // Forgets a stop request (tests that raise signals in-process).
  void reset_for_tests();

 private:
  StopSignal() = default;
};

}  // namespace servebench::campaign
