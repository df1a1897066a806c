#pragma once
// Process exit codes, the same for every command (README "Exit codes"): 0 ok · 1 the run completed
// but something measured failed (a point failed or invalid) · 2 bad usage or bad input (the message
// names the file:line:col or flag) · 3 a server could not be reached or started · 128 + N
// interrupted by signal N (the shell's convention, also used for children killed by a signal).
#include "servebench/util/result.hpp"

namespace servebench::util {

enum ExitCode : int {
  k_exit_ok = 0,
  k_exit_measured_failure = 1,
  k_exit_bad_input = 2,
  k_exit_unreachable = 3,
};

// The exit code of a failure of this kind: bad_input -> 2, unreachable -> 3, the rest -> 1.
ExitCode exit_code_for(ErrorKind kind);
// 128 + signal.
int exit_code_for_signal(int signal);

}  // namespace servebench::util
