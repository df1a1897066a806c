#pragma once
// The campaign's asset set (docs/campaign-file.md `assets`, docs/formats.md `assets.json`): the
// servebench binary, the campaign file, every hook script a hook command names and the files of
// the `assets:` list, hashed now; the check a resume runs against the recorded set; and
// `campaign verify-assets`.
#include <filesystem>
#include <string>
#include <vector>

#include "servebench/campaign/spec.hpp"
#include "servebench/results/asset_ledger.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/util/clock.hpp"
#include "servebench/util/yaml_fields.hpp"

namespace servebench::campaign {

// Reads root's `assets` (a list of paths or globs, relative to the campaign file) into spec.assets
// as absolute patterns; errors are noted on `root`.
void read_asset_list(util::YamlFields& root, CampaignSpec& spec, const std::filesystem::path& base_dir);

// Hashes the asset set. Fails (bad_input) when an `assets:` entry matches no file or a file
// cannot be read.
util::Result<std::vector<results::AssetEntry>> collect_assets(const CampaignSpec& spec,
                                                              const std::filesystem::path& self_exe);

// Records the set in DIR/assets.json. When the directory already has one (a resume) and an asset
// changed, fails (bad_input, listing every change) unless `allow_changed`; then the new set is
// recorded and the changes are kept with both checksums. Returns the accepted changes.
util::Result<std::vector<results::AssetChange>> record_assets(const results::RunLayout& run,
                                                               const std::vector<results::AssetEntry>& now,
                                                               bool allow_changed, util::WallTime at);

// `campaign verify-assets RUN [--against OTHER]`: without `against`, RUN's recorded files hashed
// again where they were recorded; with a run directory, its recorded set; with any other
// directory, the file under it with each asset's name. Returns the report text and whether
// everything matched. Fails (bad_input) when RUN has no assets.json.
struct AssetVerification {
  std::string text;
  bool identical = false;
};
util::Result<AssetVerification> verify_assets(const std::filesystem::path& run_dir, const std::filesystem::path& against);

}  // namespace servebench::campaign
