#include "servebench/results/gate_file.hpp"

#include <unistd.h>

#include <filesystem>

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace servebench::results {
namespace {
namespace fs = std::filesystem;

GateResult sample_gate() {
  GateResult g;
  g.passed = false;
  g.probes.push_back({"arithmetic", false, false, 8, 6, 0.75, 1.0, std::nullopt, "wrong: 3+4=8"});
  g.probes.push_back({"greedy_identity", true, false, 3, 0, 0, 0, true, ""});
  g.probes.push_back({"tool_call", true, true, 0, 0, 0, 0, std::nullopt, "no parser"});
  return g;
}

TEST(GateFile, KeysDependOnTheProbe) {
  const auto o = to_json(sample_gate(), "e7b");
  EXPECT_EQ(o.at("schema").as_string(), "servebench.gate/1");
  EXPECT_EQ(o.at("arm").as_string(), "e7b");
  EXPECT_FALSE(o.at("passed").as_bool());
  const auto& probes = o.at("probes").as_array();
  EXPECT_EQ(probes[0].at("correct").as_int64(), 6);
  EXPECT_FALSE(probes[1].as_object().contains("correct"));
  EXPECT_TRUE(probes[1].at("identical").as_bool());
  EXPECT_TRUE(probes[2].at("skipped").as_bool());
  EXPECT_FALSE(probes[0].as_object().contains("skipped"));
}

TEST(GateFile, RoundTripsAndSummarises) {
  const auto dir = fs::temp_directory_path() / ("sb_gate_file_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ASSERT_TRUE(write_gate(dir / "gate.json", sample_gate(), "e7b"));
  auto back = read_gate(dir / "gate.json");
  ASSERT_TRUE(back && *back);
  EXPECT_EQ(to_json(**back, "e7b"), to_json(sample_gate(), "e7b"));
  EXPECT_EQ((*back)->summary(), "arithmetic 6/8, greedy_identity ok, tool_call skipped");
  EXPECT_EQ(GateResult{}.summary(), "gate not run");
  auto missing = read_gate(dir / "no-gate.json");
  ASSERT_TRUE(missing);
  EXPECT_FALSE(*missing);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace servebench::results
