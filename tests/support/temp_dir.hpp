#pragma once
// A scratch directory for one test: under gtest's temporary directory, one directory per suite and
// process (parallel ctest processes never share one), emptied first, so a rerun starts clean.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

namespace servebench::testing {

enum class Create { yes, no };

// TempDir()/<suite>_<pid>/<name>, removed with its contents, then created (unless `create` is no).
inline std::filesystem::path fresh_dir(std::string_view suite, std::string_view name, Create create = Create::yes) {
  const auto dir = std::filesystem::path(::testing::TempDir()) /
                   (std::string(suite) + "_" + std::to_string(::getpid())) / std::string(name);
  std::filesystem::remove_all(dir);
  if (create == Create::yes) std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace servebench::testing
