#include "servebench/results/run_files.hpp"

#include <filesystem>

#include "servebench/util/file_io.hpp"
#include "servebench/util/redact.hpp"

namespace servebench::results {

util::Result<void> write_status(const RunLayout& run, std::string_view text) {
  return util::write_file_atomic(run.status(), util::redact(text));
}

std::optional<std::string> read_status(const RunLayout& run) {
  auto text = util::read_file(run.status());
  if (!text) return std::nullopt;
  return std::move(*text);
}

util::Result<void> write_campaign_file(const RunLayout& run, std::string_view yaml) {
  if (auto ok = util::make_dirs(run.dir()); !ok) return ok;
  // A literal key in a launch command or env stays out of the copy (docs/campaign-file.md
  // "Secrets"): the rerun of DIR/campaign.yaml takes keys from the environment.
  return util::write_file_atomic(run.campaign_file(), util::redact(yaml));
}

util::Result<std::optional<std::string>> read_campaign_file(const RunLayout& run) {
  if (!std::filesystem::exists(run.campaign_file())) return std::optional<std::string>{};
  auto text = util::read_file(run.campaign_file());
  if (!text) return std::unexpected(text.error());
  return std::optional<std::string>{std::move(*text)};
}

}  // namespace servebench::results
