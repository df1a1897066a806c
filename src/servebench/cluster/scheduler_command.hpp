#pragma once
// One command of a scheduler's command-line tools (sbatch, squeue, scontrol, sacct, scancel) run
// to completion with a time limit, its output captured. The tools answer in seconds or fail; a
// controller that does not answer must not hang the submitter.
#include <chrono>
#include <string>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::cluster {

struct CommandOutput {
  int exit_code = -1;  // -1: killed at the time limit
  std::string output;  // stdout and stderr together
};

// Runs `argv` (argv[0] looked up on PATH). Fails (io) only when the process cannot be started.
util::Result<CommandOutput> run_command(const std::vector<std::string>& argv, std::chrono::seconds timeout);

}  // namespace servebench::cluster
