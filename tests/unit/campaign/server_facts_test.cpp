#include "servebench/campaign/server_facts.hpp"

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "unit/campaign/fake_engine_server.hpp"

namespace servebench::campaign {
namespace {

class FixedWall final : public util::WallClock {
 public:
  util::WallTime now() const noexcept override { return util::WallTime{std::chrono::seconds(1795971600)}; }
};

TEST(ServerFacts, FingerprintIgnoresThePortButNotBehaviour) {
  ArmSpec a;
  a.engine = engines::Engine::sim;
  a.launch = "servebench serve-sim --tp-size 8 --port {port}";
  ArmSpec b = a;
  b.launch = "servebench serve-sim --port 30000 --tp-size 8";
  ArmSpec c = a;
  c.launch = "servebench serve-sim --tp-size 4 --port {port}";
  const auto fa = arm_fingerprint(a);
  ASSERT_TRUE(fa) << fa.error().message;
  EXPECT_TRUE(fa->starts_with("sha256:"));
  EXPECT_EQ(*fa, *arm_fingerprint(b));
  EXPECT_NE(*fa, *arm_fingerprint(c));
  ArmSpec attached;
  attached.base_url = "http://127.0.0.1:1";
  EXPECT_EQ(*arm_fingerprint(attached), "");
}

TEST(ServerFacts, CapturedFromTheServerWithLaunchEnvRecipeAndTimeScale) {
  testing::FakeEngineServer server;
  ArmSpec arm;
  arm.name = "e7b";
  arm.engine = engines::Engine::sim;
  arm.gpus = 8;
  arm.base_url = server.base_url();
  arm.env = {{"SGLANG_X", "1"}};
  arm.recipe = RecipeKey{"glm", "hw=gb300"};
  StopSignal& stop = StopSignal::install();
  auto s = ArmServer::start(arm, {std::filesystem::path(::testing::TempDir()) / "facts.log", {}}, stop, "/x/servebench");
  ASSERT_TRUE(s) << s.error().message;
  const auto facts = capture_facts(arm, **s, FixedWall());
  EXPECT_TRUE(facts.file.facts_error.empty()) << facts.file.facts_error;
  EXPECT_EQ(facts.limits.kv_pool_tokens, 100000);
  EXPECT_EQ(facts.limits.max_running_requests, 16);
  EXPECT_EQ(facts.limits.context_length, 4096);
  EXPECT_EQ(facts.time_scale, 0.5);
  const auto o = results::to_json(facts.file);
  EXPECT_EQ(util::json_string(o, "schema"), "servebench.server_facts/1");
  EXPECT_EQ(util::json_int(o, "gpus"), 8);
  EXPECT_EQ(util::json_string(o, "captured_at"), "2026-11-29T17:00:00Z");
  EXPECT_EQ(util::json_string(o.at("env").as_object(), "SGLANG_X"), "1");
  EXPECT_EQ(util::json_string(o.at("recipe").as_object(), "select"), "hw=gb300");
  EXPECT_EQ(util::json_string(o.at("facts").as_object(), "version"), "fake-1");
  EXPECT_TRUE(o.at("facts").as_object().at("speculative").is_null());
  EXPECT_TRUE(o.at("raw").as_object().contains("/server_info"));

  const auto path = std::filesystem::path(::testing::TempDir()) / ("facts_" + std::to_string(getpid())) / "server_facts.json";
  ASSERT_TRUE(results::write_server_facts(path, facts.file));
  const auto limits = read_limits(path);
  ASSERT_TRUE(limits.has_value());
  EXPECT_EQ(limits->kv_pool_tokens, 100000);
  EXPECT_FALSE(read_limits("/nonexistent/server_facts.json").has_value());
}

}  // namespace
}  // namespace servebench::campaign
