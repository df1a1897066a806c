#include "servebench/util/embedded_data.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "servebench/util/file_io.hpp"

namespace servebench::util {
namespace {

std::filesystem::path override_dir() {
  const char* dir = std::getenv("SERVEBENCH_DATA_DIR");
  return dir != nullptr ? std::filesystem::path(dir) : std::filesystem::path();
}

}  // namespace

Result<std::string> read_data_file(std::string_view relative_path) {
  if (const auto dir = override_dir(); !dir.empty()) {
    const auto path = dir / relative_path;
    if (std::filesystem::exists(path)) return read_file(path);
  }
  for (const auto& f : embedded_files()) {
    if (f.path == relative_path) return std::string(f.content);
  }
  return failf(ErrorKind::bad_input, "no data file '{}' (built in, or under $SERVEBENCH_DATA_DIR)", relative_path);
}

std::optional<std::string_view> embedded_data_file(std::string_view relative_path) {
  for (const auto& f : embedded_files()) {
    if (f.path == relative_path) return f.content;
  }
  return std::nullopt;
}

Result<std::optional<std::string>> read_override_data_file(std::string_view relative_path) {
  const auto dir = override_dir();
  if (dir.empty()) return std::optional<std::string>{};
  const auto path = dir / relative_path;
  if (!std::filesystem::exists(path)) return std::optional<std::string>{};
  auto text = read_file(path);
  if (!text) return std::unexpected(text.error());
  return std::optional<std::string>{std::move(*text)};
}

std::vector<std::string> list_data_files(std::string_view prefix) {
  std::vector<std::string> out;
  for (const auto& f : embedded_files()) {
    if (f.path.starts_with(prefix)) out.emplace_back(f.path);
  }
  if (const auto dir = override_dir(); !dir.empty() && std::filesystem::is_directory(dir)) {
    std::error_code ec;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
      if (!e.is_regular_file()) continue;
      const std::string rel = std::filesystem::relative(e.path(), dir).generic_string();
      if (rel.starts_with(prefix)) out.push_back(rel);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace servebench::util
