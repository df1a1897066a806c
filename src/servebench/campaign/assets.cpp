#include "servebench/campaign/assets.hpp"

#include <glob.h>

#include <algorithm>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "servebench/util/sha256.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {
namespace fs = std::filesystem;
namespace {

using util::ErrorKind;

util::Result<results::AssetEntry> hash_entry(std::string role, std::string name, const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return util::failf(ErrorKind::bad_input, "{} {}: cannot read {}: {}", role, name, path.string(), ec.message());
  auto sha = util::sha256_file(path);
  if (!sha) return util::failf(ErrorKind::bad_input, "{} {}: {}", role, name, sha.error().message);
  return results::AssetEntry{std::move(role), std::move(name), path.string(), std::move(*sha), static_cast<std::int64_t>(size)};
}

// The name an asset is known by on every machine: its path relative to the campaign file's directory.
std::string asset_name(const fs::path& file, const fs::path& base_dir) {
  const fs::path rel = file.lexically_relative(base_dir);
  if (rel.empty() || *rel.begin() == "..") return file.string();
  return rel.string();
}

// Regular files a pattern names: glob(3) matches; a directory stands for every file under it.
util::Result<std::vector<fs::path>> expand_pattern(const std::string& pattern) {
  glob_t g{};
  const int rc = glob(pattern.c_str(), 0, nullptr, &g);
  std::vector<fs::path> matches;
  for (std::size_t i = 0; rc == 0 && i < g.gl_pathc; ++i) matches.emplace_back(g.gl_pathv[i]);
  globfree(&g);
  if (rc == GLOB_NOMATCH || (rc == 0 && matches.empty())) {
    return util::failf(ErrorKind::bad_input, "assets: '{}' matches no file", pattern);
  }
  if (rc != 0) return util::failf(ErrorKind::bad_input, "assets: cannot expand '{}'", pattern);
  std::vector<fs::path> files;
  for (const auto& m : matches) {
    std::error_code ec;
    if (!fs::is_directory(m, ec)) {
      files.push_back(m.lexically_normal());
      continue;
    }
    std::vector<fs::path> under;
    for (const auto& e : fs::recursive_directory_iterator(m, ec)) {
      if (e.is_regular_file()) under.push_back(e.path().lexically_normal());
    }
    std::sort(under.begin(), under.end());
    files.insert(files.end(), under.begin(), under.end());
  }
  return files;
}

// Words of a hook command that name an existing file (relative to the working directory, where
// hooks run, or to the campaign file's directory): the scripts it runs.
std::vector<std::pair<std::string, fs::path>> hook_scripts(const std::string& command, const fs::path& base_dir) {
  std::vector<std::pair<std::string, fs::path>> out;
  auto words = util::shell_split(command);
  if (!words) return out;
  for (const auto& w : *words) {
    if (w.empty() || w == "servebench" || w.find('=') != std::string::npos) continue;
    for (const fs::path& candidate : {fs::absolute(w), base_dir / w}) {
      std::error_code ec;
      if (fs::is_regular_file(candidate, ec)) {
        out.emplace_back(w, candidate.lexically_normal());
        break;
      }
    }
  }
  return out;
}

}  // namespace

void read_asset_list(util::YamlFields& root, CampaignSpec& spec, const fs::path& base_dir) {
  if (!root.has("assets")) return;
  for (const auto& p : root.strings("assets")) {
    if (p.empty()) {
      root.note_at(root.node("assets"), "assets: an entry is empty; give a path or a glob such as scripts/*.sh");
      return;
    }
    const fs::path path(p);
    spec.assets.push_back((path.is_absolute() ? path : base_dir / path).lexically_normal().string());
  }
}

util::Result<std::vector<results::AssetEntry>> collect_assets(const CampaignSpec& spec, const fs::path& self_exe) {
  const fs::path campaign_file = fs::absolute(spec.file).lexically_normal();
  const fs::path base_dir = campaign_file.parent_path();
  std::vector<results::AssetEntry> out;
  std::set<std::pair<std::string, std::string>> seen;
  const auto add = [&](std::string role, std::string name, const fs::path& path) -> util::Result<void> {
    if (!seen.insert({role, name}).second) return {};
    auto e = hash_entry(std::move(role), std::move(name), path);
    if (!e) return std::unexpected(e.error());
    out.push_back(std::move(*e));
    return {};
  };
  if (auto ok = add("binary", "servebench", self_exe); !ok) return std::unexpected(ok.error());
  std::error_code ec;
  if (fs::is_regular_file(campaign_file, ec)) {  // a spec parsed from text has no file
    if (auto ok = add("campaign", campaign_file.filename().string(), campaign_file); !ok) return std::unexpected(ok.error());
  }
  for (const auto& arm : spec.arms) {
    for (const std::string* hook : {&arm.before, &arm.after}) {
      for (const auto& [word, path] : hook_scripts(*hook, base_dir)) {
        if (auto ok = add("hook", word, path); !ok) return std::unexpected(ok.error());
      }
    }
  }
  for (const auto& pattern : spec.assets) {
    auto files = expand_pattern(pattern);
    if (!files) return std::unexpected(files.error());
    for (const auto& f : *files) {
      if (auto ok = add("asset", asset_name(f, base_dir), f); !ok) return std::unexpected(ok.error());
    }
  }
  return out;
}

util::Result<std::vector<results::AssetChange>> record_assets(const results::RunLayout& run,
                                                               const std::vector<results::AssetEntry>& now,
                                                               bool allow_changed, util::WallTime at) {
  auto recorded = results::read_assets(results::assets_file(run));
  if (!recorded) return std::unexpected(recorded.error());
  results::AssetLedger ledger = recorded->value_or(results::AssetLedger{});
  std::vector<results::AssetChange> changes;
  if (*recorded) changes = results::compare_assets(ledger.assets, now);
  if (!changes.empty() && !allow_changed) {
    std::string list;
    for (const auto& c : changes) list += "\n  " + results::describe(c, "recorded", "now");
    return util::failf(ErrorKind::bad_input,
                       "{} was run with other assets; resuming would mix results measured with different bytes:{}\n"
                       "rerun with --allow-changed-assets to resume anyway (both checksums are kept), or choose another --out",
                       run.dir().string(), list);
  }
  const std::string stamp = util::format_utc(at);
  for (auto& c : changes) {
    c.accepted_at = stamp;
    ledger.changes.push_back(c);
  }
  if (*recorded && changes.empty()) return changes;  // same bytes: the file stands as recorded
  ledger.assets = now;
  ledger.recorded_at = stamp;
  if (auto ok = results::write_assets(results::assets_file(run), ledger); !ok) return std::unexpected(ok.error());
  return changes;
}

}  // namespace servebench::campaign
