// `servebench recommend` end to end: the ranked table, the catalog fragment that recipe lint accepts,
// and the verifying campaign that campaign run reads.
#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

TEST(Recommend, WritesACatalogAndAVerifyingCampaignTheOtherCommandsAccept) {
  const auto dir = campaign_temp_dir("recommend");
  const auto run = run_servebench({"recommend", "--model", "llama-3.1-8b", "--hw", "h200", "--gpus", "1", "--workload",
                                   "512:32", "--slo", "tpot_p50_ms=12", "--levels", "1,8,32", "--top", "3", "--out",
                                   "rec"},
                                  dir, std::chrono::seconds(120));
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("PREDICTED"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Pareto front"), std::string::npos) << run.out;
  EXPECT_NE(run.err.find("deployments searched"), std::string::npos) << run.err;  // progress
  const auto lint = run_servebench({"recipe", "lint", "rec/recommend-catalog.yaml"}, dir, std::chrono::seconds(60), "lint");
  EXPECT_EQ(lint.exit_code, 0) << lint.out << lint.err;
  const auto render = run_servebench({"recipe", "render", "rec/recommend-catalog.yaml", "--select", "hw=h200,rank=r1"},
                                     dir, std::chrono::seconds(60), "render");
  EXPECT_EQ(render.exit_code, 0) << render.err;
  EXPECT_NE(render.out.find("--max-running-requests"), std::string::npos) << render.out;
  const auto dry = run_servebench({"campaign", "run", "rec/recommend-campaign.yaml", "--out", "v", "--dry-run"}, dir,
                                  std::chrono::seconds(60), "dry");
  EXPECT_EQ(dry.exit_code, 0) << dry.out << dry.err;
  EXPECT_NE(dry.out.find("r1"), std::string::npos) << dry.out;
}

TEST(Recommend, AnImpossibleSloExitsOneWithTheClosestConfigurations) {
  const auto dir = campaign_temp_dir("recommend_none");
  const auto run = run_servebench({"recommend", "--model", "llama-3.1-8b", "--hw", "h200", "--workload", "512:32",
                                   "--slo", "ttft_p99_ms=0.01", "--levels", "1,8"},
                                  dir, std::chrono::seconds(120));
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("No deployment meets the SLO"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("misses by"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace servebench::e2e
