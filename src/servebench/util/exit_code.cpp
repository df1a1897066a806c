#include "servebench/util/exit_code.hpp"

namespace servebench::util {

ExitCode exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::bad_input: return k_exit_bad_input;
    case ErrorKind::unreachable: return k_exit_unreachable;
    case ErrorKind::failed:
    case ErrorKind::io: return k_exit_measured_failure;
  }
  return k_exit_measured_failure;
}

int exit_code_for_signal(int signal) { return 128 + signal; }

}  // namespace servebench::util
