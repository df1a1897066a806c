#pragma once
// The serve-sim child of the end-to-end tests: the real binary on an ephemeral port, stdout
// through a pipe (its "listening on" line gives the URL), stderr to <TempDir>/<name>.stderr.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/child_process.hpp"

namespace servebench::e2e {

using testing::ChildProcess;

// `servebench <args...>` with stdout piped and stderr in <TempDir>/<name>.stderr.
inline ChildProcess start_servebench(const std::vector<std::string>& args, const std::string& name) {
  return ChildProcess(testing::servebench_argv(args),
                      {.cwd = {}, .stdout_file = {},
                       .stderr_file = std::filesystem::path(::testing::TempDir()) / (name + ".stderr")});
}

// A fast-timing simulator on an ephemeral port (fixed seed) plus `extra` flags.
inline std::vector<std::string> serve_sim_args(std::vector<std::string> extra) {
  std::vector<std::string> a{"serve-sim",  "--port", "0",           "--sim-time-scale", "0",
                             "--sim-seed", "7",      "--log-level", "warning"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

inline constexpr std::string_view k_listening_prefix = "servebench serve-sim listening on ";

}  // namespace servebench::e2e
