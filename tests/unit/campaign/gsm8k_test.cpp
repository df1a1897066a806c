// The gate on a GSM8K-format file: the final-answer rule, the shipped sample (which serve-sim's
// oracle must answer right), malformed files, and the gsm8k probe's accuracy with its interval.
#include "servebench/campaign/gsm8k.hpp"

#include <gtest/gtest.h>

#include "servebench/campaign/gate.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/http/blocking_client.hpp"
#include "servebench/sim/oracle.hpp"
#include "servebench/stats/intervals.hpp"
#include "servebench/util/file_io.hpp"
#include "unit/campaign/fake_engine_server.hpp"

namespace servebench::campaign {
namespace {

const std::filesystem::path k_sample = std::filesystem::path(SERVEBENCH_SOURCE_DIR) / "examples/quality/gsm8k-sample.jsonl";

TEST(Gsm8k, TheFinalAnswerFollowsTheLastMarker) {
  EXPECT_EQ(gsm8k_final_answer("3 + 4 = 7\n#### 7"), 7);
  EXPECT_EQ(gsm8k_final_answer("#### 1,234"), 1234);
  EXPECT_EQ(gsm8k_final_answer("first #### 2 then #### -5 "), -5);
  EXPECT_FALSE(gsm8k_final_answer("no marker 12"));
  EXPECT_FALSE(gsm8k_final_answer("#### 3.5"));
  EXPECT_FALSE(gsm8k_final_answer("####"));
}

TEST(Gsm8k, TheSampleIsAnsweredRightByTheSimulatorsOracle) {
  const auto problems = load_gsm8k(k_sample, 12);
  ASSERT_TRUE(problems) << problems.error().message;
  ASSERT_EQ(problems->size(), 12u);
  for (const auto& p : *problems) {
    // As the gate asks it: the instruction, then the question.
    const auto solved = sim::solve_word_problem(std::string(word_problem_instruction()) + p.text);
    ASSERT_TRUE(solved.has_value()) << p.text;
    EXPECT_EQ(*solved, p.answer) << p.text;
  }
  const auto first = load_gsm8k(k_sample, 3);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->size(), 3u);
  EXPECT_EQ((*first)[0].text, (*problems)[0].text);
}

TEST(Gsm8k, MalformedFilesNameTheLine) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("gsm8k_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "bad.jsonl";
  ASSERT_TRUE(util::write_file_atomic(file, "{\"question\": \"q\", \"answer\": \"#### 4\"}\n\n{\"question\": \"q\"}\n"));
  const auto missing_key = load_gsm8k(file, 2);
  ASSERT_FALSE(missing_key);
  EXPECT_NE(missing_key.error().message.find("bad.jsonl:3:"), std::string::npos) << missing_key.error().message;
  ASSERT_TRUE(util::write_file_atomic(file, "{\"question\": \"q\", \"answer\": \"four\"}\n"));
  const auto no_answer = load_gsm8k(file, 1);
  ASSERT_FALSE(no_answer);
  EXPECT_NE(no_answer.error().message.find("#### <integer>"), std::string::npos);
  const auto too_few = load_gsm8k(k_sample, 13);
  ASSERT_FALSE(too_few);
  EXPECT_NE(too_few.error().message.find("has 12 problems"), std::string::npos) << too_few.error().message;
  std::filesystem::remove_all(dir);
}

TEST(Gsm8k, TheCampaignReaderResolvesAndChecksTheDataset) {
  const auto yaml = [](const std::string& gate) {
    return "name: g\narms:\n  - {name: a, engine: sim, base_url: \"http://127.0.0.1:1\", gate: " + gate +
           "}\nscenarios:\n  - {name: s, isl: 8, osl: 4, concurrency: [1]}\n";
  };
  const auto ok = parse_campaign(yaml("{dataset: quality/gsm8k-sample.jsonl, problems: 12}"), "g.yaml",
                                 std::filesystem::path(SERVEBENCH_SOURCE_DIR) / "examples");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->arms[0].gate.dataset, k_sample);
  const auto again = parse_campaign(resolved_yaml(*ok), "again.yaml", "/");
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->arms[0].gate.dataset, k_sample);
  const auto missing = parse_campaign(yaml("{dataset: nowhere.jsonl}"), "g.yaml", "/tmp");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("nowhere.jsonl"), std::string::npos) << missing.error().message;
}

TEST(Gsm8k, TheGateProbeRecordsAccuracyWithItsWilsonInterval) {
  testing::FakeEngineServer server(testing::GateMode::correct);
  ArmSpec a;
  a.name = "a";
  a.engine = engines::Engine::sim;
  a.launch = "servebench serve-sim --port {port}";
  a.gate.dataset = k_sample;
  a.gate.problems = 12;
  const auto problems = load_gsm8k(k_sample, 12);
  ASSERT_TRUE(problems);
  server.know(*problems);
  auto client = http::BlockingClient::create(server.base_url());
  ASSERT_TRUE(client);
  const auto g = run_gate(a, **client, "fake-model");
  ASSERT_EQ(g.probes.size(), 3u);
  const auto& p = g.probes[0];
  EXPECT_EQ(p.name, "gsm8k");
  EXPECT_EQ(p.dataset, "gsm8k-sample.jsonl");
  EXPECT_EQ(p.n, 12);
  EXPECT_EQ(p.correct, 12);
  const auto w = stats::wilson(12, 12);
  ASSERT_TRUE(p.wilson_low && p.wilson_high);
  EXPECT_DOUBLE_EQ(*p.wilson_low, w.low);
  EXPECT_DOUBLE_EQ(*p.wilson_high, w.high);
  EXPECT_LT(*p.wilson_low, 0.8) << "12 problems cannot prove much more than 76 %";
  EXPECT_NE(g.summary().find("gsm8k 12/12 (accuracy 1.00, 95% Wilson 0.76–1.00)"), std::string::npos) << g.summary();
  const auto json = results::to_json(g, "a");
  const auto back = results::parse_gate(util::to_json_text(json), "gate.json");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->probes[0].wilson_low, p.wilson_low);
  EXPECT_EQ(back->probes[0].dataset, "gsm8k-sample.jsonl");
}

}  // namespace
}  // namespace servebench::campaign
