#include <gtest/gtest.h>

#include "servebench/campaign/runner.hpp"
#include "servebench/results/ledger.hpp"

namespace servebench::campaign {
namespace {

TEST(DryRun, ListsPointsInOrderWithCapsFromLaunchFlagsAndLedgerState) {
  auto spec = parse_campaign(
      "name: dr\nprotocol: {num_prompts: 'max(8, 2*c)'}\narms:\n"
      "  - {name: a, engine: sim, launch: 'servebench serve-sim --max-running-requests 16 --context-length 20000 --port {port}'}\n"
      "scenarios:\n  - {name: s, isl: 1000, osl: 24, concurrency: [1, 32]}\n  - {name: big, isl: 30000, osl: 1, concurrency: [1]}\n",
      "dr.yaml", "/");
  ASSERT_TRUE(spec) << spec.error().message;
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("campaign_dry_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  results::PointRecord done;
  done.arm = "a";
  done.scenario = "s";
  done.concurrency = 1;
  done.status = results::PointStatus::ok;
  ASSERT_TRUE(results::append_point(dir / "ledger.jsonl", done));
  RunOptions o;
  o.out = dir;
  const std::string text = dry_run_text(*spec, o);
  EXPECT_NE(text.find("campaign dr (dr.yaml): 3 points in run order"), std::string::npos) << text;
  EXPECT_NE(text.find("caps from launch flags"), std::string::npos);
  const auto first = text.find("a/s/c1");
  const auto second = text.find("a/s/c32");
  const auto third = text.find("a/big/c1");
  ASSERT_NE(first, std::string::npos);
  EXPECT_LT(first, second);
  EXPECT_LT(second, third);
  EXPECT_NE(text.find("prompts    64  eff 16 (max_running_requests 16)"), std::string::npos) << text;
  EXPECT_NE(text.find("skip: isl+osl 30001 exceeds context 20000"), std::string::npos);
  EXPECT_NE(text.find("settled (ok)"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "campaign.yaml")) << "a dry run writes nothing";
}

}  // namespace
}  // namespace servebench::campaign
