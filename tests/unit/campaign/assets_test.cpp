#include "support/temp_dir.hpp"
#include "servebench/campaign/assets.hpp"

#include <unistd.h>

#include <algorithm>

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/sha256.hpp"

namespace servebench::campaign {
namespace {
namespace fs = std::filesystem;

// A fresh directory with the scripts/ subdirectory the asset globs look into.
std::filesystem::path assets_dir(const std::string& name) {
  const auto dir = servebench::testing::fresh_dir("campaign_assets", name);
  std::filesystem::create_directories(dir / "scripts");
  return dir;
}

void put(const fs::path& p, const std::string& text) { ASSERT_TRUE(util::write_file_atomic(p, text)); }

CampaignSpec spec_in(const fs::path& dir, const std::string& assets) {
  const std::string text = "name: a\n"
                           "arms: [{name: a, engine: sim, base_url: 'http://x:1', before: 'sh scripts/stop.sh --rename', "
                           "after: 'sh " + (dir / "scripts/start.sh").string() + "'}]\n"
                           "scenarios: [{name: s, isl: 10, osl: 10, concurrency: [1]}]\n" + assets;
  put(dir / "c.yaml", text);
  auto s = read_campaign(dir / "c.yaml");
  EXPECT_TRUE(s) << (s ? "" : s.error().message);
  return s ? *s : CampaignSpec{};
}

const results::AssetEntry* find(const std::vector<results::AssetEntry>& v, const std::string& role, const std::string& name) {
  const auto it = std::find_if(v.begin(), v.end(), [&](const auto& e) { return e.role == role && e.name == name; });
  return it == v.end() ? nullptr : &*it;
}

TEST(Assets, TheSetHasTheBinaryTheCampaignFileHookScriptsAndTheListedFiles) {
  const auto dir = assets_dir("set");
  put(dir / "scripts/stop.sh", "echo stop\n");
  put(dir / "scripts/start.sh", "echo start\n");
  put(dir / "patch.diff", "--- a\n+++ b\n");
  fs::create_directories(dir / "cards");
  put(dir / "cards/x.yaml", "x: 1\n");
  put(dir / "cards/y.yaml", "y: 2\n");
  const auto spec = spec_in(dir, "assets: [patch.diff, 'cards/*.yaml', scripts]\n");
  ASSERT_EQ(spec.assets.size(), 3u);
  EXPECT_TRUE(fs::path(spec.assets[0]).is_absolute());
  auto set = collect_assets(spec, dir / "patch.diff");  // any file stands in for the binary
  ASSERT_TRUE(set) << set.error().message;
  ASSERT_NE(find(*set, "binary", "servebench"), nullptr);
  const auto* campaign = find(*set, "campaign", "c.yaml");
  ASSERT_NE(campaign, nullptr);
  EXPECT_EQ(campaign->sha256, *util::sha256_file(dir / "c.yaml"));
  EXPECT_EQ(campaign->size, static_cast<std::int64_t>(fs::file_size(dir / "c.yaml")));
  const auto* stop = find(*set, "hook", "scripts/stop.sh");  // relative: found under the campaign directory
  ASSERT_NE(stop, nullptr);
  EXPECT_EQ(stop->sha256, util::sha256_hex("echo stop\n"));
  EXPECT_NE(find(*set, "hook", (dir / "scripts/start.sh").string()), nullptr);
  EXPECT_NE(find(*set, "asset", "patch.diff"), nullptr);
  EXPECT_NE(find(*set, "asset", "cards/x.yaml"), nullptr);
  EXPECT_NE(find(*set, "asset", "cards/y.yaml"), nullptr);
  EXPECT_NE(find(*set, "asset", "scripts/start.sh"), nullptr);  // a directory stands for its files
  EXPECT_EQ(set->size(), 9u);
}

TEST(Assets, AnEntryMatchingNothingIsBadInput) {
  const auto dir = assets_dir("nomatch");
  const auto spec = spec_in(dir, "assets: ['missing/*.sh']\n");
  auto set = collect_assets(spec, dir / "c.yaml");
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(set.error().message.find("matches no file"), std::string::npos) << set.error().message;
}

TEST(Assets, AResumeWithAChangedAssetIsRefusedUnlessAllowedThenBothChecksumsAreKept) {
  const auto dir = assets_dir("resume");
  put(dir / "patch.diff", "one\n");
  const auto spec = spec_in(dir, "assets: [patch.diff]\n");
  const results::RunLayout run(dir / "run");
  const auto t = util::WallTime{} + std::chrono::hours(24 * 365 * 57);
  auto first = collect_assets(spec, dir / "c.yaml");
  ASSERT_TRUE(first);
  ASSERT_TRUE(record_assets(run, *first, false, t));
  auto same = record_assets(run, *first, false, t);
  ASSERT_TRUE(same) << "unchanged bytes resume";
  EXPECT_TRUE(same->empty());

  put(dir / "patch.diff", "two!\n");
  auto second = collect_assets(spec, dir / "c.yaml");
  ASSERT_TRUE(second);
  auto refused = record_assets(run, *second, false, t);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(refused.error().message.find("asset patch.diff: recorded"), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("--allow-changed-assets"), std::string::npos);

  auto v = verify_assets(run.dir(), "");
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->identical) << v->text;
  EXPECT_NE(v->text.find("asset patch.diff"), std::string::npos) << v->text;

  auto accepted = record_assets(run, *second, true, t);
  ASSERT_TRUE(accepted);
  ASSERT_EQ(accepted->size(), 1u);
  auto ledger = results::read_assets(results::assets_file(run));
  ASSERT_TRUE(ledger && *ledger);
  ASSERT_EQ((*ledger)->changes.size(), 1u);
  EXPECT_EQ((*ledger)->changes[0].before->sha256, util::sha256_hex("one\n"));
  EXPECT_EQ((*ledger)->changes[0].after->sha256, util::sha256_hex("two!\n"));
  EXPECT_TRUE(verify_assets(run.dir(), "")->identical);
}

TEST(Assets, VerifyAgainstADirectoryOfCopiesComparesByName) {
  const auto dir = assets_dir("against");
  put(dir / "patch.diff", "p\n");
  put(dir / "scripts/stop.sh", "stop\n");
  const auto spec = spec_in(dir, "assets: [patch.diff]\n");
  const results::RunLayout run(dir / "run");
  ASSERT_TRUE(record_assets(run, *collect_assets(spec, dir / "c.yaml"), false, util::WallTime{}));
  // A copy of the campaign directory on another machine: same bytes, then one script edited.
  const auto copy = dir.parent_path() / "against_copy";
  fs::remove_all(copy);
  fs::create_directories(copy / "scripts");
  for (const char* f : {"c.yaml", "patch.diff", "scripts/stop.sh"}) fs::copy_file(dir / f, copy / f);
  auto v = verify_assets(run.dir(), copy);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_TRUE(v->identical) << v->text;
  EXPECT_NE(v->text.find("binary servebench: not compared"), std::string::npos) << v->text;
  put(copy / "scripts/stop.sh", "stop --force\n");
  v = verify_assets(run.dir(), copy);
  EXPECT_FALSE(v->identical);
  EXPECT_NE(v->text.find("hook scripts/stop.sh"), std::string::npos) << v->text;
  EXPECT_FALSE(verify_assets(dir / "nothing", ""));
}

}  // namespace
}  // namespace servebench::campaign
