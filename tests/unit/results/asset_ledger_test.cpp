#include "servebench/results/asset_ledger.hpp"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"

namespace servebench::results {
namespace {
namespace fs = std::filesystem;

AssetEntry entry(std::string role, std::string name, std::string sha, std::int64_t size) {
  return {std::move(role), std::move(name), "/abs/" + name, std::move(sha), size};
}

TEST(AssetLedger, CompareFindsChangedAddedAndRemovedByRoleAndName) {
  const std::vector<AssetEntry> before = {entry("hook", "stop.sh", "aa", 10), entry("asset", "corpus.txt", "bb", 20),
                                          entry("binary", "servebench", "cc", 30)};
  std::vector<AssetEntry> after = {entry("binary", "servebench", "cc", 30), entry("hook", "stop.sh", "ab", 11),
                                   entry("asset", "patch.diff", "dd", 5)};
  after[0].path = "/elsewhere/servebench";  // the path may differ between machines; the bytes decide
  const auto changes = compare_assets(before, after);
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].name, "corpus.txt");
  EXPECT_TRUE(changes[0].before && !changes[0].after);
  EXPECT_EQ(changes[1].name, "patch.diff");
  EXPECT_TRUE(!changes[1].before && changes[1].after);
  EXPECT_EQ(changes[2].name, "stop.sh");
  EXPECT_EQ(describe(changes[2], "recorded", "now"), "hook stop.sh: recorded aa (10 B) → now ab (11 B)");
  EXPECT_EQ(describe(changes[0], "recorded", "now"), "asset corpus.txt: only in recorded");
  EXPECT_TRUE(compare_assets(before, before).empty());
}

TEST(AssetLedger, RoundTripsWithAcceptedChanges) {
  const auto dir = fs::temp_directory_path() / ("sb_assets_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  AssetLedger ledger;
  ledger.recorded_at = "2026-12-02T13:00:00Z";
  ledger.assets = {entry("campaign", "c.yaml", "0123", 7)};
  ledger.changes.push_back({"campaign", "c.yaml", entry("campaign", "c.yaml", "9999", 6), ledger.assets[0], "2026-12-02T13:00:00Z"});
  ASSERT_TRUE(write_assets(dir / "assets.json", ledger));
  auto back = read_assets(dir / "assets.json");
  ASSERT_TRUE(back && *back);
  EXPECT_EQ((*back)->recorded_at, ledger.recorded_at);
  EXPECT_EQ((*back)->assets, ledger.assets);
  ASSERT_EQ((*back)->changes.size(), 1u);
  EXPECT_EQ((*back)->changes[0].before->sha256, "9999");
  EXPECT_EQ((*back)->changes[0].after->sha256, "0123");
  EXPECT_EQ((*back)->changes[0].accepted_at, "2026-12-02T13:00:00Z");

  auto missing = read_assets(dir / "none.json");
  ASSERT_TRUE(missing);
  EXPECT_FALSE(*missing);
  ASSERT_TRUE(util::write_file_atomic(dir / "other.json", "{\"schema\": \"servebench.gate/1\"}"));
  EXPECT_FALSE(read_assets(dir / "other.json"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace servebench::results
