#include "servebench/report/arm_facts.hpp"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "report_test_support.hpp"
#include "servebench/util/file_io.hpp"

using namespace servebench::report;
using servebench::report::test_support::fixture;

TEST(ServerFacts, ReadsLaunchCapacityAndSpeculation) {
  const auto f = read_server_facts(fixture("two-arm/arms/e7b/server_facts.json"));
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_TRUE(f->found);
  EXPECT_EQ(f->engine, "sglang");
  EXPECT_EQ(f->engine_version, "0.5.9");
  EXPECT_EQ(f->gpus, 8);
  EXPECT_EQ(f->kv_pool_tokens, 276480);
  EXPECT_EQ(f->max_running_requests, 16);
  EXPECT_EQ(f->context_length, 270336);
  EXPECT_EQ(f->speculative, "EAGLE3 steps 4, topk 1, draft tokens 5");
  EXPECT_NE(f->launch.find("--speculative-num-draft-tokens 5"), std::string::npos);
  const auto tp = read_server_facts(fixture("two-arm/arms/tp2pp4/server_facts.json"));
  ASSERT_TRUE(tp);
  EXPECT_EQ(tp->speculative, "none");
}

TEST(ServerFacts, MissingFileIsNotFoundAndBrokenFileFailsNamingIt) {
  const auto missing = read_server_facts(fixture("no-such/server_facts.json"));
  ASSERT_TRUE(missing);
  EXPECT_FALSE(missing->found);
  const auto dir = std::filesystem::temp_directory_path() / ("sb_report_arm_facts_test." + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(servebench::util::write_file_atomic(dir / "server_facts.json", "{\"engine\": "));
  const auto broken = read_server_facts(dir / "server_facts.json");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_NE(broken.error().message.find("server_facts.json"), std::string::npos);
}

TEST(Gate, SummarisesProbesAndVerdict) {
  const auto g = read_gate(fixture("two-arm/arms/e7b/gate.json"));
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ(gate_verdict(*g), "passed");
  EXPECT_EQ(g->probes, "arithmetic 8/8 passed; greedy_identity passed; tool_call skipped");
  GateResult failed{true, false, true, "", std::nullopt};
  EXPECT_EQ(gate_verdict(failed), "FAILED");
  failed.required = false;
  EXPECT_EQ(gate_verdict(failed), "failed (not required)");
  EXPECT_EQ(gate_verdict(GateResult{}), "not run");
}
