#include "servebench/campaign/gate.hpp"

#include <gtest/gtest.h>

#include "servebench/http/blocking_client.hpp"
#include "servebench/util/json_text.hpp"
#include "unit/campaign/fake_engine_server.hpp"

namespace servebench::campaign {
namespace {

using testing::FakeEngineServer;
using testing::GateMode;

ArmSpec arm(bool tool_parser) {
  ArmSpec a;
  a.name = "a";
  a.engine = engines::Engine::sim;
  a.launch = std::string("servebench serve-sim --port {port}") + (tool_parser ? " --tool-call-parser llama3" : "");
  return a;
}

GateResult gate_against(FakeEngineServer& server, const ArmSpec& a) {
  auto client = http::BlockingClient::create(server.base_url());
  EXPECT_TRUE(client);
  return run_gate(a, **client, "fake-model");
}

TEST(Gate, PassesWhenAnswersAreRightStopsAreNaturalAndTextRepeats) {
  FakeEngineServer server(GateMode::correct);
  const auto g = gate_against(server, arm(true));
  ASSERT_EQ(g.passed, std::optional<bool>(true)) << g.summary();
  ASSERT_EQ(g.probes.size(), 3u);
  EXPECT_EQ(g.probes[0].correct, 8);
  EXPECT_EQ(g.probes[0].accuracy, 1.0);
  EXPECT_EQ(g.probes[0].natural_stop_rate, 1.0);
  EXPECT_EQ(g.probes[1].identical, std::optional<bool>(true));
  EXPECT_FALSE(g.probes[2].skipped);
  EXPECT_TRUE(g.probes[2].passed);
  EXPECT_EQ(g.summary(), "arithmetic 8/8, greedy_identity ok, tool_call ok");
  EXPECT_EQ(server.chats.load(), 8 + 3 + 1);
}

TEST(Gate, WrongAnswersFailArithmeticWithExamples) {
  FakeEngineServer server(GateMode::wrong_answers);
  const auto g = gate_against(server, arm(false));
  EXPECT_EQ(g.passed, std::optional<bool>(false));
  EXPECT_EQ(g.probes[0].correct, 0);
  EXPECT_NE(g.probes[0].detail.find("accuracy 0 (min 0.75)"), std::string::npos) << g.probes[0].detail;
  EXPECT_NE(g.probes[0].detail.find("expected "), std::string::npos);
  EXPECT_TRUE(g.probes[2].skipped) << "no tool-call parser declared";
  EXPECT_EQ(summary_of(g).passed, std::optional<bool>(false));
  EXPECT_TRUE(summary_of(g).required);
}

TEST(Gate, DifferingGreedyRepliesFailIdentity) {
  FakeEngineServer server(GateMode::varying_text);
  const auto g = gate_against(server, arm(false));
  EXPECT_EQ(g.probes[1].identical, std::optional<bool>(false));
  EXPECT_FALSE(g.probes[1].passed);
  EXPECT_EQ(g.passed, std::optional<bool>(false));
}

TEST(Gate, ADeclaredToolParserThatNeverCallsFails) {
  FakeEngineServer server(GateMode::no_tool_call);
  const auto g = gate_against(server, arm(true));
  EXPECT_FALSE(g.probes[2].passed);
  EXPECT_NE(g.probes[2].detail.find("finish_reason 'stop'"), std::string::npos) << g.probes[2].detail;
}

TEST(Gate, ACallOfAnotherFunctionFailsTheToolProbe) {
  FakeEngineServer server(GateMode::wrong_tool);
  const auto g = gate_against(server, arm(true));
  EXPECT_FALSE(g.probes[2].passed);
  EXPECT_NE(g.probes[2].detail.find("called get_time"), std::string::npos) << g.probes[2].detail;
}

TEST(Gate, ServerErrorsFailTheProbesWithTheReason) {
  FakeEngineServer server(GateMode::http_error);
  const auto g = gate_against(server, arm(false));
  EXPECT_EQ(g.passed, std::optional<bool>(false));
  EXPECT_NE(g.probes[0].detail.find("HTTP 500"), std::string::npos) << g.probes[0].detail;
}

TEST(Gate, DisabledGateDoesNotRunAndWritesNullPassed) {
  FakeEngineServer server;
  ArmSpec a = arm(false);
  a.gate.enabled = false;
  const auto g = gate_against(server, a);
  EXPECT_FALSE(g.passed.has_value());
  EXPECT_EQ(server.chats.load(), 0);
  const auto json = to_json(g, "a");
  EXPECT_TRUE(json.at("passed").is_null());
  EXPECT_EQ(util::json_string(json, "schema"), "servebench.gate/1");
}

TEST(Gate, JsonHasTheDocumentedKeys) {
  FakeEngineServer server;
  const auto json = to_json(gate_against(server, arm(true)), "a");
  EXPECT_EQ(util::json_string(json, "arm"), "a");
  EXPECT_EQ(util::json_bool(json, "passed"), true);
  const auto& arithmetic = json.at("probes").as_array()[0].as_object();
  EXPECT_EQ(util::json_int(arithmetic, "n"), 8);
  EXPECT_EQ(util::json_number(arithmetic, "natural_stop_rate"), 1.0);
  EXPECT_EQ(util::json_bool(json.at("probes").as_array()[2].as_object(), "skipped"), false);
}

}  // namespace
}  // namespace servebench::campaign
