#include "support/temp_dir.hpp"
#include "servebench/campaign/arm_session.hpp"

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"
#include "unit/campaign/fake_engine_server.hpp"

namespace servebench::campaign {
namespace {

using servebench::testing::fresh_dir;

struct Fixture {
  explicit Fixture(const std::string& name, const std::string& arm_extra) : dir(fresh_dir("campaign_session", name)) {
    const std::string hooks = (dir / "hooks.txt").string();
    auto s = parse_campaign("name: se\narms:\n  - {name: a, engine: sim, base_url: '" + server.base_url() + "', " +
                                util::replace_all(arm_extra, "hooks.txt", hooks) + "}\nscenarios: [{name: s, isl: 10, osl: 4, concurrency: [1]}]\n",
                            "se.yaml", "/");
    EXPECT_TRUE(s) << s.error().message;
    spec = *s;
    console = std::tmpfile();
  }
  ~Fixture() { std::fclose(console); }
  SessionEnv env() {
    return {dir, "/x/servebench", &StopSignal::install(), console, {"0.1.0", "t"}, CampaignClock{}, {}};
  }
  std::string hooks() const { return util::read_file(dir / "hooks.txt").value_or(""); }

  testing::FakeEngineServer server;
  std::filesystem::path dir;
  CampaignSpec spec;
  std::FILE* console = nullptr;
};

TEST(ArmSession, OpensWithFactsAndGateThenRunsAfterOnceOnClose) {
  Fixture f("open", "before: 'echo before >> hooks.txt', after: 'echo after >> hooks.txt'");
  StopSignal::install().reset_for_tests();
  {
    ArmSession session(f.spec, f.spec.arms[0], f.env());
    ASSERT_TRUE(session.open());
    EXPECT_TRUE(session.alive());
    EXPECT_EQ(session.limits().max_running_requests, 16);
    EXPECT_EQ(session.context().time_scale, 0.5);
    EXPECT_EQ(session.context().gate.passed, std::optional<bool>(true));
    EXPECT_TRUE(session.context().gate_failure.empty());
    EXPECT_NE(session.context().control, nullptr);
    EXPECT_NE(session.context().prompts, nullptr);
    EXPECT_TRUE(std::filesystem::exists(f.dir / "arms/a/server_facts.json"));
    EXPECT_TRUE(std::filesystem::exists(f.dir / "arms/a/gate.json"));
    ASSERT_TRUE(session.close());
    ASSERT_TRUE(session.close());
  }
  EXPECT_EQ(f.hooks(), "before\nafter\n");
}

TEST(ArmSession, AFailedGateMarksTheArmForInvalidPoints) {
  Fixture f("gate", "gate: {problems: 4}");
  testing::FakeEngineServer wrong(testing::GateMode::wrong_answers, 7, 4);
  f.spec.arms[0].base_url = wrong.base_url();
  ArmSession session(f.spec, f.spec.arms[0], f.env());
  ASSERT_TRUE(session.open());
  EXPECT_EQ(session.context().gate.passed, std::optional<bool>(false));
  EXPECT_EQ(session.context().gate_failure.substr(0, 33), "quality gate failed: arithmetic 0");
}

TEST(ArmSession, AFailingBeforeHookFailsTheOpenButAfterStillRuns) {
  Fixture f("before", "before: 'exit 5', after: 'echo after >> hooks.txt'");
  {
    ArmSession session(f.spec, f.spec.arms[0], f.env());
    auto opened = session.open();
    ASSERT_FALSE(opened);
    EXPECT_NE(opened.error().message.find("before hook of arm 'a' exited with status 5"), std::string::npos);
  }
  EXPECT_EQ(f.hooks(), "after\n");
}

TEST(ArmSession, RelaunchesOnlyOnce) {
  Fixture f("relaunch", "gate: false");
  ArmSession session(f.spec, f.spec.arms[0], f.env());
  ASSERT_TRUE(session.open());
  ASSERT_TRUE(session.relaunch());
  EXPECT_TRUE(session.alive());
  auto again = session.relaunch();
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("relaunched only once"), std::string::npos);
}

}  // namespace
}  // namespace servebench::campaign
