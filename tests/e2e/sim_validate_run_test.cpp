// `servebench sim validate RUN_DIR`: the points of a campaign run directory's ledger replayed by the
// simulator, each arm's launch read as serve-sim reads it. A plan is the simulator's own prediction
// of a campaign, so its run directory must validate close to itself; an SGLang arm needs --hw.
#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"
#include "servebench/results/run_layout.hpp"

namespace servebench::e2e {
namespace {

std::string campaign() {
  return "name: validate-run\n"
         "protocol:\n"
         "  num_prompts: \"max(4, c)\"\n"
         "arms:\n"
         "  - name: one\n"
         "    engine: sim\n"
         "    launch: \"" + sim_launch("--context-length 4096") + "\"\n"
         "scenarios:\n"
         "  - {name: chat, isl: 512, osl: 64, concurrency: [1, 8]}\n";
}

}  // namespace

TEST(SimValidateRun, APlannedRunDirectoryValidatesAgainstItself) {
  const auto dir = campaign_temp_dir("sim_validate_run");
  write_text(dir / "c.yaml", campaign());
  const auto plan = run_servebench({"plan", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(60));
  ASSERT_EQ(plan.exit_code, 0) << plan.out << plan.err;

  const auto v = run_servebench({"sim", "validate", "out", "--json"}, dir, std::chrono::seconds(60));
  ASSERT_EQ(v.exit_code, 0) << v.out << v.err;
  const auto doc = boost::json::parse(v.out).as_object();
  const auto& fold = doc.at("folds").as_array().at(0).as_object();
  const auto& points = fold.at("points").as_array();
  ASSERT_EQ(points.size(), 2u);
  for (const auto& p : points) {
    EXPECT_NE(p.at("source").as_string().find("arm one"), boost::json::string::npos);
    EXPECT_TRUE(p.at("TPOT ms").as_object().contains("measured"));
  }
  // The replay is the same engine on the same cards and the same closed loop as the plan: every
  // metric the ledger holds comes back (a wrong ISL, concurrency, prompt count or deployment would not).
  const auto& m = fold.at("metrics").as_object();
  for (const char* metric : {"TTFT ms", "TPOT ms", "total tok/s/GPU", "output tok/s"}) {
    EXPECT_EQ(m.at(metric).at("n").to_number<int>(), 2) << metric;
    EXPECT_LT(m.at(metric).at("mape_pct").to_number<double>(), 1.0) << metric << "\n" << v.out;
  }
}

TEST(SimValidateRun, AnSglangArmNeedsTheHardwareItRanOn) {
  const auto dir = campaign_temp_dir("sim_validate_sglang");
  write_text(dir / "c.yaml", campaign());
  const auto plan = run_servebench({"plan", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(60));
  ASSERT_EQ(plan.exit_code, 0) << plan.out << plan.err;
  // Make the arm an SGLang launch, as a campaign against a real server records it.
  const results::RunLayout layout(dir / "out");
  auto facts = read_json_file(layout.server_facts("one"));
  facts["launch"] = "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 1 "
                    "--context-length 4096 --port {port}";
  write_text(layout.server_facts("one"), boost::json::serialize(facts));

  const auto no_hw = run_servebench({"sim", "validate", "out"}, dir, std::chrono::seconds(60));
  EXPECT_EQ(no_hw.exit_code, 2) << no_hw.out << no_hw.err;
  EXPECT_NE(no_hw.err.find("give --hw"), std::string::npos) << no_hw.err;

  const auto with_hw = run_servebench({"sim", "validate", "out", "--hw", "h200", "--json"}, dir, std::chrono::seconds(60));
  ASSERT_EQ(with_hw.exit_code, 0) << with_hw.out << with_hw.err;
  const auto doc = boost::json::parse(with_hw.out);
  const auto& fold = doc.at("folds").as_array().at(0).as_object();
  EXPECT_EQ(fold.at("points").as_array().size(), 2u);
  EXPECT_LT(fold.at("metrics").at("TPOT ms").at("mape_pct").to_number<double>(), 1.0) << with_hw.out;
}

}  // namespace servebench::e2e
