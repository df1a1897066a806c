// The asset ledger end to end: a campaign records the bytes it ran with (binary, campaign file,
// hook scripts, `assets:`), a resume after an asset changed is refused until
// --allow-changed-assets, and `campaign verify-assets` tells two asset sets apart.
#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"
#include "servebench/results/asset_ledger.hpp"

namespace servebench::e2e {
namespace {

std::string asset_campaign(const std::string& concurrency) {
  return "name: e2e-assets\n"
         "protocol: {num_prompts: \"2\", warmup_requests: 0, client_lag_limit: 1000}\n"
         "assets: [patch.diff]\n"
         "arms:\n"
         "  - name: a\n"
         "    engine: sim\n"
         "    gate: false\n"
         "    before: \"sh hook.sh\"\n"
         "    launch: \"" + sim_launch() + "\"\n"
         "scenarios:\n"
         "  - {name: s, isl: 64, osl: 8, concurrency: " + concurrency + "}\n";
}

TEST(CampaignAssets, AResumeAfterAnAssetChangedIsRefusedUntilAllowedAndVerifyTellsTheSetsApart) {
  const auto dir = campaign_temp_dir("assets");
  write_text(dir / "c.yaml", asset_campaign("[1]"));
  write_text(dir / "patch.diff", "+ custom all-reduce\n");
  write_text(dir / "hook.sh", "echo before\n");
  const auto first = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(120), "first");
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  auto ledger = results::read_assets(dir / "out/assets.json");
  ASSERT_TRUE(ledger && *ledger);
  std::set<std::string> names;
  for (const auto& e : (*ledger)->assets) names.insert(e.role + " " + e.name);
  EXPECT_EQ(names, (std::set<std::string>{"binary servebench", "campaign c.yaml", "hook hook.sh", "asset patch.diff"}));
  const auto verified = run_servebench({"campaign", "verify-assets", "out"}, dir);
  EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("4 compared, 4 identical, 0 differ"), std::string::npos) << verified.out;

  // The patch changes; extending the ladder is a resume of the same run directory.
  write_text(dir / "patch.diff", "+ custom all-reduce, v2\n");
  write_text(dir / "c.yaml", asset_campaign("[1, 2]"));
  const auto refused = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(60), "refused");
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("asset patch.diff: recorded"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("campaign c.yaml: recorded"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--allow-changed-assets"), std::string::npos) << refused.err;
  EXPECT_EQ(read_run_ledger(dir / "out").records.size(), 1u) << "nothing ran";
  EXPECT_NE(util::read_file(dir / "out/campaign.yaml").value_or("").find("concurrency: [1]}"), std::string::npos)
      << "a refused resume leaves the run directory as it was";
  const auto differs = run_servebench({"campaign", "verify-assets", "out"}, dir);
  EXPECT_EQ(differs.exit_code, 1) << differs.out;
  EXPECT_NE(differs.out.find("DIFFERENT"), std::string::npos) << differs.out;

  const auto allowed = run_servebench({"campaign", "run", "c.yaml", "--out", "out", "--allow-changed-assets"}, dir,
                                      std::chrono::seconds(120), "allowed");
  ASSERT_EQ(allowed.exit_code, 0) << allowed.out << allowed.err;
  EXPECT_NE(allowed.out.find("warning: asset changed, resuming anyway: asset patch.diff"), std::string::npos) << allowed.out;
  EXPECT_EQ(read_run_ledger(dir / "out").records.size(), 2u);
  ledger = results::read_assets(dir / "out/assets.json");
  ASSERT_TRUE(ledger && *ledger);
  ASSERT_EQ((*ledger)->changes.size(), 2u) << "campaign file and patch, both checksums kept";

  // A second machine's run of the same campaign directory with the old patch differs by that file only.
  const auto other = dir / "other";
  std::filesystem::create_directories(other);
  write_text(other / "c.yaml", asset_campaign("[1, 2]"));
  write_text(other / "patch.diff", "+ custom all-reduce\n");
  write_text(other / "hook.sh", "echo before\n");
  const auto against = run_servebench({"campaign", "verify-assets", "out", "--against", "other"}, dir);
  EXPECT_EQ(against.exit_code, 1) << against.out << against.err;
  EXPECT_NE(against.out.find("3 compared, 2 identical, 1 differ"), std::string::npos) << against.out;
  EXPECT_NE(against.out.find("asset patch.diff"), std::string::npos) << against.out;
  const auto no_ledger = run_servebench({"campaign", "verify-assets", "other"}, dir);
  EXPECT_EQ(no_ledger.exit_code, 2) << no_ledger.out << no_ledger.err;
}

}  // namespace
}  // namespace servebench::e2e
