#pragma once
// DIR/assets.json (`servebench.assets/1`, docs/formats.md): the bytes a campaign ran with — the
// servebench binary, the campaign file, every hook script it could resolve and the files its
// `assets:` list names — as sha256 + size, keyed by role and a machine-independent name. A resume
// that accepted changed assets keeps the earlier entries under `changes`.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/results/run_layout.hpp"
#include "servebench/util/result.hpp"

namespace servebench::results {

inline constexpr std::string_view k_assets_schema = "servebench.assets/1";

struct AssetEntry {
  std::string role;  // binary | campaign | hook | asset
  std::string name;  // the key across machines: as written, or relative to the campaign file's directory
  std::string path;  // absolute path on the machine that recorded it
  std::string sha256;
  std::int64_t size = 0;
  bool operator==(const AssetEntry&) const = default;
};

// One asset whose bytes differ between two sets; `before`/`after` absent when it is only in one.
struct AssetChange {
  std::string role, name;
  std::optional<AssetEntry> before, after;
  std::string accepted_at;  // UTC, when a resume accepted it (in the ledger's `changes`)
};

struct AssetLedger {
  std::string recorded_at;  // UTC, when `assets` was last written
  std::vector<AssetEntry> assets;
  std::vector<AssetChange> changes;  // accepted with --allow-changed-assets, oldest first
};

// Every asset that differs between `before` and `after` (by role + name): changed bytes, added,
// removed. Sorted by role, then name.
std::vector<AssetChange> compare_assets(const std::vector<AssetEntry>& before, const std::vector<AssetEntry>& after);
// "hook run.sh: recorded 1a2b3c4d5e6f (120 B) → now 9f8e7d6c5b4a (131 B)", "asset corpus.txt: only in recorded".
std::string describe(const AssetChange& c, std::string_view before_label, std::string_view after_label);

// DIR/assets.json (spelled in run_layout.cpp with the run directory's other file names).
std::filesystem::path assets_file(const RunLayout& run);

// nullopt when the file does not exist.
util::Result<std::optional<AssetLedger>> read_assets(const std::filesystem::path& path);
util::Result<void> write_assets(const std::filesystem::path& path, const AssetLedger& ledger);

}  // namespace servebench::results
