#include "support/temp_dir.hpp"
#include "servebench/campaign/arm_server.hpp"

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"
#include "unit/campaign/fake_engine_server.hpp"

namespace servebench::campaign {
namespace {

using servebench::testing::fresh_dir;

ArmSpec launched(const std::string& command) {
  ArmSpec a;
  a.name = "a";
  a.engine = engines::Engine::sim;
  a.launch = command;
  a.base_url = "http://127.0.0.1:{port}";
  a.ready_timeout = std::chrono::seconds(1);
  a.stop_timeout = std::chrono::seconds(1);
  return a;
}

TEST(ArmServer, AttachesToARunningServer) {
  testing::FakeEngineServer server;
  ArmSpec a;
  a.name = "attached";
  a.engine = engines::Engine::sim;
  a.base_url = server.base_url();
  const auto dir = fresh_dir("campaign_arm_server", "attach");
  auto s = ArmServer::start(a, {dir / "server.log", dir / "server.pid"}, StopSignal::install(), "/x/servebench");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_FALSE((*s)->launched());
  EXPECT_EQ((*s)->base_url(), server.base_url());
  EXPECT_TRUE((*s)->alive());
  server.health_status = 503;
  EXPECT_FALSE((*s)->alive()) << "an attached server is alive while /health answers 200";
  EXPECT_NE((*s)->death_report().find("stopped answering /health"), std::string::npos);
}

TEST(ArmServer, NotReadyInTimeIsUnreachableWithTheLogTail) {
  const auto dir = fresh_dir("campaign_arm_server", "timeout");
  auto s = ArmServer::start(launched("sh -c 'echo loading {port}; exec sleep 30'"), {dir / "server.log", dir / "server.pid"},
                            StopSignal::install(), "/x/servebench");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, util::ErrorKind::unreachable);
  EXPECT_NE(s.error().message.find("arm 'a': not ready after 1 s"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("loading"), std::string::npos) << s.error().message;
  const auto log = util::read_file(dir / "server.log").value_or("");
  EXPECT_NE(log.find("=== servebench campaign: launching arm 'a'"), std::string::npos) << log;
}

TEST(ArmServer, ExitingDuringStartupIsReportedAtOnce) {
  const auto dir = fresh_dir("campaign_arm_server", "exits");
  const auto t0 = std::chrono::steady_clock::now();
  auto s = ArmServer::start(launched("sh -c 'echo bad flag >&2; exit 2' {port}"), {dir / "server.log", dir / "server.pid"},
                            StopSignal::install(), "/x/servebench");
  ASSERT_FALSE(s);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(900)) << "no wait for the ready timeout";
  EXPECT_NE(s.error().message.find("the server exited with status 2 during startup"), std::string::npos)
      << s.error().message;
  EXPECT_NE(s.error().message.find("bad flag"), std::string::npos);
}

TEST(ArmServer, AnInterruptedStartFailsWithoutWaitingForTheTimeout) {
  StopSignal& stop = StopSignal::install();
  stop.reset_for_tests();
  raise(SIGTERM);
  const auto dir = fresh_dir("campaign_arm_server", "interrupted");
  auto s = ArmServer::start(launched("sh -c 'exec sleep 30' {port}"), {dir / "server.log", dir / "server.pid"}, stop,
                            "/x/servebench");
  stop.reset_for_tests();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, util::ErrorKind::failed);
  EXPECT_NE(s.error().message.find("interrupted by signal 15"), std::string::npos) << s.error().message;
}

}  // namespace
}  // namespace servebench::campaign
