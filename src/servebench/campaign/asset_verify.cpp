// `campaign verify-assets RUN [--against OTHER_RUN|DIR]`: the three-way check of what a campaign
// ran with — the run's recorded checksums against the files as they are now, another machine's
// run directory, or a directory holding copies.
#include <system_error>

#include <fmt/format.h>

#include "servebench/campaign/assets.hpp"
#include "servebench/util/sha256.hpp"

namespace servebench::campaign {
namespace fs = std::filesystem;
namespace {

// The entry as `path` holds it now; nullopt when it cannot be read.
std::optional<results::AssetEntry> rehash(const results::AssetEntry& e, const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return std::nullopt;
  auto sha = util::sha256_file(path);
  if (!sha) return std::nullopt;
  return results::AssetEntry{e.role, e.name, path.string(), *sha, static_cast<std::int64_t>(size)};
}

}  // namespace

util::Result<AssetVerification> verify_assets(const fs::path& run_dir, const fs::path& against) {
  const results::RunLayout run(run_dir);
  auto recorded = results::read_assets(results::assets_file(run));
  if (!recorded) return std::unexpected(recorded.error());
  if (!*recorded) {
    return util::failf(util::ErrorKind::bad_input, "{} has no asset ledger ({}); run the campaign there first",
                       run_dir.string(), results::assets_file(run).string());
  }
  const auto& mine = (*recorded)->assets;
  std::vector<results::AssetEntry> other;
  std::string other_label, not_compared;
  std::size_t compared = 0;
  const results::RunLayout other_run(against);
  if (against.empty()) {
    other_label = "now";
    for (const auto& e : mine) {
      if (auto now = rehash(e, e.path)) other.push_back(std::move(*now));
    }
    compared = mine.size();
  } else if (fs::exists(results::assets_file(other_run))) {
    auto theirs = results::read_assets(results::assets_file(other_run));
    if (!theirs) return std::unexpected(theirs.error());
    other_label = against.string();
    other = (*theirs)->assets;
    compared = mine.size();
  } else if (fs::is_directory(against)) {
    other_label = against.string();
    for (const auto& e : mine) {
      const fs::path name(e.name);
      if (e.role == "binary" || name.is_absolute()) {
        not_compared += fmt::format("  {} {}: not compared (no name relative to the campaign directory)\n", e.role, e.name);
        other.push_back(e);  // not a difference
        continue;
      }
      ++compared;
      if (auto copy = rehash(e, against / name)) other.push_back(std::move(*copy));
    }
  } else {
    return util::failf(util::ErrorKind::bad_input, "--against {}: not a run directory with an asset ledger nor a directory",
                       against.string());
  }
  const auto changes = results::compare_assets(mine, other);
  AssetVerification v;
  v.identical = changes.empty();
  v.text = fmt::format("assets of {} (recorded {}): {}\n", run_dir.string(), (*recorded)->recorded_at, mine.size());
  v.text += fmt::format("against {}: {} compared, {} identical, {} differ\n", other_label, compared,
                        compared >= changes.size() ? compared - changes.size() : 0, changes.size());
  for (const auto& c : changes) v.text += "  " + results::describe(c, run_dir.string(), other_label) + "\n";
  v.text += not_compared;
  for (const auto& c : (*recorded)->changes) {
    v.text += fmt::format("  accepted on resume at {}: {}\n", c.accepted_at, results::describe(c, "before", "after"));
  }
  v.text += v.identical ? "identical\n" : "DIFFERENT\n";
  return v;
}

}  // namespace servebench::campaign
