#pragma once
#include <string_view>

namespace servebench::cli {

// "0.1.0" — the project version from CMake.
std::string_view version();
// "0.1.0 (git abc1234)" when built from a git checkout.
std::string_view version_string();
// The short git hash of the build, or "unknown".
std::string_view git_hash();

}  // namespace servebench::cli
