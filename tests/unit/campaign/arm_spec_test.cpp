#include "servebench/campaign/arm_spec.hpp"

#include <gtest/gtest.h>

namespace servebench::campaign {
namespace {

std::string with_arm(const std::string& arm) {
  return "name: t\narms:\n  - " + arm + "\nscenarios: [{name: s, isl: 10, osl: 10, concurrency: [1]}]\n";
}

std::string error_of(const std::string& arm) {
  auto spec = parse_campaign(with_arm(arm), "t.yaml", "/");
  return spec ? "parsed" : spec.error().message;
}

ArmSpec arm_of(const std::string& arm) {
  auto spec = parse_campaign(with_arm(arm), "t.yaml", "/");
  EXPECT_TRUE(spec) << spec.error().message;
  return spec ? spec->arms.at(0) : ArmSpec{};
}

TEST(ArmSpec, NamesMustBeDirectoryNames) {
  EXPECT_TRUE(is_valid_name("e7b"));
  EXPECT_TRUE(is_valid_name("gb300-fp8_v1.2"));
  EXPECT_FALSE(is_valid_name("a b"));
  EXPECT_FALSE(is_valid_name("a/b"));
  EXPECT_FALSE(is_valid_name(".."));
  EXPECT_FALSE(is_valid_name(""));
  EXPECT_EQ(error_of("{name: 'a b', engine: sim, base_url: 'http://x:1'}"),
            "t.yaml:3:12: arm name 'a b' may use only letters, digits, '.', '_' and '-' (it names a directory)");
}

TEST(ArmSpec, LaunchOrBaseUrl) {
  EXPECT_EQ(error_of("{name: a, engine: sim}"), "t.yaml:3:5: arm 'a' needs 'launch' or 'base_url' (attach to a running server)");
  EXPECT_EQ(error_of("{name: a, engine: sim, base_url: 'http://127.0.0.1:{port}'}"),
            "t.yaml:3:38: arm 'a': base_url uses {port} but there is no launch to pick it");
  EXPECT_EQ(error_of("{name: a, engine: sim, launch: 'servebench serve-sim --port 30000'}"),
            "t.yaml:3:36: arm 'a': give base_url, or use {port} in launch");
  EXPECT_EQ(error_of("{name: a, engine: sim, launch: 'x --port {port}', base_url: 'http://127.0.0.1:9'}"),
            "t.yaml:3:65: arm 'a': use {port} in both launch and base_url, or in neither");
  EXPECT_EQ(error_of("{name: a, engine: sim, launch: \"x 'unterminated\"}").substr(0, 26), "t.yaml:3:36: arm 'a'.launc");
}

TEST(ArmSpec, UnknownEngine) {
  EXPECT_EQ(error_of("{name: a, engine: tgi, base_url: 'http://x:1'}").substr(0, 32), "t.yaml:3:23: arm 'a'.engine: unk");
}

TEST(ArmSpec, GateBlock) {
  EXPECT_FALSE(arm_of("{name: a, engine: sim, base_url: 'http://x:1', gate: false}").gate.enabled);
  const auto g = arm_of("{name: a, engine: sim, base_url: 'http://x:1', gate: {required: false, tool_call: true, problems: 3}}").gate;
  EXPECT_TRUE(g.enabled);
  EXPECT_FALSE(g.required);
  EXPECT_EQ(g.tool_call, ToolCallProbe::on);
  EXPECT_EQ(g.problems, 3);
  EXPECT_EQ(error_of("{name: a, engine: sim, base_url: 'http://x:1', gate: {probes: 3}}").substr(0, 44),
            "t.yaml:3:59: unknown key 'probes' in arm 'a'");
  EXPECT_EQ(error_of("{name: a, engine: sim, base_url: 'http://x:1', gate: {tool_call: maybe}}"),
            "t.yaml:3:70: gate.tool_call must be auto, true or false");
}

TEST(ArmSpec, EnvHooksRecipeAndTimeouts) {
  const auto a = arm_of(
      "{name: a, engine: sglang, launch: 'python3 -m sglang.launch_server --port {port}', env: {A: '1', B: x},"
      " before: 'echo b', after: 'echo a', ready_timeout_s: 5, stop_timeout_s: 2,"
      " recipe: {catalog: glm, select: 'hw=gb300,quant=fp8'}}");
  ASSERT_EQ(a.env.size(), 2u);
  EXPECT_EQ(a.env[1].name, "B");
  EXPECT_EQ(a.before, "echo b");
  EXPECT_EQ(a.after, "echo a");
  EXPECT_EQ(a.ready_timeout, std::chrono::seconds(5));
  EXPECT_EQ(a.stop_timeout, std::chrono::seconds(2));
  ASSERT_TRUE(a.recipe.has_value());
  EXPECT_EQ(a.recipe->select, "hw=gb300,quant=fp8");
  EXPECT_EQ(error_of("{name: a, engine: sim, base_url: 'http://x:1', env: [A=1]}"),
            "t.yaml:3:57: arm 'a'.env must be a mapping NAME: value");
  EXPECT_EQ(error_of("{name: a, engine: sim, base_url: 'http://x:1', ready_timeout_s: 0}"),
            "t.yaml:3:69: arm 'a'.ready_timeout_s must be in 1..604800 (got 0)");
}

}  // namespace
}  // namespace servebench::campaign
