#include "servebench/recipe/evidence.hpp"

#include <gtest/gtest.h>

#include "run_dir_fixture.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

TEST(Evidence, ReadsLatestPointsAndArmFacts) {
  RunDir dir("evidence");
  const std::string launch = "servebench serve-sim --hw gb300 --model glm-5.3-flash --tp-size 4 --port {port}";
  const auto fp = dir.add_arm({.name = "a", .launch = launch, .recipe = std::pair{"glm", "hw=gb300"}},
                              {{.concurrency = 1, .status = servebench::results::PointStatus::failed}, {.concurrency = 16}, {.concurrency = 1}});
  const auto e = read_evidence({dir.path()});
  ASSERT_TRUE(e) << e.error().message;
  ASSERT_EQ(e->points.size(), 2u);  // c1 twice: the last record wins
  EXPECT_EQ(e->points[0].id(), "a/chat/c1");
  EXPECT_EQ(e->points[0].point.status, servebench::results::PointStatus::ok);
  EXPECT_EQ(e->points[0].point.server.fingerprint, fp);
  const ArmFacts* facts = e->arm(dir.path().string(), "a");
  ASSERT_NE(facts, nullptr);
  EXPECT_EQ(facts->launch, launch);
  EXPECT_EQ(facts->version, "0.1.0-sim");
  ASSERT_TRUE(facts->recipe);
  EXPECT_EQ(facts->recipe->select, "hw=gb300");
  EXPECT_TRUE(e->issues.empty());
}

TEST(Evidence, MissingFactsFileIsAnIssueNotAFailure) {
  RunDir dir("nofacts");
  dir.add_arm({.name = "b", .launch = "servebench serve-sim --tp-size 4", .write_facts = false}, {{}});
  const auto e = read_evidence({dir.path()});
  ASSERT_TRUE(e);
  ASSERT_EQ(e->issues.size(), 1u);
  EXPECT_NE(e->issues[0].find("cannot read arm facts"), std::string::npos);
  const ArmFacts* facts = e->arm(dir.path().string(), "b");
  ASSERT_NE(facts, nullptr);
  EXPECT_TRUE(facts->launch.empty());
  EXPECT_EQ(facts->engine, "sim");
}

TEST(Evidence, DirectoryWithoutLedgerIsBadInput) {
  RunDir dir("empty");
  const auto e = read_evidence({dir.path()});
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_NE(e.error().message.find("no ledger.jsonl"), std::string::npos);
}

TEST(Evidence, ParsesFactsWithEnvAndWithoutRecipe) {
  const auto f = parse_arm_facts(R"({"arm":"x","engine":"sglang","launch":"python3 -m sglang.launch_server","env":{"SGLANG_A":"1"}})", "f.json");
  ASSERT_TRUE(f);
  ASSERT_EQ(f->env.size(), 1u);
  EXPECT_EQ(f->env[0].name, "SGLANG_A");
  EXPECT_FALSE(f->recipe);
  EXPECT_FALSE(parse_arm_facts(R"({"engine":"sim"})", "f.json"));
  EXPECT_FALSE(parse_arm_facts("not json", "f.json"));
}

TEST(Evidence, HardwareFromRecipeSelectionElseSimulatorFlag) {
  auto f = parse_arm_facts(R"({"arm":"x","launch":"servebench serve-sim --hw b200 --tp-size 4",)"
                           R"("recipe":{"catalog":"c","select":"hw=gb300,quant=fp8"}})", "f.json");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->hardware, "gb300");
  f = parse_arm_facts(R"({"arm":"x","launch":"servebench serve-sim --hw=b200 --tp-size 4"})", "f.json");
  EXPECT_EQ(f->hardware, "b200");
  f = parse_arm_facts(R"({"arm":"x","launch":"python3 -m sglang.launch_server --tp-size 4"})", "f.json");
  EXPECT_EQ(f->hardware, "");
}
