#pragma once
// SHA-256 (OpenSSL) for command fingerprints and asset checksums.
#include <filesystem>
#include <string>
#include <string_view>

#include "servebench/util/result.hpp"

namespace servebench::util {

// Lowercase hex digest of `data`.
std::string sha256_hex(std::string_view data);
// Lowercase hex digest of a file's bytes; fails when the file cannot be read.
Result<std::string> sha256_file(const std::filesystem::path& path);

}  // namespace servebench::util
