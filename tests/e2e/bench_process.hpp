#pragma once
// Runs the real `servebench` binary for bench end-to-end tests: arguments are shell-quoted, stdin
// is empty, stdout and stderr are captured, and `timeout` bounds every run.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::e2e {

struct CliRun {
  int exit_code = -1;
  std::string out, err;
};

// A fresh directory for one test's files.
inline std::filesystem::path bench_temp_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("bench_e2e_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline CliRun run_servebench(const std::vector<std::string>& args, const std::filesystem::path& dir,
                             int timeout_s = 120) {
  std::string cmd = "timeout " + std::to_string(timeout_s) + " " + util::shell_quote(SERVEBENCH_BIN);
  for (const auto& a : args) cmd += " " + util::shell_quote(a);
  const auto out = dir / "stdout.txt";
  const auto err = dir / "stderr.txt";
  cmd += " < /dev/null > " + util::shell_quote(out.string()) + " 2> " + util::shell_quote(err.string());
  const int status = std::system(cmd.c_str());
  CliRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = util::read_file(out).value_or("");
  r.err = util::read_file(err).value_or("");
  return r;
}

}  // namespace servebench::e2e
