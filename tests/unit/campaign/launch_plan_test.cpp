#include "servebench/campaign/launch_plan.hpp"

#include <gtest/gtest.h>

namespace servebench::campaign {
namespace {

ArmSpec arm_with(std::string launch, std::vector<flags::EnvVar> env = {}) {
  ArmSpec a;
  a.name = "a";
  a.launch = std::move(launch);
  a.env = std::move(env);
  return a;
}

bool has_env(const LaunchPlan& p, const std::string& kv) {
  return std::find(p.spawn.env.begin(), p.spawn.env.end(), kv) != p.spawn.env.end();
}

TEST(LaunchPlan, ServeSimPicksItsOwnPortAndIsThisBinary) {
  const std::filesystem::path self = "/opt/sb/bin/servebench";
  auto p = plan_launch(arm_with("servebench serve-sim --hw h200 --port {port} --sim-oracle"), self);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->port_source, PortSource::listening_line);
  EXPECT_FALSE(p->port.has_value());
  EXPECT_EQ(p->spawn.program, self);
  EXPECT_EQ(p->spawn.argv, (std::vector<std::string>{"servebench", "serve-sim", "--hw", "h200", "--port", "0", "--sim-oracle"}));
  EXPECT_EQ(p->command, "servebench serve-sim --hw h200 --port 0 --sim-oracle");
  ASSERT_FALSE(p->spawn.env.empty());
  EXPECT_TRUE(p->spawn.env.front().starts_with("PATH=/opt/sb/bin:"));
}

TEST(LaunchPlan, OtherCommandsGetAChosenFreePort) {
  auto p = plan_launch(arm_with("A=1 /bin/echo --port {port} --tp 8", {{"B", "2"}}), "/x/servebench");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->port_source, PortSource::chosen);
  ASSERT_TRUE(p->port.has_value());
  EXPECT_GT(*p->port, 0);
  EXPECT_EQ(p->spawn.program, "/bin/echo");
  EXPECT_EQ(p->spawn.argv, (std::vector<std::string>{"/bin/echo", "--port", std::to_string(*p->port), "--tp", "8"}));
  EXPECT_TRUE(has_env(*p, "A=1")) << "leading NAME=value words are environment";
  EXPECT_TRUE(has_env(*p, "B=2"));
}

TEST(LaunchPlan, ShellSyntaxRunsThroughSh) {
  auto p = plan_launch(arm_with("cd /tmp && exec sleep 1 # {port}"), "/x/servebench");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->spawn.program, "/bin/sh");
  ASSERT_EQ(p->spawn.argv.size(), 3u);
  EXPECT_EQ(p->spawn.argv[2], "cd /tmp && exec sleep 1 # " + std::to_string(*p->port));
}

TEST(LaunchPlan, FixedCommandsAreLeftAlone) {
  auto p = plan_launch(arm_with("/bin/true --port 30000"), "/x/servebench");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->port_source, PortSource::fixed);
  EXPECT_EQ(p->command, "/bin/true --port 30000");
}

TEST(LaunchPlan, AMissingProgramIsBadInput) {
  auto p = plan_launch(arm_with("no-such-program-anywhere --x"), "/x/servebench");
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().kind, util::ErrorKind::bad_input);
  EXPECT_EQ(p.error().message, "arm 'a': launch program 'no-such-program-anywhere' is not on PATH");
}

TEST(LaunchPlan, ListeningLine) {
  EXPECT_EQ(parse_listening_line("servebench serve-sim listening on http://127.0.0.1:41234"), 41234);
  EXPECT_EQ(parse_listening_line("servebench serve-sim listening on http://127.0.0.1:8000\r"), 8000);
  EXPECT_FALSE(parse_listening_line("The server is fired up and ready to roll!").has_value());
  EXPECT_FALSE(parse_listening_line("servebench serve-sim listening on http://127.0.0.1:0").has_value());
}

TEST(LaunchPlan, PortHelpers) {
  EXPECT_EQ(substitute_port("http://127.0.0.1:{port}/v1", 8080), "http://127.0.0.1:8080/v1");
  auto port = pick_free_port();
  ASSERT_TRUE(port);
  EXPECT_GT(*port, 0);
  EXPECT_EQ(self_executable().filename(), "unit_campaign");
}

TEST(LaunchPlan, HooksRunThroughShWithServebenchOnPath) {
  const auto s = shell_spawn("echo hi", {"X=1"}, "/opt/sb/servebench");
  EXPECT_EQ(s.program, "/bin/sh");
  EXPECT_EQ(s.argv, (std::vector<std::string>{"sh", "-c", "echo hi"}));
  EXPECT_TRUE(s.env.front().starts_with("PATH=/opt/sb"));
  EXPECT_EQ(s.env.back(), "X=1");
}

}  // namespace
}  // namespace servebench::campaign

namespace servebench::campaign {
namespace {

TEST(LaunchPlan, AWrapperRunsTheCommandThroughShUnderIt) {
  const std::filesystem::path self = "/opt/sb/bin/servebench";
  auto p = plan_launch(arm_with("servebench serve-sim --hw h200 --port {port}", {{"B", "2"}}), self,
                       {"/bin/echo", "--nodes=2", "--overlap"});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->port_source, PortSource::listening_line) << "serve-sim still says which port it took";
  EXPECT_EQ(p->spawn.program, "/bin/echo");
  EXPECT_EQ(p->spawn.argv, (std::vector<std::string>{"/bin/echo", "--nodes=2", "--overlap", "/bin/sh", "-c",
                                                     "servebench serve-sim --hw h200 --port 0"}));
  EXPECT_TRUE(has_env(*p, "B=2"));
  EXPECT_TRUE(p->spawn.env.front().starts_with("PATH=/opt/sb/bin:")) << "servebench resolves to this binary under sh";
  EXPECT_EQ(p->command, "/bin/echo --nodes=2 --overlap servebench serve-sim --hw h200 --port 0");
  EXPECT_FALSE(plan_launch(arm_with("/bin/true"), self, {"no-such-launcher-anywhere"}));
}

}  // namespace
}  // namespace servebench::campaign
