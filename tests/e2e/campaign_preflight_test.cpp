// What a campaign file cannot say until the campaign runs — a simulated arm's cards and flags, the
// corpus — is checked before any arm starts: exit 2 naming what to fix, no hook run, no server.
#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

TEST(CampaignPreflight, AMissingModelCardOrCorpusIsExitTwoBeforeAnythingStarts) {
  const auto dir = campaign_temp_dir("preflight");
  const std::string marker = (dir / "before-ran").string();
  const auto campaign = [&](const std::string& launch, const std::string& prompts) {
    return "name: pre\n"
           "protocol: {prompts: " + prompts + "}\n"
           "arms:\n"
           "  - {name: a, engine: sim, before: 'touch " + marker + "', launch: \"" + launch + "\"}\n"
           "scenarios:\n"
           "  - {name: s, isl: 64, osl: 8, concurrency: [1]}\n";
  };
  write_text(dir / "card.yaml", campaign("servebench serve-sim --model no-such-card --port {port}", "{source: random-ids}"));
  const auto card = run_servebench({"campaign", "run", "card.yaml", "--out", "out1"}, dir, std::chrono::seconds(60), "card");
  EXPECT_EQ(card.exit_code, 2) << card.out << card.err;
  EXPECT_NE(card.err.find("arm 'a': launch:"), std::string::npos) << card.err;
  EXPECT_NE(card.err.find("no-such-card"), std::string::npos) << card.err;

  write_text(dir / "corpus.yaml", campaign(sim_launch(), "{source: corpus, path: missing.txt}"));
  const auto corpus = run_servebench({"campaign", "run", "corpus.yaml", "--out", "out2"}, dir, std::chrono::seconds(60), "corpus");
  EXPECT_EQ(corpus.exit_code, 2) << corpus.out << corpus.err;
  EXPECT_NE(corpus.err.find("protocol.prompts.path"), std::string::npos) << corpus.err;
  EXPECT_NE(corpus.err.find("missing.txt: no such file"), std::string::npos) << corpus.err;

  EXPECT_FALSE(std::filesystem::exists(marker)) << "a hook ran before the check";
  EXPECT_FALSE(std::filesystem::exists(dir / "out1"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out2"));
}

TEST(CampaignPreflight, AbsurdValuesNameTheYamlKeyNotAFlag) {
  const auto dir = campaign_temp_dir("preflight_values");
  write_text(dir / "c.yaml", "name: v\n"
                             "arms:\n"
                             "  - {name: a, engine: sim, launch: \"" + sim_launch() + "\"}\n"
                             "scenarios:\n"
                             "  - {name: s, isl: 1099511627776, osl: 8, concurrency: [1]}\n");
  const auto r = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(60), "values");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("c.yaml:5:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("scenario 's'.isl must be in 1..10000000 (got 1099511627776)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("--"), std::string::npos) << "names a flag: " << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

}  // namespace
}  // namespace servebench::e2e
