#pragma once
// The real `servebench` binary for the bench end-to-end tests (support/child_process.hpp): every
// run bounded in time, stdout and stderr captured in the test's directory.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "support/child_process.hpp"

namespace servebench::e2e {

using testing::ChildProcess;
using testing::Finished;
using testing::run_servebench;

// A fresh directory for one test's files.
inline std::filesystem::path bench_temp_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("bench_e2e_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace servebench::e2e
