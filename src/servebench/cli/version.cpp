#include "servebench/cli/version.hpp"

namespace servebench::cli {

std::string_view version() { return SERVEBENCH_VERSION; }
std::string_view version_string() { return SERVEBENCH_VERSION " (git " SERVEBENCH_GIT ")"; }
std::string_view git_hash() { return SERVEBENCH_GIT; }

}  // namespace servebench::cli
