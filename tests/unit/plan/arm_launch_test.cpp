// Which campaign arms plan can simulate, and the serve-sim words it hands to serve-sim's parser.
#include <gtest/gtest.h>

#include "servebench/plan/planner.hpp"

namespace servebench::plan {
namespace {

campaign::ArmSpec arm(std::string launch, engines::Engine engine = engines::Engine::sim) {
  campaign::ArmSpec a;
  a.name = "a";
  a.engine = engine;
  a.launch = std::move(launch);
  return a;
}

TEST(ServeSimArgs, AreTheWordsAfterTheProgramWithThePortPickedByTheServer) {
  auto args = serve_sim_args(arm("FOO=1 servebench serve-sim --hw h200 --tp-size 2 --port {port} --sim-time-scale 0.2"));
  ASSERT_TRUE(args.has_value()) << args.error().message;
  EXPECT_EQ(*args, (std::vector<std::string>{"--hw", "h200", "--tp-size", "2", "--port", "0", "--sim-time-scale", "0.2"}));
  EXPECT_TRUE(serve_sim_args(arm("/opt/bin/servebench serve-sim --hw h200")).has_value());
}

TEST(ServeSimArgs, ArmsTheSimulatorCannotRepresentSayWhy) {
  auto real = serve_sim_args(arm("python -m sglang.launch_server --model-path x", engines::Engine::sglang));
  ASSERT_FALSE(real.has_value());
  EXPECT_NE(real.error().message.find("engine sglang"), std::string::npos);
  auto other = serve_sim_args(arm("python -m something --port {port}"));
  ASSERT_FALSE(other.has_value());
  EXPECT_NE(other.error().message.find("'python'"), std::string::npos);
  auto shell = serve_sim_args(arm("servebench serve-sim --hw h200 | tee log"));
  ASSERT_FALSE(shell.has_value());
  EXPECT_NE(shell.error().message.find("shell"), std::string::npos);
  campaign::ArmSpec attach;
  attach.name = "b";
  attach.base_url = "http://127.0.0.1:30000";
  auto attached = serve_sim_args(attach);
  ASSERT_FALSE(attached.has_value());
  EXPECT_NE(attached.error().message.find("attaches"), std::string::npos);
}

}  // namespace
}  // namespace servebench::plan
