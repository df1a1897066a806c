#include "servebench/results/run_layout.hpp"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "servebench/results/run_files.hpp"

namespace servebench::results {
namespace {
namespace fs = std::filesystem;

// The layout is a contract (docs/formats.md "Run directory"): scripts and users open these paths.
TEST(RunLayout, SpellsEveryFileOfTheRunDirectory) {
  const RunLayout run("/runs/d");
  EXPECT_EQ(run.ledger(), fs::path("/runs/d/ledger.jsonl"));
  EXPECT_EQ(run.campaign_file(), fs::path("/runs/d/campaign.yaml"));
  EXPECT_EQ(run.status(), fs::path("/runs/d/status.txt"));
  EXPECT_EQ(run.lock(), fs::path("/runs/d/.lock"));
  EXPECT_EQ(run.server_facts("e7b"), fs::path("/runs/d/arms/e7b/server_facts.json"));
  EXPECT_EQ(run.server_log("e7b"), fs::path("/runs/d/arms/e7b/server.log"));
  EXPECT_EQ(run.server_pid("e7b"), fs::path("/runs/d/arms/e7b/server.pid"));
  EXPECT_EQ(run.hooks_log("e7b"), fs::path("/runs/d/arms/e7b/hooks.log"));
  EXPECT_EQ(run.gate("e7b"), fs::path("/runs/d/arms/e7b/gate.json"));
  EXPECT_EQ(RunLayout::server_facts_ref("e7b"), "arms/e7b/server_facts.json");
  EXPECT_EQ(run.requests("e7b", "chat", 16), fs::path("/runs/d/requests/e7b/chat/c16.jsonl"));
  EXPECT_EQ(run.telemetry_manifest(), fs::path("/runs/d/telemetry/telemetry.json"));
  EXPECT_EQ(run.gpu_inventory_idle(), fs::path("/runs/d/telemetry/gpu_inventory_idle.csv"));
  EXPECT_EQ(run.gpu_inventory_final(), fs::path("/runs/d/telemetry/gpu_inventory_final.csv"));
  EXPECT_EQ(run.vram_timeline(), fs::path("/runs/d/telemetry/vram_timeline.csv"));
}

TEST(RunLayout, ArmNamesAreTheSortedArmDirectories) {
  const auto dir = fs::temp_directory_path() / ("sb_run_layout_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const RunLayout run(dir);
  EXPECT_TRUE(run.arm_names().empty());  // no arms/ yet
  fs::create_directories(run.arm_dir("zeta"));
  fs::create_directories(run.arm_dir("alpha"));
  EXPECT_EQ(run.arm_names(), (std::vector<std::string>{"alpha", "zeta"}));
  fs::remove_all(dir);
}

TEST(RunFiles, StatusAndCampaignFileRoundTripAndAbsenceIsNotAnError) {
  const auto dir = fs::temp_directory_path() / ("sb_run_files_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const RunLayout run(dir);
  EXPECT_FALSE(read_status(run));
  auto none = read_campaign_file(run);
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  ASSERT_TRUE(write_campaign_file(run, "name: demo\n"));
  ASSERT_TRUE(write_status(run, "campaign demo\n"));
  EXPECT_EQ(read_status(run), "campaign demo\n");
  auto text = read_campaign_file(run);
  ASSERT_TRUE(text && *text);
  EXPECT_EQ(**text, "name: demo\n");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace servebench::results

TEST(RunLayout, NamesThatWouldLeaveTheRunDirectoryStayInside) {
  const servebench::results::RunLayout run("/runs/x");
  EXPECT_EQ(run.arm_dir("../../../etc"), "/runs/x/arms/..%2F..%2F..%2Fetc");
  EXPECT_EQ(run.arm_dir(".."), "/runs/x/arms/%..");
  EXPECT_EQ(run.server_facts("a/b"), "/runs/x/arms/a%2Fb/server_facts.json");
  EXPECT_EQ(run.requests("../a", "/etc", 1), "/runs/x/requests/..%2Fa/%2Fetc/c1.jsonl");
  EXPECT_EQ(servebench::results::RunLayout::server_facts_ref("<x>"), "arms/%3Cx%3E/server_facts.json");
  EXPECT_EQ(run.arm_dir("e7b-v1.2_x"), "/runs/x/arms/e7b-v1.2_x");  // valid names are unchanged
}
