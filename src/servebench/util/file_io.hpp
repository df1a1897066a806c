#pragma once
// Durable file operations. A ledger append that returns ok has reached the disk (fsync).
#include <filesystem>
#include <string>
#include <string_view>

#include "servebench/util/result.hpp"

namespace servebench::util {

Result<std::string> read_file(const std::filesystem::path& path);
// Writes to path.tmp, fsyncs, renames over path, fsyncs the directory: readers see old or new, never half.
Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view content);
// Appends `content` (normally one line ending in '\n') and fsyncs before returning.
Result<void> append_durable(const std::filesystem::path& path, std::string_view content);
// mkdir -p; ok when it already exists.
Result<void> make_dirs(const std::filesystem::path& path);

}  // namespace servebench::util
