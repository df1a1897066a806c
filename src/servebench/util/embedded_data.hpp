#pragma once
// data/ compiled into the binary (cmake/embed_data.cmake), so servebench needs no install step.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::util {

struct EmbeddedFile {
  std::string_view path;     // relative to data/, e.g. "models/llama-3.1-8b.yaml"
  std::string_view content;
};

// Every file of data/ at build time (generated).
const std::vector<EmbeddedFile>& embedded_files();

// Reads a data file: from $SERVEBENCH_DATA_DIR when set (so users can add cards without
// rebuilding), else from the embedded copy. Fails naming the path when neither has it.
Result<std::string> read_data_file(std::string_view relative_path);
// The built-in copy only (nullopt when there is none).
std::optional<std::string_view> embedded_data_file(std::string_view relative_path);
// The $SERVEBENCH_DATA_DIR copy only: nullopt when the variable is unset or the file absent; an
// error when it exists but cannot be read.
Result<std::optional<std::string>> read_override_data_file(std::string_view relative_path);
// Relative paths of data files under `prefix` (e.g. "models/"), from both sources, sorted, unique.
std::vector<std::string> list_data_files(std::string_view prefix);

}  // namespace servebench::util
